import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The amounts and the encoded (target, price) parts every worker of a bulk run shares, so that
/// each amount is read into a ``Price`` once and each (target, amount) pair is formatted by ICU
/// and encoded once, by whichever worker meets it first, and found by every worker afterwards
/// with a load or two.
///
/// Amounts are numbered per currency, in an open-addressing table keyed by the currency and the
/// amount's bytes (up to 16 of them, as two words; longer ones go to a dictionary), read on every
/// row. A target's parts are kept by the amount's number, in segments of ``segmentSize``. Workers
/// read both without a lock: an entry is written before the release store that publishes it, and
/// read after the acquire load that finds it, and nothing a worker has found ever changes or moves
/// while the tables live. Numbering an amount takes a lock (a few thousand times a run); storing a
/// part is one compare-and-swap, the first worker's part kept when two store the same pair.
///
/// Memory stays flat: past ``amountLimit`` amounts or ``byteLimit`` bytes of parts, workers move
/// to fresh tables between products (see ``Generations``), and these go with the last worker
/// that holds them. A product started on these tables numbers its amounts here whatever their
/// count, so they hold at most `amountLimit + workers × storefronts` amounts.
///
/// Sendable notes: an entry's words, a price and a segment's slots are written before the release
/// store of the key, number or pointer that publishes them, and never change afterwards; `state`
/// is behind its lock; each worker's slabs and long numbers are only touched by that worker.
final class PriceTables: @unchecked Sendable {
    /// A slot of the amount table: the amount's two words, and its key: 0 for an empty slot,
    /// else `tag << 32 | number`, with the tag `(currency + 1) << 8 | length`.
    struct Entry: ~Copyable {
        var first: UInt64 = 0
        var second: UInt64 = 0
        let key = Atomic<UInt64>(0)
    }

    /// Amounts past which workers move to fresh tables: 1.4 times the benchmark catalog's 8,600
    /// (currency, amount) pairs. Each set of tables that fills holds about 10 MB when no amount
    /// repeats; 16,384 took 8 workers past 64 MiB on such a catalog.
    static let amountLimit = 12_288
    /// Bytes of parts past which workers move to fresh tables: 6 MiB, half again the benchmark
    /// catalog's 35,000 JSON Lines parts (3.7 MB).
    static let byteLimit = 6 << 20
    /// Prices and parts per segment.
    static let segmentSize = 1 << segmentShift
    private static let segmentShift = 9
    private static let firstCapacity = 1024

    /// The amount table, by how many times it has doubled: a worker that read an older one
    /// still finds what it held, and looks again under the lock before numbering an amount.
    private let tables: UnsafeMutablePointer<UnsafeMutablePointer<Entry>>
    private let doublings = Atomic<Int>(0)
    /// More doublings than memory allows.
    private static let doublingLimit = 48

    private struct State {
        var used = 0
        var nextNumber: [Int32]
        var long: [LongKey: Int32] = [:]
    }
    fileprivate struct LongKey: Hashable {
        var currency: Int
        var bytes: [UInt8]
    }
    /// A worker's copy of the long amounts' numbers it has met, read without the lock.
    private final class LongNumbers {
        @exclusivity(unchecked) var numbers: [LongKey: Int32] = [:]
    }
    private let state: Locked<State>
    private let amountCount = Atomic<Int>(0)

    private let currencies: Int
    private let targets: Int
    private let segmentsPerKind: Int
    /// Prices by currency, then number: segments written under the lock.
    private let prices: UnsafeMutablePointer<UnsafeMutablePointer<Price>?>
    /// Parts by target, then number: segments of slots holding the address of a part (its
    /// length as an `Int`, then its bytes), 0 for none yet; both published by compare-and-swap.
    private let parts: UnsafeMutablePointer<Atomic<UInt>>
    /// Each worker's copies of the parts it made, and of the long amounts' numbers it met.
    private let slabs: [ByteSlabs]
    private let longNumbers: [LongNumbers]
    private let partBytes = Atomic<Int>(0)

