/// A product in a catalog: an ID, localized text, and one price per storefront.
///
/// There is no base price and no conversion: a storefront without a price does not sell the
/// product, and rendering it for that storefront reports it as an invalid product.
///
/// ```swift
/// let level1 = try Product(
///     id: "com.example.level1",
///     prices: [Storefront("USA"): "0.99", Storefront("JPN"): "160"],
///     titles: ["en": "Level 1", "ja": "レベル1"])
/// ```
public struct Product: Hashable, Sendable {
    /// The product identifier, such as `com.example.level1`.
    public let id: String
    /// Prices by storefront ID (``Storefront/id``); each price is in its storefront's currency.
    public let prices: [Int: Price]
    /// Titles by language tag (`en`, `ja`, `zh-Hant`, `fr-CA`), with `-` separators.
    public let titles: [String: String]
    /// Descriptions by language tag.
    public let descriptions: [String: String]
    /// The period and offers of an auto-renewable subscription; nil for other products.
    public let subscription: SubscriptionTerms?
    /// The prices as (storefront ID, packed amount), sorted by ID: what the renderer reads per
    /// product. Derived from `prices`, so equal products have equal copies.
    let packedPrices: [PackedPrice]

    struct PackedPrice: Hashable, Sendable {
        let storefrontID: Int32
        /// ``PackedAmount/pack(_:)`` of the amount; 0 when it is longer than 8 bytes.
        let amount: UInt64
    }

    /// Creates a product from prices already made.
    ///
    /// - Throws: ``StorePriceError/currencyMismatch(price:locale:)`` when a price is not in its
    ///   storefront's currency.
    public init(
        id: String, prices: [Int: Price], titles: [String: String] = [:], descriptions: [String: String] = [:],
        subscription: SubscriptionTerms? = nil
    ) throws(StorePriceError) {
        for (storefrontID, price) in prices {
            let storefront = try Storefront(String(storefrontID))
            guard price.currency == storefront.currency else {
                throw .currencyMismatch(price: price, locale: storefront.priceLocale)
            }
        }
        self.init(checkedID: id, prices: prices, titles: titles, descriptions: descriptions, subscription: subscription)
    }

    /// Creates a product from decimal price text per storefront, each in its storefront's currency.
    public init(
        id: String, prices: [Storefront: String], titles: [String: String] = [:], descriptions: [String: String] = [:],
        subscription: SubscriptionTerms? = nil
    ) throws(StorePriceError) {
        var made: [Int: Price] = [:]
        for (storefront, text) in prices {
            made[storefront.id] = try Price(text, currency: storefront.currency)
        }
        self.init(checkedID: id, prices: made, titles: titles, descriptions: descriptions, subscription: subscription)
    }

    init(
        checkedID id: String, prices: [Int: Price], titles: [String: String], descriptions: [String: String],
        subscription: SubscriptionTerms? = nil
    ) {
        self.id = id
        self.subscription = subscription
        self.prices = prices
        self.packedPrices = prices
            .map { PackedPrice(storefrontID: Int32(truncatingIfNeeded: $0.key), amount: PackedAmount.pack($0.value.amount)) }
            .sorted { $0.storefrontID < $1.storefrontID }
        self.titles = Self.normalizedTags(titles)
        self.descriptions = Self.normalizedTags(descriptions)
    }

    /// The title in the first language of `chain` that has one.
    func title(following chain: TitleChain) -> String? {
        guard !titles.isEmpty else { return nil }
        for tag in chain.tags {
            if let title = titles[tag] { return title }
        }
        return nil
    }

    /// Language tags with `-` separators and canonical case: `en_us` becomes `en-US`.
    static func normalizedTags(_ texts: [String: String]) -> [String: String] {
        guard !texts.isEmpty else { return texts }
        var normalized: [String: String] = [:]
        for (tag, text) in texts { normalized[normalizedTag(tag)] = text }
        return normalized
    }

    static func normalizedTag(_ tag: String) -> String {
        let parts = tag.split(omittingEmptySubsequences: true) { $0 == "_" || $0 == "-" }
        return parts.enumerated().map { index, part in
            if index == 0 { return part.asciiLowercased() }
            if part.utf8.count == 4 { return part.asciiTitlecased() }
            return part.asciiUppercased()
        }.joined(separator: "-")
    }
}

/// The language tags a title is looked up by, most specific first, ending in English.
///
/// For `zh_CN`, whose likely script is Hans: `zh-Hans-CN`, `zh-CN`, `zh-Hans`, `zh`, `en-US`, `en`.
struct TitleChain: Hashable, Sendable {
    let tags: [String]

    init(priceLocale: PriceLocale) {
        let language = priceLocale.language
        let script = priceLocale.scriptOrLikely
        var tags: [String] = []
        if let script, let region = priceLocale.region {
            tags.append("\(language)-\(script)-\(region)")
        }
        if let region = priceLocale.region { tags.append("\(language)-\(region)") }
        if let script { tags.append("\(language)-\(script)") }
        tags.append(language)
        for fallback in ["en-US", "en"] where !tags.contains(fallback) { tags.append(fallback) }
        self.tags = tags
    }
}
