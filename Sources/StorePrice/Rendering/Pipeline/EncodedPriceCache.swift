import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The encoded part of a row that depends only on its target and its price, shared by the workers
/// of one bulk run, so that each (target, amount) pair is formatted by ICU and encoded once per
/// run rather than once per worker.
///
/// A part is the row's bytes from after the product's part to before the row's end: for JSON Lines
/// `,"storefront":"USA","account":null,"price_locale":"en_US@currency=USD","amount":"0.99","formatted":"$0.99"`.
/// Parts live in slabs that never move, so a worker that has found a part keeps its address and
/// copies from it. When the cache is full (``byteLimit``, ``entryLimit``), workers keep new parts
/// in bounded slabs of their own, and memory stays flat.
///
/// Workers look parts up without a lock (on two cores, a lock taken for every first sight of a
/// price made the workers sleep on each other thousands of times a run); storing takes one.
/// A slot of the table is published with a release store after its entry is written, and read
/// with an acquire load before its entry is.
///
/// Sendable notes: `slots` are atomics; an entry, a segment pointer and a part's bytes are
/// written, under the `storing` lock, before the release store that publishes them, and never change
/// afterwards; `slabs` and `count` are only touched under that lock.
final class EncodedPriceCache: @unchecked Sendable {
    /// A target and an amount's text of up to 16 bytes (every real price), held as two words; a
    /// longer amount is not shared.
    struct Key: Equatable {
        var target: Int32
        var length: Int32
        var first: UInt64
        var second: UInt64

        init?(target: Int, amount: String) {
            var amount = amount
            guard amount.utf8.count <= 16, let target = Int32(exactly: target) else { return nil }
            self.target = target
            length = Int32(amount.utf8.count)
            // An amount is decimal text, never a NUL: the zero padding cannot be mistaken for it.
            (first, second) = amount.withUTF8(AmountTable.words)
        }

        var hash: UInt64 {
            let mixed = (first &* 0x9E37_79B9_7F4A_7C15) ^ (second &* 0xC2B2_AE3D_27D4_EB4F)
                ^ UInt64(UInt32(bitPattern: target)) << 8 ^ UInt64(UInt32(bitPattern: length))
            return (mixed ^ (mixed >> 29)) &* 0xBF58_476D_1CE4_E5B9
        }
    }

    private struct Entry {
        var key: Key
        var part: EncodedPart
    }

    /// The most bytes of parts kept: 6 MiB, half again the benchmark catalog's 35,000 JSON Lines
    /// parts (3.7 MB).
    static let byteLimit = 6 << 20
    /// The most parts kept.
    static let entryLimit = 1 << 16
    /// Slots of the table, twice the most parts: 1 MiB.
    private static let slotCount = entryLimit * 2
    private static let segmentSize = 4096

    /// Per slot: 0 when empty, else the high 32 bits of the key's hash and its entry number + 1.
    private let slots: UnsafeMutablePointer<Atomic<UInt64>>
    /// Entries in segments of ``segmentSize`` that never move, allocated as they fill.
    private let segments: UnsafeMutablePointer<UnsafeMutablePointer<Entry>?>
    /// Held by the worker storing a part. Stores hold it for well under a microsecond: a worker
    /// that finds it taken spins, then yields; on two cores, a mutex's sleep and wake cost a
    /// context switch per collision, hundreds a run.
    private let storing = Atomic<Bool>(false)
    private var count = 0
    private let slabs = ByteSlabs()

    init() {
        slots = .allocate(capacity: Self.slotCount)
        for index in 0..<Self.slotCount { (slots + index).initialize(to: Atomic(0)) }
        segments = .allocate(capacity: Self.entryLimit / Self.segmentSize)
        segments.initialize(repeating: nil, count: Self.entryLimit / Self.segmentSize)
    }

    deinit {
        slots.deinitialize(count: Self.slotCount)
        slots.deallocate()
        for index in 0..<Self.entryLimit / Self.segmentSize { segments[index]?.deallocate() }
        segments.deallocate()
    }

    /// The part of a key, if a worker has stored it; without a lock.
    func part(for key: Key) -> EncodedPart? {
        let hash = key.hash
        let tag = hash >> 32
        var index = Int(truncatingIfNeeded: hash) & (Self.slotCount - 1)
        while true {
            let slot = slots[index].load(ordering: .acquiring)
            if slot == 0 { return nil }
            if slot >> 32 == tag, let entry = entry(Int(slot & 0xFFFF_FFFF) - 1), entry.key == key {
                return entry.part
            }
            index = (index + 1) & (Self.slotCount - 1)
        }
    }

    /// Stores a key's part and returns where it now lives; the part stored first when another
    /// worker stored the key meanwhile; nil when the cache is full.
    func store(_ key: Key, _ bytes: UnsafeBufferPointer<UInt8>) -> EncodedPart? {
        lock()
        defer { storing.store(false, ordering: .releasing) }
        let hash = key.hash
        let tag = hash >> 32
        var index = Int(truncatingIfNeeded: hash) & (Self.slotCount - 1)
        while true {
            let slot = slots[index].load(ordering: .relaxed)
            if slot == 0 { break }
            if slot >> 32 == tag, let entry = entry(Int(slot & 0xFFFF_FFFF) - 1), entry.key == key {
                return entry.part
            }
            index = (index + 1) & (Self.slotCount - 1)
        }
        guard count < Self.entryLimit, slabs.byteCount + bytes.count <= Self.byteLimit,
            let part = slabs.copy(bytes)
        else { return nil }
        let segment = count / Self.segmentSize
        if segments[segment] == nil { segments[segment] = .allocate(capacity: Self.segmentSize) }
        segments[segment]?.advanced(by: count % Self.segmentSize).initialize(to: Entry(key: key, part: part))
        count += 1
        slots[index].store(tag << 32 | UInt64(count), ordering: .releasing)
        return part
    }

    private func lock() {
        var spins = 0
        while !storing.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            spins += 1
            if spins > 64 {
                sched_yield()
                spins = 0
            }
        }
    }

    private func entry(_ number: Int) -> Entry? {
        segments[number / Self.segmentSize]?[number % Self.segmentSize]
    }
}