    /// - Parameters:
    ///   - currencies: the plan's currencies; amounts are numbered in each.
    ///   - targets: the plan's targets; parts are kept for each.
    ///   - storefronts: the most prices one product has.
    ///   - workers: the run's workers, numbered from 0.
    init(currencies: Int, targets: Int, storefronts: Int, workers: Int) {
        self.currencies = currencies
        self.targets = targets
        let capacity = Self.amountLimit + max(1, workers) * max(1, storefronts)
        segmentsPerKind = (capacity + Self.segmentSize - 1) / Self.segmentSize
        let first = UnsafeMutablePointer<Entry>.allocate(capacity: Self.firstCapacity)
        for index in 0..<Self.firstCapacity { (first + index).initialize(to: Entry()) }
        tables = .allocate(capacity: Self.doublingLimit)
        tables.initialize(repeating: first, count: Self.doublingLimit)
        state = Locked(State(nextNumber: Array(repeating: 0, count: currencies)))
        prices = .allocate(capacity: max(1, currencies * segmentsPerKind))
        prices.initialize(repeating: nil, count: max(1, currencies * segmentsPerKind))
        parts = .allocate(capacity: max(1, targets * segmentsPerKind))
        for index in 0..<max(1, targets * segmentsPerKind) { (parts + index).initialize(to: Atomic(0)) }
        slabs = (0..<max(1, workers)).map { _ in ByteSlabs() }
        longNumbers = (0..<max(1, workers)).map { _ in LongNumbers() }
    }

    deinit {
        for doubling in 0...doublings.load(ordering: .relaxed) {
            tables[doubling].deinitialize(count: Self.firstCapacity << doubling)
            tables[doubling].deallocate()
        }
        tables.deallocate()
        let numbers = state.withLock { $0.nextNumber }
        for currency in 0..<currencies {
            for segment in 0..<segmentsPerKind {
                guard let prices = prices[currency * segmentsPerKind + segment] else { continue }
                let count = min(Self.segmentSize, max(0, Int(numbers[currency]) - segment * Self.segmentSize))
                prices.deinitialize(count: count)
                prices.deallocate()
            }
        }
        prices.deallocate()
        for index in 0..<max(1, targets * segmentsPerKind) {
            if let segment = UnsafeMutablePointer<Atomic<UInt>>(bitPattern: parts[index].load(ordering: .relaxed)) {
                segment.deinitialize(count: Self.segmentSize)
                segment.deallocate()
            }
        }
        parts.deinitialize(count: max(1, targets * segmentsPerKind))
        parts.deallocate()
    }

    /// Whether workers should move to fresh tables before their next product.
    var isFull: Bool {
        amountCount.load(ordering: .relaxed) >= Self.amountLimit || partBytes.load(ordering: .relaxed) >= Self.byteLimit
    }

    /// Whether the tables hold more than a service's catalogs need (2,048 amounts or 1 MiB of
    /// parts): a large catalog's, not worth keeping after its run.
    var isLarge: Bool {
        amountCount.load(ordering: .relaxed) > 2048 || partBytes.load(ordering: .relaxed) > 1 << 20
    }

    // MARK: Amounts

    /// The amount table as it is now, for a run of lookups: its entries and the mask of its
    /// capacity.
    @inline(__always)
    func amountTable() -> (entries: UnsafeMutablePointer<Entry>, mask: Int) {
        let doubling = doublings.load(ordering: .acquiring)
        return (tables[doubling], (Self.firstCapacity << doubling) &- 1)
    }

    /// The number of an amount given as its two words and tag in a table from
    /// ``amountTable()``, or nil when it has none there.
    @inline(__always)
    static func number(
        _ a: UInt64, _ b: UInt64, tag: UInt32, in table: (entries: UnsafeMutablePointer<Entry>, mask: Int)
    ) -> Int32? {
        var index = hash(a, b, tag) & table.mask
        while true {
            let key = table.entries[index].key.load(ordering: .acquiring)
            if key == 0 { return nil }
            if UInt32(truncatingIfNeeded: key >> 32) == tag, table.entries[index].first == a, table.entries[index].second == b {
                return Int32(truncatingIfNeeded: key)
            }
            index = (index &+ 1) & table.mask
        }
    }

