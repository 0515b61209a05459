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
    /// - Parameters:
    ///   - id: the offer ID of a promotional offer; nil for an introductory offer.
    ///   - paymentMode: `free`/`freeTrial`, `payAsYouGo` or `payUpFront`.
    ///   - period: one period of the offer.
    ///   - periodCount: how many periods it lasts.
    ///   - prices: the offer's price by storefront ID; none for a free trial.
    public init(
        id: String? = nil, paymentMode: String, period: SubscriptionPeriod, periodCount: Int = 1, prices: [Int: Price] = [:]
    ) throws(StorePriceError) {
        // Each price is checked as an offer with that price would be; with none, as a free trial.
        var mode = SubscriptionOffer.PaymentMode.freeTrial
        for price in prices.isEmpty ? [nil] : prices.values.map(Optional.some) {
            mode = try SubscriptionOffer(paymentMode: paymentMode, period: period, periodCount: periodCount, price: price)
                .paymentMode
        }
        self.id = id
        self.paymentMode = mode
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

/// An offer as a catalog file spells it, before it is checked; prices are already read.
struct OfferFields {
    var id: String?
    var paymentMode: String?
    var period: String?
    var periodCount: Int?
    var prices: [Int: Price]
}

extension SubscriptionTerms {
    /// Checks a catalog entry's period and offers, for the catalog readers.
    ///
    /// - Parameters:
    ///   - keys: the file's own names for the period, an offer's period, the promotional offers
    ///     and their IDs, so that errors name fields as the file does.
    ///   - required: whether the entry must be a subscription; otherwise an entry without a
    ///     period and offers is not one, and nil is returned.
    ///   - fail: makes the error for a field and a reason.
    static func read(
        period: String?, introductory: OfferFields?, promotional: [OfferFields]?,
        keys: (period: String, offerPeriod: String, promotional: String, id: String), required: Bool,
        fail: (String, String) -> StorePriceError
    ) throws(StorePriceError) -> SubscriptionTerms? {
        guard let periodText = period else {
            if required { throw fail(keys.period, "missing; an auto-renewable subscription needs one, such as P1M") }
            if introductory != nil || promotional != nil {
                throw fail(keys.period, "missing; offers belong to a subscription, which needs a period such as P1M")
            }
            return nil
        }
        let period: SubscriptionPeriod
        do {
            period = try SubscriptionPeriod(periodText)
        } catch {
            throw fail(keys.period, error.description)
        }
        func offer(_ fields: OfferFields, field: String) throws(StorePriceError) -> CatalogOffer {
            guard let mode = fields.paymentMode else {
                throw fail("\(field).paymentMode", "missing; free, payAsYouGo or payUpFront")
            }
            guard let periodText = fields.period else { throw fail("\(field).\(keys.offerPeriod)", "missing; such as P1W") }
            do {
                return try CatalogOffer(
                    id: fields.id, paymentMode: mode, period: SubscriptionPeriod(periodText),
                    periodCount: fields.periodCount ?? 1, prices: fields.prices)
            } catch {
                throw fail(field, error.description)
            }
        }
        let introductoryOffer = try introductory.map { (fields) throws(StorePriceError) in
            try offer(fields, field: "introductoryOffer")
        }
        var promotionalOffers: [CatalogOffer] = []
        for (index, fields) in (promotional ?? []).enumerated() {
            let field = "\(keys.promotional)[\(index)]"
            guard let id = fields.id, !id.isEmpty else {
                throw fail("\(field).\(keys.id)", "missing; a promotional offer needs its ID")
            }
            promotionalOffers.append(try offer(fields, field: field))
        }
        return SubscriptionTerms(period: period, introductoryOffer: introductoryOffer, promotionalOffers: promotionalOffers)
    }
}
