/// Which subscription and offer periods a store allows: one rule, applied by `format`, `paywall`,
/// every catalog reader and `sandbox-schedule` alike, so that no command accepts a period another
/// refuses.
///
/// ```swift
/// try StorePeriods.appStore.checkSubscription(SubscriptionPeriod("P1M"))   // fine
/// try StorePeriods.appStore.checkSubscription(SubscriptionPeriod("P5W"))   // invalidPeriod
/// ```
public struct StorePeriods: Hashable, Sendable {
    /// The store, as messages name it: `the App Store`.
    public let store: String
    /// How often a subscription may renew.
    public let subscriptionPeriods: [SubscriptionPeriod]
    /// How long one period of an offer may be (a free trial, a payment up front, or each
    /// payment of a pay-as-you-go offer).
    public let offerPeriods: [SubscriptionPeriod]
    /// How many periods a pay-as-you-go offer may have.
    public let offerPeriodCounts: ClosedRange<Int>

    /// The App Store's, as App Store Connect offers them: subscriptions renew every week, 1, 2, 3
    /// or 6 months, or year (`SubscriptionPeriod` in the App Store Connect API: ONE_WEEK …
    /// ONE_YEAR); an offer's period is 3 days, 1 or 2 weeks, 1, 2, 3 or 6 months, or a year
    /// (`SubscriptionOfferDuration`: THREE_DAYS … ONE_YEAR), pay as you go for 1 to 12 periods.
    public static let appStore = StorePeriods(
        store: "the App Store", subscriptionPeriods: periods("P1W", "P1M", "P2M", "P3M", "P6M", "P1Y"),
        offerPeriods: periods("P3D", "P1W", "P2W", "P1M", "P2M", "P3M", "P6M", "P1Y"), offerPeriodCounts: 1...12)

    private static func periods(_ texts: String...) -> [SubscriptionPeriod] {
        texts.compactMap { try? SubscriptionPeriod($0) }
    }

    /// Refuses a subscription period the store does not offer.
    ///
    /// - Throws: ``StorePriceError/invalidPeriod(_:reason:)`` naming the ones it does.
    public func checkSubscription(_ period: SubscriptionPeriod) throws(StorePriceError) {
        guard subscriptionPeriods.contains(period) else {
            throw .invalidPeriod(
                period.iso8601, reason: "\(store)'s subscriptions renew every \(Self.list(subscriptionPeriods))")
        }
    }

    /// Refuses an offer whose period, or number of periods, the store does not offer.
    ///
    /// - Throws: ``StorePriceError/invalidPeriod(_:reason:)`` for the period,
    ///   ``StorePriceError/invalidOffer(_:reason:)`` for the count.
    public func checkOffer(period: SubscriptionPeriod, count: Int) throws(StorePriceError) {
        guard offerPeriods.contains(period) else {
            throw .invalidPeriod(period.iso8601, reason: "\(store)'s offer periods are \(Self.list(offerPeriods))")
        }
        guard offerPeriodCounts.contains(count) else {
            throw .invalidOffer(
                "\(period)x\(count)",
                reason: "\(store)'s pay-as-you-go offers have \(offerPeriodCounts.lowerBound) to \(offerPeriodCounts.upperBound) periods")
        }
    }

    /// Refuses a subscription's terms the store does not offer: its period, and each offer's.
    public func check(_ terms: SubscriptionTerms) throws(StorePriceError) {
        try checkSubscription(terms.period)
        for offer in terms.offers { try checkOffer(period: offer.period, count: offer.periodCount) }
    }

    /// `P1W, P1M or P1Y`.
    private static func list(_ periods: [SubscriptionPeriod]) -> String {
        let texts = periods.map(\.iso8601)
        return texts.count > 1 ? texts.dropLast().joined(separator: ", ") + " or " + (texts.last ?? "") : texts.joined()
    }
}