    /// The number of an amount of a currency, or nil when it has none yet; `worker` is the
    /// worker asking.
    func number(_ amount: UnsafeBufferPointer<UInt8>, currency: Int, worker: Int) -> Int32? {
        guard amount.count <= 16 else {
            let key = LongKey(currency: currency, bytes: Array(amount))
            if let known = longNumbers[worker].numbers[key] { return known }
            let number = state.withLock { $0.long[key] }
            if let number { longNumbers[worker].numbers[key] = number }
            return number
        }
        let (a, b) = Self.words(amount)
        return Self.number(a, b, tag: Self.tag(currency: currency, length: amount.count), in: amountTable())
    }

    /// Numbers an amount of a currency with its price, or finds the number another worker gave
    /// it meanwhile; `worker` is the worker asking.
    func add(_ amount: UnsafeBufferPointer<UInt8>, currency: Int, price: Price, worker: Int) -> Int32 {
        let number = add(amount, currency: currency, price: price)
        if amount.count > 16 { longNumbers[worker].numbers[LongKey(currency: currency, bytes: Array(amount))] = number }
        return number
    }

    private func add(_ amount: UnsafeBufferPointer<UInt8>, currency: Int, price: Price) -> Int32 {
        state.withLock { state in
            let key = LongKey(currency: currency, bytes: amount.count > 16 ? Array(amount) : [])
            if amount.count > 16, let known = state.long[key] { return known }
            let (a, b) = Self.words(amount)
            let tag = Self.tag(currency: currency, length: amount.count)
            if amount.count <= 16, let known = Self.number(a, b, tag: tag, in: amountTable()) { return known }
            let number = state.nextNumber[currency]
            state.nextNumber[currency] += 1
            let slot = currency * segmentsPerKind + Int(number) / Self.segmentSize
            if prices[slot] == nil { prices[slot] = .allocate(capacity: Self.segmentSize) }
            prices[slot]?.advanced(by: Int(number) % Self.segmentSize).initialize(to: price)
            if amount.count > 16 {
                state.long[key] = number
            } else {
                // At most half full: a full set of tables (12,288 amounts and a few products'
                // more) fits 32,768 slots.
                if (state.used + 1) * 2 > amountTable().mask + 1 { grow() }
                insert(a, b, key: UInt64(tag) << 32 | UInt64(UInt32(bitPattern: number)), into: amountTable())
                state.used += 1
            }
            amountCount.add(1, ordering: .relaxed)
            return number
        }
    }

    /// The price of a numbered amount.
    func price(currency: Int, number: Int32) -> Price? {
        prices[currency * segmentsPerKind + Int(number) / Self.segmentSize]?[Int(number) % Self.segmentSize]
    }

    /// Writes an entry into an empty slot and publishes it; with the lock held.
    private func insert(_ a: UInt64, _ b: UInt64, key: UInt64, into table: (entries: UnsafeMutablePointer<Entry>, mask: Int)) {
        var index = Self.hash(a, b, UInt32(truncatingIfNeeded: key >> 32)) & table.mask
        while table.entries[index].key.load(ordering: .relaxed) != 0 { index = (index &+ 1) & table.mask }
        table.entries[index].first = a
        table.entries[index].second = b
        table.entries[index].key.store(key, ordering: .releasing)
    }

    /// Copies the amount table into one twice as large and publishes it; with the lock held.
    /// The old one stays, unchanged, for workers still reading it.
    private func grow() {
        let doubling = doublings.load(ordering: .relaxed)
        guard doubling + 1 < Self.doublingLimit else { return }
        let old = amountTable()
        let capacity = Self.firstCapacity << (doubling + 1)
        let grown = UnsafeMutablePointer<Entry>.allocate(capacity: capacity)
        for index in 0..<capacity { (grown + index).initialize(to: Entry()) }
        let table = (entries: grown, mask: capacity - 1)
        for index in 0...old.mask {
            let key = old.entries[index].key.load(ordering: .relaxed)
            if key != 0 { insert(old.entries[index].first, old.entries[index].second, key: key, into: table) }
        }
        tables[doubling + 1] = grown
        doublings.store(doubling + 1, ordering: .releasing)
    }

    // MARK: Parts

    /// The part of a target's price, by the amount's number: its record (see ``ByteSlabs``),
    /// nil when none is kept.
    @inline(__always)
    func part(target: Int, number: Int32) -> UnsafeRawPointer? {
        let number = Int(truncatingIfNeeded: UInt32(bitPattern: number))
        let segment = parts[target &* segmentsPerKind &+ number >> Self.segmentShift].load(ordering: .acquiring)
        guard let slots = UnsafeMutablePointer<Atomic<UInt>>(bitPattern: segment) else { return nil }
        return UnsafeRawPointer(bitPattern: slots[number & (Self.segmentSize &- 1)].load(ordering: .acquiring))
    }

