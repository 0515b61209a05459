/// The encoded part of a row that depends only on its target and its price, shared by the workers
/// of one bulk run, so that each (target, amount) pair is formatted by ICU and encoded once per
/// run rather than once per worker.
///
/// A part is the row's bytes from after the product's part to before the row's end: for JSON Lines
/// `,"storefront":"USA","account":null,"price_locale":"en_US@currency=USD","amount":"0.99","formatted":"$0.99"`.
/// Parts live in slabs that never move, so a worker that has found a part keeps its address and
/// copies from it without the lock. When the cache is full (``byteLimit``, ``entryLimit``), workers
/// keep new parts in bounded slabs of their own, and memory stays flat.
///
/// Sendable notes: the table and the slabs are read and written with `state`'s lock held; a part's
/// bytes are written before its address is handed out and never change afterwards.
final class EncodedPriceCache: @unchecked Sendable {
    /// A target and an amount's text of up to 16 bytes (every real price), held as two words; a
    /// longer amount is not shared.
    struct Key: Equatable, Sendable {
        var target: Int
        var length: Int
        var first: UInt64
        var second: UInt64

        init?(target: Int, amount: String) {
            var amount = amount
            guard amount.utf8.count <= 16 else { return nil }
            self.target = target
            length = amount.utf8.count
            // An amount is decimal text, never a NUL: the zero padding cannot be mistaken for it.
            (first, second) = amount.withUTF8(AmountTable.words)
        }

        var hash: Int {
            let mixed = (first &* 0x9E37_79B9_7F4A_7C15) ^ (second &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(target << 8 | length)
            return Int(truncatingIfNeeded: (mixed ^ (mixed >> 29)) &* 0xBF58_476D_1CE4_E5B9 >> 32)
        }
    }

    /// The most bytes of parts kept: 8 MiB, the benchmark catalog's 35,000 JSON Lines parts.
    static let byteLimit = 8 << 20
    /// The most parts kept.
    static let entryLimit = 1 << 16

    private struct State: Sendable {
        var keys: [Key?] = Array(repeating: nil, count: 4096)
        var parts: [EncodedPart?] = Array(repeating: nil, count: 4096)
        var count = 0
    }

    private let state = Locked(State())
    private let slabs = ByteSlabs()

    /// The part of a key, if a worker has stored it.
    func part(for key: Key) -> EncodedPart? {
        state.withLock { state in
            let mask = state.keys.count - 1
            var index = key.hash & mask
            while let found = state.keys[index] {
                if found == key { return state.parts[index] }
                index = (index + 1) & mask
            }
            return nil
        }
    }

    /// Stores a key's part and returns where it now lives; the part stored first when another
    /// worker stored the key meanwhile; nil when the cache is full.
    func store(_ key: Key, _ bytes: UnsafeBufferPointer<UInt8>) -> EncodedPart? {
        state.withLock { state -> EncodedPart? in
            var mask = state.keys.count - 1
            var index = key.hash & mask
            while let found = state.keys[index] {
                if found == key { return state.parts[index] }
                index = (index + 1) & mask
            }
            guard state.count < Self.entryLimit, slabs.byteCount + bytes.count <= Self.byteLimit,
                let part = slabs.copy(bytes)
            else { return nil }
            if (state.count + 1) * 2 > state.keys.count {
                Self.grow(&state)
                mask = state.keys.count - 1
                index = key.hash & mask
                while state.keys[index] != nil { index = (index + 1) & mask }
            }
            state.keys[index] = key
            state.parts[index] = part
            state.count += 1
            return part
        }
    }

    private static func grow(_ state: inout State) {
        let (keys, parts) = (state.keys, state.parts)
        state.keys = Array(repeating: nil, count: keys.count * 2)
        state.parts = Array(repeating: nil, count: keys.count * 2)
        let mask = state.keys.count - 1
        for (key, part) in zip(keys, parts) {
            guard let key else { continue }
            var index = key.hash & mask
            while state.keys[index] != nil { index = (index + 1) & mask }
            state.keys[index] = key
            state.parts[index] = part
        }
    }
}

/// Encoded bytes that never move, and how many there are.
///
/// Sendable notes: the bytes are written before a part is made and never change while it is used.
struct EncodedPart: @unchecked Sendable {
    var start: UnsafePointer<UInt8>
    var count: Int
}

/// Bytes copied into slabs that never move, so that an ``EncodedPart`` stays valid until
/// ``removeAll()`` or the slabs go.
final class ByteSlabs {
    static let slabSize = 256 << 10
    private var slabs: [UnsafeMutablePointer<UInt8>] = []
    private var used = ByteSlabs.slabSize
    /// Bytes allocated for slabs.
    private(set) var byteCount = 0

    deinit {
        for slab in slabs { slab.deallocate() }
    }

    /// A copy of `bytes`; nil for no bytes.
    func copy(_ bytes: UnsafeBufferPointer<UInt8>) -> EncodedPart? {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return nil }
        if bytes.count > Self.slabSize {
            // A part longer than a slab (a very long account name) gets one of its own.
            let own = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
            own.update(from: source, count: bytes.count)
            slabs.insert(own, at: max(0, slabs.count - 1))
            byteCount += bytes.count
            return EncodedPart(start: own, count: bytes.count)
        }
        if used + bytes.count > Self.slabSize {
            slabs.append(.allocate(capacity: Self.slabSize))
            byteCount += Self.slabSize
            used = 0
        }
        guard let slab = slabs.last else { return nil }
        (slab + used).update(from: source, count: bytes.count)
        defer { used += bytes.count }
        return EncodedPart(start: slab + used, count: bytes.count)
    }

    /// Frees every slab.
    func removeAll() {
        for slab in slabs { slab.deallocate() }
        slabs.removeAll()
        used = Self.slabSize
        byteCount = 0
    }
}
