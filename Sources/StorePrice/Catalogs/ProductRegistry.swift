/// Each product's first line in a catalog, to find a product that appears twice: in a bulk run,
/// a catalog reader and a list of products in memory.
///
/// Products are kept as 16-byte digests of their IDs' bytes (``ProductIDDigest``) with their first
/// lines, in memory: about 70 bytes a product (see <doc:LimitsAndReliability>). Two spellings of
/// one text (NFC and NFD) are two products, as the stores compare IDs.
struct ProductRegistry {
    private var firstLines: [ProductIDDigest: Int] = [:]

    /// Room for `count` products, made once rather than as they come.
    mutating func reserveCapacity(_ count: Int) {
        firstLines.reserveCapacity(count)
    }

    /// Records the product on `line`; returns the line it first appeared on, when it did before.
    mutating func insert(_ id: String, line: Int) -> Int? {
        // One lookup for a new product; a repeated one puts its first line back.
        let digest = ProductIDDigest(id)
        guard let first = firstLines.updateValue(line, forKey: digest) else { return nil }
        firstLines[digest] = first
        return first
    }
}
