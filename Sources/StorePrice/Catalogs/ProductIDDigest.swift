/// A product ID as 128 bits, for finding a product that appears twice in a catalog without
/// keeping every ID's text: two independently seeded hashes, whose chance of a false match
/// among a billion IDs is about 10⁻²¹. Digests are comparable within one process only: its
/// hashes are seeded per process.
struct ProductIDDigest: Hashable, Comparable {
    let first: UInt64
    let second: UInt64

    init(_ id: String) {
        var a = Hasher()
        a.combine(0x5EED_0001 as UInt64)
        // The bytes, not the String: String's hash is the same for canonically equivalent text.
        var id = id
        var b = Hasher()
        b.combine(0x5EED_0002 as UInt64)
        id.withUTF8 { bytes in
            a.combine(bytes: UnsafeRawBufferPointer(bytes))
            b.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
        first = UInt64(UInt(bitPattern: a.finalize()))
        second = UInt64(UInt(bitPattern: b.finalize()))
    }

    init(first: UInt64, second: UInt64) {
        self.first = first
        self.second = second
    }

    static func < (a: Self, b: Self) -> Bool {
        a.first != b.first ? a.first < b.first : a.second < b.second
    }
}
