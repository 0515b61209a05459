/// Which product IDs a catalog may have.
///
/// By default, what App Store Connect accepts: 1 to 100 of `A`–`Z`, `a`–`z`, `0`–`9`, `.`, `-`
/// and `_` (Google Play accepts fewer). Every product ID in the real `.storekit` files and product
/// lists StorePrice is tested on is one. ``any`` keeps any text, for catalogs whose IDs are not
/// store product IDs; StorePrice then escapes and neutralizes them on every output.
public enum ProductIDRule: String, Hashable, Sendable, CaseIterable, Codable {
    /// App Store Connect's product IDs, the default.
    case appStore
    /// Any non-empty text.
    case any

    /// Why `id` breaks the rule, or nil.
    public func problem(with id: String) -> String? {
        guard self == .appStore else { return nil }
        let bytes = id.utf8
        func allowed(_ byte: UInt8) -> Bool {
            byte.isASCIILetter || byte.isASCIIDigit || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_")
        }
        // A native string's bytes are read in place.
        let allAllowed = bytes.withContiguousStorageIfAvailable { $0.allSatisfy(allowed) } ?? bytes.allSatisfy(allowed)
        guard !allAllowed || bytes.isEmpty || bytes.count > 100 else { return nil }
        return "'\(id.escapedForMessage)' is not an App Store product ID: 1 to 100 letters, digits, '.', '-' or '_'"
    }
}
