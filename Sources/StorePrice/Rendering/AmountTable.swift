/// Amounts as written in a catalog, numbered per currency: an open-addressing table keyed by the
/// currency and the amount's bytes, so that a row's amount is found without building a `String`.
///
/// Amounts of up to 16 bytes (every real price) are keys of two words; longer ones go to a
/// dictionary. Numbers count from 0 in each currency.
struct AmountTable {
    private var first: [UInt64]
    private var second: [UInt64]
    /// `(currency + 1) << 8 | length`; 0 marks an empty slot.
    private var tags: [UInt32]
    private var values: [Int32]
    private var used = 0
    private var long: [LongKey: Int32] = [:]
    private var nextID: [Int32]

    private struct LongKey: Hashable {
        var currency: Int
        var bytes: [UInt8]
    }

    init(currencies: Int) {
        first = [UInt64](repeating: 0, count: 1024)
        second = first
        tags = [UInt32](repeating: 0, count: 1024)
        values = [Int32](repeating: 0, count: 1024)
        nextID = [Int32](repeating: 0, count: currencies)
    }

    /// Amounts numbered so far, in every currency.
    var count: Int { used + long.count }

    /// The number of an amount in a currency, or nil when it has none yet.
    @inline(__always)
    func number(_ amount: UnsafeBufferPointer<UInt8>, currency: Int) -> Int32? {
        guard amount.count <= 16 else { return long[LongKey(currency: currency, bytes: Array(amount))] }
        let (a, b) = Self.words(amount)
        let tag = UInt32(currency + 1) << 8 | UInt32(amount.count)
        let mask = tags.count - 1
        var index = Self.hash(a, b, tag) & mask
        while true {
            let found = tags[index]
            if found == 0 { return nil }
            if found == tag, first[index] == a, second[index] == b { return values[index] }
            index = (index + 1) & mask
        }
    }

    /// Numbers a new amount in a currency: the next number of that currency.
    mutating func add(_ amount: UnsafeBufferPointer<UInt8>, currency: Int) -> Int32 {
        let id = nextID[currency]
        nextID[currency] += 1
        guard amount.count <= 16 else {
            long[LongKey(currency: currency, bytes: Array(amount))] = id
            return id
        }
        if (used + 1) * 2 > tags.count { grow() }
        let (a, b) = Self.words(amount)
        insert(a, b, UInt32(currency + 1) << 8 | UInt32(amount.count), id)
        return id
    }

    /// Forgets every amount; numbering starts over.
    mutating func removeAll() {
        if tags.count > 1 << 16 {
            // A table grown for many amounts gives its memory back.
            self = AmountTable(currencies: nextID.count)
            return
        }
        for index in tags.indices { tags[index] = 0 }
        used = 0
        long.removeAll()
        for index in nextID.indices { nextID[index] = 0 }
    }

    private mutating func insert(_ a: UInt64, _ b: UInt64, _ tag: UInt32, _ value: Int32) {
        let mask = tags.count - 1
        var index = Self.hash(a, b, tag) & mask
        while tags[index] != 0 { index = (index + 1) & mask }
        first[index] = a
        second[index] = b
        tags[index] = tag
        values[index] = value
        used += 1
    }

    private mutating func grow() {
        let (oldFirst, oldSecond, oldTags, oldValues) = (first, second, tags, values)
        let size = tags.count * 2
        first = [UInt64](repeating: 0, count: size)
        second = first
        tags = [UInt32](repeating: 0, count: size)
        values = [Int32](repeating: 0, count: size)
        used = 0
        for index in oldTags.indices where oldTags[index] != 0 {
            insert(oldFirst[index], oldSecond[index], oldTags[index], oldValues[index])
        }
    }

    /// Up to 16 bytes as two little-endian words, zero-padded.
    @inline(__always)
    static func words(_ amount: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(amount))
        }
        return words
    }

    @inline(__always)
    private static func hash(_ a: UInt64, _ b: UInt64, _ tag: UInt32) -> Int {
        let mixed = (a &* 0x9E37_79B9_7F4A_7C15) ^ (b &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(tag)
        return Int(truncatingIfNeeded: (mixed ^ (mixed >> 29)) &* 0xBF58_476D_1CE4_E5B9 >> 32)
    }
}
