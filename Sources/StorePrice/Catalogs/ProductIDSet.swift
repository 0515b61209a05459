/// A set of product IDs told apart by their UTF-8 bytes.
///
/// Swift's `Set<String>` calls canonically equivalent text equal: `com.example.é` written
/// precomposed (U+00E9) and decomposed (`e` and U+0301) would be one product. A product ID is
/// its bytes, in every path from a catalog to rows.
struct ProductIDSet: Sendable {
    private var members: Set<[UInt8]> = []

    init() {}

    init(_ ids: some Sequence<String>) {
        for id in ids { members.insert(Array(id.utf8)) }
    }

    func contains(_ id: String) -> Bool { members.contains(Array(id.utf8)) }

    /// Inserts an ID; whether it was new.
    @discardableResult
    mutating func insert(_ id: String) -> Bool { members.insert(Array(id.utf8)).inserted }
}
