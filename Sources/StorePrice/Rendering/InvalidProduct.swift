/// A product a run could not render everywhere, and why, as a store reports an invalid product.
///
/// It encodes as `{"product":"com.example.level1","reason":"no_price","storefronts":["CHN"]}`
/// or `{"product":"com.example.gone","reason":"not_in_catalog"}`, and decodes the same.
public struct InvalidProduct: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Why a product is invalid.
    public enum Reason: Hashable, Sendable {
        /// The product-ID list names it, but the catalog has no such product.
        case notInCatalog
        /// The product has no price in these storefronts (alpha-3 codes, sorted).
        case noPrice(storefronts: [String])
    }

    /// The product ID, as the catalog or the product list writes it.
    public let productID: String
    /// Why the product is invalid.
    public let reason: Reason

    /// An invalid product and why.
    public init(productID: String, reason: Reason) {
        self.productID = productID
        self.reason = reason
    }

    /// `com.example.level1: no price in CHN`, the product ID escaped as in errors.
    public var description: String { description(reason: reasonDescription) }

    /// ``description`` with the reason's words given: for listing products that share a reason.
    package func description(reason words: String) -> String { "\(productID.escapedForMessage): \(words)" }

    /// Why, in words: `not in the catalog`, `no price in BLR, RUS`.
    public var reasonDescription: String {
        switch reason {
        case .notInCatalog: "not in the catalog"
        case .noPrice(let storefronts): "no price in \(storefronts.joined(separator: ", "))"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case product, reason, storefronts
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        productID = try container.decode(String.self, forKey: .product)
        switch try container.decode(String.self, forKey: .reason) {
        case "not_in_catalog": reason = .notInCatalog
        case "no_price": reason = .noPrice(storefronts: try container.decode([String].self, forKey: .storefronts))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .reason, in: container,
                debugDescription: "'\(other.escapedForMessage)' is not a reason: not_in_catalog or no_price")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(productID, forKey: .product)
        switch reason {
        case .notInCatalog:
            try container.encode("not_in_catalog", forKey: .reason)
        case .noPrice(let storefronts):
            try container.encode("no_price", forKey: .reason)
            try container.encode(storefronts, forKey: .storefronts)
        }
    }
}
