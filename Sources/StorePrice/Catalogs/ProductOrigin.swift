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
    /// Each price's place, by storefront ID, but for those ``shared`` gives.
    var prices: [Int: PriceSource]
    /// Where the other prices were read, where they share a line and a field's start: a JSON
    /// Lines product's prices are on its line, each in `prices.` and its storefront's code, and
    /// a price kept only there is written as its ``Price/amount`` is and keyed by the alpha-3
    /// code. A price is thus 16 bytes of its product, not a place of its own.
    var shared: (line: Int, fieldPrefix: String)?

    init(source: String, prices: [Int: PriceSource]) {
        self.source = source
        self.prices = prices
        self.shared = nil
    }

    /// Prices read on one line under `fieldPrefix` and their alpha-3 codes, as written; those
    /// read otherwise (another code, an amount written otherwise) have a place in `exceptions`.
    init(source: String, line: Int, fieldPrefix: String, exceptions: [Int: PriceSource]) {
        self.source = source
        self.prices = exceptions
        self.shared = (line, fieldPrefix)
    }

    static func == (lhs: ProductOrigin, rhs: ProductOrigin) -> Bool { true }
    func hash(into hasher: inout Hasher) {}

    /// The error for a price of this product that cannot be shown for `target`, naming the
    /// file, line and field and quoting the amount as written.
    func error(_ error: StorePriceError, storefrontID: Int, target: String) -> StorePriceError {
        if prices[storefrontID] == nil, let shared, let storefront = StorefrontTable.shared.storefront(ofNumericID: storefrontID) {
            // Its amount is written as the error quotes it.
            return .invalidCatalog(
                source: source, line: shared.line, field: "\(shared.fieldPrefix)\(storefront.countryCode) for \(target)",
                reason: error.description)
        }
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