    /// Keeps a target's part for a numbered amount, copied into the worker's slabs, and returns
    /// the record of the part kept: this one, or the one another worker kept first.
    func store(target: Int, number: Int32, _ bytes: UnsafeBufferPointer<UInt8>, worker: Int) -> UnsafeRawPointer? {
        let directory = parts + (target * segmentsPerKind + Int(number) / Self.segmentSize)
        var segment = directory.pointee.load(ordering: .acquiring)
        if segment == 0 {
            let made = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: Self.segmentSize)
            for index in 0..<Self.segmentSize { (made + index).initialize(to: Atomic(0)) }
            let (exchanged, original) = directory.pointee.compareExchange(
                expected: 0, desired: UInt(bitPattern: made), ordering: .acquiringAndReleasing)
            if exchanged {
                segment = UInt(bitPattern: made)
            } else {
                made.deinitialize(count: Self.segmentSize)
                made.deallocate()
                segment = original
            }
        }
        guard let slots = UnsafeMutablePointer<Atomic<UInt>>(bitPattern: segment),
            let record = slabs[worker].record(bytes)
        else { return nil }
        partBytes.add(bytes.count, ordering: .relaxed)
        let (stored, first) = slots[Int(number) % Self.segmentSize].compareExchange(
            expected: 0, desired: UInt(bitPattern: record), ordering: .acquiringAndReleasing)
        return stored ? record : UnsafeRawPointer(bitPattern: first)
    }

    // MARK: Keys

    @inline(__always)
    static func tag(currency: Int, length: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: (currency &+ 1) << 8 | length)
    }

    /// Up to 16 bytes as two little-endian words, zero-padded.
    @inline(__always)
    static func words(_ amount: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(amount).prefix(16)))
        }
        return (UInt64(littleEndian: words.0), UInt64(littleEndian: words.1))
    }

    /// The same words as ``words(_:)`` for `length` (at most 16) bytes at `start`, read as two
    /// loads: the 16 bytes from `start` must be readable, whatever follows the amount.
    @inline(__always)
    static func words(at start: UnsafeRawPointer, length: Int) -> (UInt64, UInt64) {
        let low = UInt64(littleEndian: start.loadUnaligned(as: UInt64.self))
        let high = UInt64(littleEndian: start.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        let lowMask: UInt64 = length >= 8 ? ~0 : (1 &<< UInt64(truncatingIfNeeded: length &* 8)) &- 1
        let highMask: UInt64 = length >= 16 ? ~0 : length <= 8 ? 0 : (1 &<< UInt64(truncatingIfNeeded: (length &- 8) &* 8)) &- 1
        return (low & lowMask, high & highMask)
    }

    /// A slot number from an amount's words and tag: the high half of the mixed product, so that
    /// every byte of the amount moves the low bits a table's mask keeps.
    @inline(__always)
    static func hash(_ a: UInt64, _ b: UInt64, _ tag: UInt32) -> Int {
        let mixed = (a &* 0x9E37_79B9_7F4A_7C15) ^ (b &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(tag)
        return Int(truncatingIfNeeded: ((mixed ^ (mixed >> 29)) &* 0xBF58_476D_1CE4_E5B9) >> 32)
    }
}

extension PriceTables {
    /// The tables the workers of a run move to when the ones they use fill up: each worker
    /// keeps the tables it holds until its next product, then asks for the current ones.
    final class Generations: Sendable {
        private let current: Locked<PriceTables>
        private let make: @Sendable () -> PriceTables

        init(_ make: @escaping @Sendable () -> PriceTables) {
            self.make = make
            current = Locked(make())
        }

        /// The tables in use.
        var tables: PriceTables { current.withLock { $0 } }

        /// Fresh tables in place of full ones: made by the first worker to ask, and found by
        /// the others.
        func renewed(from full: PriceTables) -> PriceTables {
            current.withLock { current in
                if current === full { current = make() }
                return current
            }
        }
    }
}
