/// Amounts as written in a catalog, numbered per currency: an open-addressing table keyed by the
/// currency and the amount's bytes, so that a row's amount is found without building a `String`.
///
/// Amounts of up to 16 bytes (every real price) are keys of two words, in one contiguous table
/// read on every row; longer ones go to a dictionary. Numbers count from 0 in each currency.
struct AmountTable: ~Copyable {
    /// A slot of the table: the amount's two words, `(currency + 1) << 8 | length` (0 for an
    /// empty slot) and its number.
    struct Entry {
        var first: UInt64 = 0
        var second: UInt64 = 0
        var tag: UInt32 = 0
        var number: Int32 = 0
    }

    private(set) var entries: UnsafeMutablePointer<Entry>
    /// Slots in `entries`, a power of two.
    private(set) var capacity: Int
    private var used = 0
    private var long: [LongKey: Int32] = [:]
    private var nextNumber: [Int32]

    private struct LongKey: Hashable {
        var currency: Int
        var bytes: [UInt8]
    }

    init(currencies: Int) {
        capacity = 1024
        entries = .allocate(capacity: capacity)
        entries.initialize(repeating: Entry(), count: capacity)
        nextNumber = [Int32](repeating: 0, count: currencies)
    }

    deinit {
        entries.deallocate()
    }

    /// Amounts numbered so far, in every currency.
    var count: Int { used + long.count }

    /// The number of an amount in a currency, or nil when it has none yet.
    func number(_ amount: UnsafeBufferPointer<UInt8>, currency: Int) -> Int32? {
        guard amount.count <= 16 else { return long[LongKey(currency: currency, bytes: Array(amount))] }
        let (a, b) = Self.words(amount)
        return number(a, b, tag: Self.tag(currency: currency, length: amount.count))
    }

    /// The number of an amount given as its two words and tag, or nil when it has none yet.
    @inline(__always)
    func number(_ a: UInt64, _ b: UInt64, tag: UInt32) -> Int32? {
        let mask = capacity &- 1
        var index = Self.hash(a, b, tag) & mask
        while true {
            let entry = entries[index]
            if entry.tag == tag, entry.first == a, entry.second == b { return entry.number }
            if entry.tag == 0 { return nil }
            index = (index &+ 1) & mask
        }
    }

    /// Numbers a new amount in a currency: the next number of that currency.
    mutating func add(_ amount: UnsafeBufferPointer<UInt8>, currency: Int) -> Int32 {
        let number = nextNumber[currency]
        nextNumber[currency] += 1
        guard amount.count <= 16 else {
            long[LongKey(currency: currency, bytes: Array(amount))] = number
            return number
        }
        if (used + 1) * 2 > capacity { grow() }
        let (a, b) = Self.words(amount)
        insert(Entry(first: a, second: b, tag: Self.tag(currency: currency, length: amount.count), number: number))
        return number
    }

    /// Forgets every amount; numbering starts over.
    mutating func removeAll() {
        if capacity > 1 << 16 {
            // A table grown for many amounts gives its memory back.
            entries.deallocate()
            capacity = 1024
            entries = .allocate(capacity: capacity)
        }
        entries.initialize(repeating: Entry(), count: capacity)
        used = 0
        long.removeAll()
        for index in nextNumber.indices { nextNumber[index] = 0 }
    }

    private mutating func insert(_ entry: Entry) {
        let mask = capacity - 1
        var index = Self.hash(entry.first, entry.second, entry.tag) & mask
        while entries[index].tag != 0 { index = (index + 1) & mask }
        entries[index] = entry
        used += 1
    }

    private mutating func grow() {
        let old = entries
        let oldCapacity = capacity
        capacity *= 2
        entries = .allocate(capacity: capacity)
        entries.initialize(repeating: Entry(), count: capacity)
        used = 0
        for index in 0..<oldCapacity where old[index].tag != 0 { insert(old[index]) }
        old.deallocate()
    }

    @inline(__always)
    static func tag(currency: Int, length: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: (currency &+ 1) << 8 | length)
    }

    /// Up to 16 bytes as two little-endian words, zero-padded.
    @inline(__always)
    static func words(_ amount: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(amount))
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

    @inline(__always)
    static func hash(_ a: UInt64, _ b: UInt64, _ tag: UInt32) -> Int {
        let mixed = (a &* 0x9E37_79B9_7F4A_7C15) ^ (b &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(tag)
        return Int(truncatingIfNeeded: (mixed ^ (mixed >> 29)) &* 0xBF58_476D_1CE4_E5B9 >> 32)
    }
}
