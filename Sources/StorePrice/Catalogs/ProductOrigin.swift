/// Where a catalog product's prices were read: the file, and for each storefront's price its line
/// (where the format has lines), its field and its amount as written.
///
/// A price can be read and still not be shown (`4.80` yen needs rounding); that is found when the
/// catalog is rendered, long after reading, and the error must still name the place in the file
/// and quote the amount as the file writes it, not as ``Price`` normalizes it.
///
/// It takes no part in comparing products: the same product read from two files is equal.
struct ProductOrigin: Hashable, Sendable {
    /// One price's place in the file.
    struct PriceSource: Hashable, Sendable {
        /// The line, or nil where the format has none (`.storekit`).
        var line: Int?
        /// The field, such as `price`, `prices.JPN` or `pro.monthly.displayPrice`.
        var field: String
        /// The amount as the file writes it, such as `4.80`.
        var written: String
    }

    /// The catalog file, as it was named.
    var source: String
    /// Each price's place, by storefront ID.
    var prices: [Int: PriceSource]

    static func == (lhs: ProductOrigin, rhs: ProductOrigin) -> Bool { true }
    func hash(into hasher: inout Hasher) {}

    /// The error for a price of this product that cannot be shown for `target`, naming the
    /// file, line and field and quoting the amount as written.
    func error(_ error: StorePriceError, storefrontID: Int, target: String) -> StorePriceError {
        guard let place = prices[storefrontID] else {
            return .invalidCatalog(source: source, line: nil, field: "for \(target)", reason: error.description)
        }
        var reason = error.description
        if case .excessPrecision(_, let currency, let digits) = error {
            reason = StorePriceError.excessPrecision(amount: place.written, currency: currency, fractionDigits: digits)
                .description
        }
        return .invalidCatalog(source: source, line: place.line, field: "\(place.field) for \(target)", reason: reason)
    }
}
