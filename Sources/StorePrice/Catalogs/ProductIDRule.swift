/// Which product IDs a catalog may have.
///
/// By default, what App Store Connect accepts: 1 to 100 of `A`–`Z`, `a`–`z`, `0`–`9`, `.`, `-`
/// and `_` (Google Play accepts fewer). Every product ID in the real `.storekit` files and product
/// lists StorePrice is tested on is one. ``any`` keeps any text, for catalogs whose IDs are not
/// store product IDs; StorePrice then escapes and neutralizes them on every output.
public enum ProductIDRule: String, Hashable, Sendable, CaseIterable, Codable {
    /// App Store Connect's product IDs, the default.
    case appStore
    /// Google Play's product IDs: a lower-case letter or digit, then lower-case letters, digits,
    /// `_` and `.` (`coins_100`); a subscription's base plan is `productId:basePlanId`, the base
    /// plan ID lower-case letters, digits and `-`, at most 63 (`premium:monthly`).
    case googlePlay
    /// Any non-empty text.
    case any

    /// Why `id` breaks the rule, or nil.
    public func problem(with id: String) -> String? {
        if self == .googlePlay { return Self.playProblem(id) }
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

    /// Why `id` is no Play product ID or `productId:basePlanId`, or nil.
    private static func playProblem(_ id: String) -> String? {
        let parts = id.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        if let problem = playProductIDProblem(String(parts[0])) { return problem }
        guard parts.count == 2 else { return nil }
        return playOfferIDProblem(String(parts[1]), kind: "base plan ID")
    }

    /// Why `id` is no Play product ID (a one-time product's or a subscription's), or nil.
    static func playProductIDProblem(_ id: String) -> String? {
        let product = id.utf8
        let lowerOrDigit = { (byte: UInt8) in (0x61...0x7A).contains(byte) || byte.isASCIIDigit }
        guard let first = product.first, lowerOrDigit(first),
            product.allSatisfy({ lowerOrDigit($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") })
        else {
            return "'\(id.escapedForMessage)' is not a Google Play product ID: a lower-case letter or digit, "
                + "then lower-case letters, digits, '_' or '.'"
        }
        return nil
    }

    /// Why `id` is no Play base plan or offer ID, or nil: 1 to 63 lower-case letters, digits and
    /// `-`, starting with a letter or digit.
    static func playOfferIDProblem(_ id: String, kind: String = "offer ID") -> String? {
        let bytes = id.utf8
        let lowerOrDigit = { (byte: UInt8) in (0x61...0x7A).contains(byte) || byte.isASCIIDigit }
        guard let first = bytes.first, lowerOrDigit(first), bytes.count <= 63,
            bytes.allSatisfy({ lowerOrDigit($0) || $0 == UInt8(ascii: "-") })
        else {
            return "'\(id.escapedForMessage)' is not a Google Play \(kind): 1 to 63 lower-case letters, digits or '-', "
                + "starting with a letter or digit"
        }
        return nil
    }
}
