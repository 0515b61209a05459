/// A product ID as 128 bits, for finding a product that appears twice in a catalog of any size
/// without keeping every ID: two independently seeded hashes, whose chance of a false match
/// among a billion IDs is about 10⁻²¹.
struct ProductIDDigest: Hashable {
    private let first: Int
    private let second: Int

    init(_ id: String) {
        var a = Hasher()
        a.combine(0x5EED_0001 as UInt64)
        a.combine(id)
        var b = Hasher()
        b.combine(0x5EED_0002 as UInt64)
        b.combine(id)
        first = a.finalize()
        second = b.finalize()
    }
}
