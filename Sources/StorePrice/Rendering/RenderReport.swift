/// What a rendering run did.
///
/// It encodes as `{"rows":12,"products":4,"distinct_prices":9,"invalid_products":[…],
/// "locales_without_offer_wording":["sw_KE@currency=KES"]}`, the locales sorted.
public struct RenderReport: Hashable, Sendable, Codable {
    /// Rows rendered.
    public var rows = 0
    /// Products read from the catalog, after any product-ID list.
    public var products = 0
    /// Prices this run formatted with ICU: once per (target, amount) pair, and again for a pair
    /// met after the shared tables filled and the workers moved to fresh ones; two workers
    /// meeting a new pair at the same moment may each format it. A run that reuses the tables
    /// of an earlier run of the same targets and options in the process formats only the pairs
    /// those tables lack, so the count is not the catalog's number of distinct prices.
    public var distinctPrices = 0
    /// Invalid products, in catalog order, then the listed IDs the catalog lacks in list order.
    public var invalidProducts: [InvalidProduct] = []
    /// Price locales whose language has no built-in offer wording: the text of their rows'
    /// offers is nil, and the offers' terms are written instead. Filled by ``BulkRenderer``.
    public var localesWithoutOfferWording: Set<String> = []

    /// A report with nothing counted yet.
    public init() {}

    private enum CodingKeys: String, CodingKey {
        case rows, products
        case distinctPrices = "distinct_prices"
        case invalidProducts = "invalid_products"
        case localesWithoutOfferWording = "locales_without_offer_wording"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rows = try container.decode(Int.self, forKey: .rows)
        products = try container.decode(Int.self, forKey: .products)
        distinctPrices = try container.decode(Int.self, forKey: .distinctPrices)
        invalidProducts = try container.decode([InvalidProduct].self, forKey: .invalidProducts)
        localesWithoutOfferWording = Set(try container.decode([String].self, forKey: .localesWithoutOfferWording))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rows, forKey: .rows)
        try container.encode(products, forKey: .products)
        try container.encode(distinctPrices, forKey: .distinctPrices)
        try container.encode(invalidProducts, forKey: .invalidProducts)
        try container.encode(localesWithoutOfferWording.sorted(), forKey: .localesWithoutOfferWording)
    }
}
