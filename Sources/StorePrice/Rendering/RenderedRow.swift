/// One rendered price: a product, for a storefront or test account, in its price locale, with
/// what a subscription adds.
///
/// A row is `Codable` in the row schema (``RowField``): `JSONEncoder().encode(row)` gives the
/// keys and values of the row `storeprice render` writes for the same product and target, and
/// decoding such a row gives the row back.
///
/// ```swift
/// let products = [try Product(id: "coins.100", prices: ["USA": "0.99", "JPN": "160"])]
/// let (rows, _) = try CatalogRenderer(targets: RenderTarget.storefronts([try Storefront("JPN")])).render(products)
/// rows[0].formatted  // "￥160"
/// String(decoding: try JSONEncoder().encode(rows[0]), as: UTF8.self)
/// // {"product":"coins.100","storefront":"JPN","account":null,"price_locale":"ja_JP@currency=JPY",
/// //  "amount":"160","formatted":"￥160","title":null,"period":null,…,"billing_plans":null,"paywall":null}
/// ```
public struct RenderedRow: Hashable, Sendable, Codable {
    /// The product ID.
    public let productID: String
    /// The storefront whose price this is.
    public let storefront: Storefront
    /// The test account's name, when rendering for accounts.
    public let account: String?
    /// The price locale the price is shown in.
    public let priceLocale: PriceLocale
    /// The price in the storefront.
    public let price: Price
    /// The price as the store shows it.
    public let formatted: String
    /// The product's title in the store language, falling back to the language alone, then English.
    public let title: String?
    /// The period, price per period, offers and billing plans of a subscription; nil for other
    /// products.
    public let subscription: RenderedSubscription?

    /// A row, as ``CatalogRenderer`` makes them.
    public init(
        productID: String, target: RenderTarget, price: Price, formatted: String, title: String?,
        subscription: RenderedSubscription? = nil
    ) {
        self.productID = productID
        self.storefront = target.storefront
        self.account = target.account?.name
        self.priceLocale = target.priceLocale
        self.price = price
        self.formatted = formatted
        self.title = title
        self.subscription = subscription
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: RowField.self)
        productID = try container.decode(String.self, forKey: .product)
        storefront = try container.decode(Storefront.self, forKey: .storefront)
        account = try container.decodeIfPresent(String.self, forKey: .account)
        priceLocale = try container.decode(PriceLocale.self, forKey: .priceLocale)
        let currency = priceLocale.currency
        // A storefront's rows are in its currency, whatever the language.
        guard currency == storefront.currency else {
            throw DecodingError.dataCorruptedError(
                forKey: .priceLocale, in: container,
                debugDescription: "\(storefront.countryCode) charges \(storefront.currency), not \(currency)")
        }
        func price(_ amount: String, _ key: RowField) throws -> Price {
            do {
                return try Price(amount, currency: currency)
            } catch {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: error.description)
            }
        }
        self.price = try price(container.decode(String.self, forKey: .amount), .amount)
        formatted = try container.decode(String.self, forKey: .formatted)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        if let period = try container.decodeIfPresent(SubscriptionPeriod.self, forKey: .period) {
            do {
                subscription = RenderedSubscription(
                    period: period,
                    pricePerPeriod: try container.decode(String.self, forKey: .pricePerPeriod),
                    offers: try container.decodeIfPresent([RenderedOffer.Fields].self, forKey: .offers)?.map {
                        try $0.offer(currency: currency)
                    } ?? [],
                    billingPlans: try container.decodeIfPresent([RenderedBillingPlan.Fields].self, forKey: .billingPlans)?.map {
                        try $0.plan(currency: currency)
                    } ?? [],
                    paywall: try container.decodeIfPresent(RenderedPaywallLine.Object.self, forKey: .paywall)?.lines ?? [])
            } catch let error as StorePriceError {
                throw DecodingError.dataCorruptedError(forKey: .offers, in: container, debugDescription: error.description)
            }
        } else {
            // The subscription fields are all null for other products.
            for field in RowField.subscriptionFields where try container.contains(field) && !container.decodeNil(forKey: field) {
                throw DecodingError.dataCorruptedError(
                    forKey: field, in: container, debugDescription: "\(field.rawValue) without a period; a row that is not a subscription has null here")
            }
            subscription = nil
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: RowField.self)
        try container.encode(productID, forKey: .product)
        try container.encode(storefront.countryCode, forKey: .storefront)
        try container.encode(account, forKey: .account)
        try container.encode(priceLocale, forKey: .priceLocale)
        try container.encode(price.amount, forKey: .amount)
        try container.encode(formatted, forKey: .formatted)
        try container.encode(title, forKey: .title)
        if let subscription {
            try subscription.encode(to: encoder)
        } else {
            for field in RowField.subscriptionFields { try container.encodeNil(forKey: field) }
        }
    }
}
