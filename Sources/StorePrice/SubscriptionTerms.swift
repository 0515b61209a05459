/// What makes a catalog product an auto-renewable subscription: its period and its offers.
public struct SubscriptionTerms: Hashable, Sendable {
    /// How often it renews.
    public let period: SubscriptionPeriod
    /// The introductory offer for new subscribers, if any.
    public let introductoryOffer: CatalogOffer?
    /// Promotional offers, each with its offer ID.
    public let promotionalOffers: [CatalogOffer]

    public init(period: SubscriptionPeriod, introductoryOffer: CatalogOffer? = nil, promotionalOffers: [CatalogOffer] = []) {
        self.period = period
        self.introductoryOffer = introductoryOffer
        self.promotionalOffers = promotionalOffers
    }
}

/// An offer in a catalog: the terms of a ``SubscriptionOffer``, with its price per storefront.
public struct CatalogOffer: Hashable, Sendable {
    /// The offer ID of a promotional offer; nil for an introductory offer.
    public let id: String?
    /// How the customer pays.
    public let paymentMode: SubscriptionOffer.PaymentMode
    /// One period of the offer.
    public let period: SubscriptionPeriod
    /// How many periods it lasts.
    public let periodCount: Int
    /// The offer's price by storefront ID; empty for a free trial.
    public let prices: [Int: Price]

    /// Creates an offer, checked as ``SubscriptionOffer/init(paymentMode:period:periodCount:price:)``
    /// checks each of its prices.
    ///
    /// - Parameter paymentMode: `free`/`freeTrial`, `payAsYouGo` or `payUpFront`.
    public init(
        id: String? = nil, paymentMode: String, period: SubscriptionPeriod, periodCount: Int = 1, prices: [Int: Price] = [:]
    ) throws(StorePriceError) {
        var mode: SubscriptionOffer.PaymentMode?
        for price in prices.values {
            mode = try SubscriptionOffer(paymentMode: paymentMode, period: period, periodCount: periodCount, price: price).paymentMode
        }
        if prices.isEmpty {
            mode = try SubscriptionOffer(paymentMode: paymentMode, period: period, periodCount: periodCount, price: nil).paymentMode
        }
        self.id = id
        self.paymentMode = mode ?? .freeTrial
        self.period = period
        self.periodCount = periodCount
        self.prices = mode == .freeTrial ? [:] : prices
    }

    /// The offer in a storefront: nil when it has a price elsewhere but not there, as a store
    /// would not show it.
    public func offer(inStorefront storefrontID: Int) -> SubscriptionOffer? {
        switch paymentMode {
        case .freeTrial:
            return .freeTrial(period)
        case .payAsYouGo:
            return prices[storefrontID].flatMap { try? .payAsYouGo($0, every: period, count: periodCount) }
        case .payUpFront:
            return prices[storefrontID].map { .payUpFront($0, for: period) }
        }
    }
}
