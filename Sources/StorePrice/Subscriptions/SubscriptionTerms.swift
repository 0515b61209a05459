/// What makes a catalog product an auto-renewable subscription: its period, its offers and its
/// billing plans.
public struct SubscriptionTerms: Hashable, Sendable {
    /// How often it renews.
    public let period: SubscriptionPeriod
    /// Introductory offers for new subscribers: one, or one per billing plan in Xcode's format
    /// 5 files (`introductoryOffers`).
    public let introductoryOffers: [CatalogOffer]
    /// Promotional offers (Xcode's `adHocOffers`), each with its offer ID.
    public let promotionalOffers: [CatalogOffer]
    /// Offer codes (Xcode's `codeOffers`), each with its reference name as ID.
    public let offerCodes: [CatalogOffer]
    /// Win-back offers (Xcode's `winbackOffers`), each with its offer ID.
    public let winBackOffers: [CatalogOffer]
    /// Ways to pay other than the whole price each period (Xcode's `billingPlans`), such as
    /// monthly payments for a yearly commitment.
    public let billingPlans: [BillingPlan]

    /// The first introductory offer, if any.
    public var introductoryOffer: CatalogOffer? { introductoryOffers.first }

    /// Every offer: introductory, promotional, offer codes, then win-back, each in file order.
    public var offers: [CatalogOffer] { introductoryOffers + promotionalOffers + offerCodes + winBackOffers }

    /// A subscription with an introductory offer and promotional offers.
    ///
    /// - Parameters:
    ///   - period: how often the subscription renews.
    ///   - introductoryOffer: the introductory offer, if any.
    ///   - promotionalOffers: promotional offers, each with an ID.
    public init(period: SubscriptionPeriod, introductoryOffer: CatalogOffer? = nil, promotionalOffers: [CatalogOffer] = []) {
        self.init(
            period: period, introductoryOffers: introductoryOffer.map { [$0] } ?? [], promotionalOffers: promotionalOffers)
    }

    /// A subscription with every kind of offer and billing plans, as a format 5 `.storekit` file has them.
    ///
    /// - Parameters:
    ///   - period: how often the subscription renews.
    ///   - introductoryOffers: introductory offers.
    ///   - promotionalOffers: promotional offers, each with an ID.
    ///   - offerCodes: offer codes.
    ///   - winBackOffers: win-back offers.
    ///   - billingPlans: billing plans.
    public init(
        period: SubscriptionPeriod, introductoryOffers: [CatalogOffer], promotionalOffers: [CatalogOffer] = [],
        offerCodes: [CatalogOffer] = [], winBackOffers: [CatalogOffer] = [], billingPlans: [BillingPlan] = []
    ) {
        self.period = period
        self.introductoryOffers = introductoryOffers
        self.promotionalOffers = promotionalOffers
        self.offerCodes = offerCodes
        self.winBackOffers = winBackOffers
        self.billingPlans = billingPlans
    }
}

/// A way to pay for a subscription, from an Xcode format 5 file's `billingPlans`: the whole price
/// each period (`BILLED_UPFRONT`), or monthly payments for a longer commitment (`MONTHLY`).
public struct BillingPlan: Hashable, Sendable {
    /// The plan type as the file writes it, such as `MONTHLY`.
    public let type: String
    /// The price of each payment, by storefront ID.
    public let prices: [Int: Price]
    /// The price of the whole commitment, by storefront ID.
    public let commitmentPrices: [Int: Price]
    /// Where the prices were read, when the plan came from a catalog file.
    let origin: ProductOrigin?
    let commitmentOrigin: ProductOrigin?

    /// A billing plan with its prices by storefront ID.
    ///
    /// - Parameters:
    ///   - type: the plan type, such as `BILLED_UPFRONT` or `MONTHLY`.
    ///   - prices: the price of each payment, by storefront ID.
    ///   - commitmentPrices: the price of the whole commitment, by storefront ID.
    public init(type: String, prices: [Int: Price], commitmentPrices: [Int: Price] = [:]) {
        self.init(type: type, prices: prices, commitmentPrices: commitmentPrices, origin: nil, commitmentOrigin: nil)
    }

    init(
        type: String, prices: [Int: Price], commitmentPrices: [Int: Price], origin: ProductOrigin?,
        commitmentOrigin: ProductOrigin?
    ) {
        self.type = type
        self.prices = prices
        self.commitmentPrices = commitmentPrices
        self.origin = origin
        self.commitmentOrigin = commitmentOrigin
    }
}

/// An offer in a catalog: the terms of a ``SubscriptionOffer``, with its price per storefront.
public struct CatalogOffer: Hashable, Sendable {
    /// What kind of offer it is, which decides who may redeem it.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// For new subscribers.
        case introductory
        /// Offered by the app to chosen subscribers (Xcode's `adHocOffers`).
        case promotional
        /// Redeemed with a code (Xcode's `codeOffers`).
        case offerCode
        /// For subscribers who left (Xcode's `winbackOffers`).
        case winBack

        /// The kind as render output writes it: `introductory`, `promotional`, `offer_code`, `win_back`.
        public var outputName: String {
            switch self {
            case .introductory: "introductory"
            case .promotional: "promotional"
            case .offerCode: "offer_code"
            case .winBack: "win_back"
            }
        }
    }

    /// What kind of offer it is.
    public let kind: Kind
    /// The offer ID (promotional and win-back offers) or reference name (offer codes); nil for an
    /// introductory offer.
    public let id: String?
    /// The billing plan the offer applies to (`BILLED_UPFRONT`, `MONTHLY`), where the file says.
    public let billingPlan: String?
    /// How the customer pays.
    public let paymentMode: SubscriptionOffer.PaymentMode
    /// One period of the offer.
    public let period: SubscriptionPeriod
    /// How many periods it lasts.
    public let periodCount: Int
    /// The offer's price by storefront ID; empty for a free trial.
    public let prices: [Int: Price]
    /// Where a free trial is offered, by storefront ID, as App Store Connect sets an offer up
    /// per territory; nil for every storefront. A paid offer is offered where it has a price.
    public let storefronts: Set<Int>?
    /// Where the prices were read, when the offer came from a catalog file.
    let origin: ProductOrigin?

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
        try self.init(
            kind: id == nil ? .introductory : .promotional, id: id, billingPlan: nil, paymentMode: paymentMode,
            period: period, periodCount: periodCount, prices: prices, paidWithoutPrice: false, origin: nil)
    }

    /// Creates an offer of any kind, a free trial offered in some storefronts only.
    ///
    /// - Parameters:
    ///   - kind: introductory, promotional, an offer code or a win-back offer.
    ///   - id: the offer ID (promotional and win-back offers) or an offer code's reference name.
    ///   - paymentMode: `free`/`freeTrial`, `payAsYouGo` or `payUpFront`.
    ///   - period: one period of the offer.
    ///   - periodCount: how many periods it lasts.
    ///   - prices: the offer's price by storefront ID; none for a free trial.
    ///   - storefronts: for a free trial, the storefront IDs it is offered in; nil for all.
    /// - Throws: ``StorePriceError/invalidOffer(_:reason:)`` for storefronts given with prices,
    ///   which are where a paid offer is offered, and the errors of a ``SubscriptionOffer``.
    public init(
        kind: Kind, id: String? = nil, paymentMode: String, period: SubscriptionPeriod, periodCount: Int = 1,
        prices: [Int: Price] = [:], storefronts: Set<Int>? = nil
    ) throws(StorePriceError) {
        try self.init(
            kind: kind, id: id, billingPlan: nil, paymentMode: paymentMode, period: period, periodCount: periodCount,
            prices: prices, paidWithoutPrice: false, origin: nil, storefronts: storefronts)
    }

    /// Creates an offer of any kind.
    ///
    /// - Parameter paidWithoutPrice: whether a paid offer may have no price in any storefront,
    ///   as Xcode writes one whose price was left empty; it is then shown nowhere.
    init(
        kind: Kind, id: String?, billingPlan: String?, paymentMode: String, period: SubscriptionPeriod,
        periodCount: Int, prices: [Int: Price], paidWithoutPrice: Bool, origin: ProductOrigin?, storefronts: Set<Int>? = nil
    ) throws(StorePriceError) {
        var mode = try SubscriptionOffer.checkedPaymentMode(paymentMode, period: period, periodCount: periodCount)
        if storefronts != nil, mode != .freeTrial {
            throw .invalidOffer(
                "\(paymentMode):\(period)", reason: "a paid offer is offered where it has a price; storefronts are for a free trial")
        }
        if prices.isEmpty && paidWithoutPrice && mode == .payAsYouGo {
            // No price to make an offer with: check the count and duration as an offer would.
            let (total, overflow) = period.value.multipliedReportingOverflow(by: periodCount)
            guard periodCount >= 1, !overflow, (try? SubscriptionPeriod(value: total, unit: period.unit)) != nil else {
                throw .invalidOffer(
                    "payAsYouGo:\(period)x\(periodCount)",
                    reason: "the number of periods must be 1 or more, and the whole offer at most "
                        + "\(SubscriptionPeriod.maximumCount) \(period.unit.rawValue)s")
            }
        }
        if !(prices.isEmpty && paidWithoutPrice) {
            // Each price is checked as an offer with that price would be; with none, as one without.
            for price in prices.isEmpty ? [nil] : prices.values.map(Optional.some) {
                mode = try SubscriptionOffer(paymentMode: paymentMode, period: period, periodCount: periodCount, price: price)
                    .paymentMode
            }
        }
        self.kind = kind
        self.id = id
        self.billingPlan = billingPlan
        self.paymentMode = mode
        self.period = period
        self.periodCount = periodCount
        self.prices = mode == .freeTrial ? [:] : prices
        self.origin = origin
        self.storefronts = storefronts
    }

    /// The offer in a storefront: nil when it has a price elsewhere but not there, or is a free
    /// trial offered elsewhere only, as a store would not show it.
    public func offer(inStorefront storefrontID: Int) -> SubscriptionOffer? {
        switch paymentMode {
        case .freeTrial:
            return storefronts.map { $0.contains(storefrontID) } ?? true ? .freeTrial(period) : nil
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
    var billingPlan: String?
    var paymentMode: String?
    var period: String?
    var periodCount: Int?
    var prices: [Int: Price]
    /// For a free trial, the storefront IDs it is offered in; nil for all.
    var storefronts: Set<Int>? = nil
    /// Where the prices were read.
    var origin: ProductOrigin?
}

/// A catalog file's offers of one kind, before they are checked, with the file's name for them.
struct OfferList {
    /// The kind of the offers.
    var kind: CatalogOffer.Kind
    /// The file's key for the list, such as `adHocOffers`; `introductoryOffer` for a single offer.
    var key: String
    /// Whether the key holds one offer rather than an array.
    var single = false
    var offers: [OfferFields]
}

extension SubscriptionTerms {
    /// Checks a catalog entry's period and offers, for the catalog readers.
    ///
    /// - Parameters:
    ///   - offers: the entry's offer lists; promotional and win-back offers need IDs.
    ///   - keys: the file's own names for the period, an offer's period, ID and payment mode, so that
    ///     errors name fields as the file does.
    ///   - required: whether the entry must be a subscription; otherwise an entry without a
    ///     period and offers is not one, and nil is returned.
    ///   - paidWithoutPrice: whether a paid offer may have no price at all (and so be shown nowhere).
    ///   - fail: makes the error for a field and a reason.
    static func read(
        period: String?, offers lists: [OfferList], billingPlans: [BillingPlan] = [], planTypes: Set<String> = [],
        keys: (period: String, offerPeriod: String, id: String, paymentMode: String), required: Bool, paidWithoutPrice: Bool = false,
        fail: (String, String) -> StorePriceError
    ) throws(StorePriceError) -> SubscriptionTerms? {
        guard let periodText = period else {
            if required { throw fail(keys.period, "missing; an auto-renewable subscription needs one, such as P1M") }
            if lists.contains(where: { !$0.offers.isEmpty }) {
                throw fail(keys.period, "missing; offers belong to a subscription, which needs a period such as P1M")
            }
            return nil
        }
        let period: SubscriptionPeriod
        do {
            period = try SubscriptionPeriod(periodText)
            try StorePeriods.appStore.checkSubscription(period)
        } catch {
            throw fail(keys.period, error.description)
        }
        var read: [CatalogOffer.Kind: [CatalogOffer]] = [:]
        for list in lists {
            var ids: Set<String> = []
            for (index, fields) in list.offers.enumerated() {
                let field = list.single ? list.key : "\(list.key)[\(index)]"
                if list.kind == .promotional || list.kind == .winBack, fields.id?.isEmpty ?? true {
                    throw fail("\(field).\(keys.id)", "missing; a \(list.kind == .winBack ? "win-back" : "promotional") offer needs its ID")
                }
                // Introductory offers have no ID; the others are told apart by theirs.
                if let id = fields.id, list.kind != .introductory, !ids.insert(id).inserted {
                    throw fail(field, "the ID '\(id.escapedForMessage)' appears twice among \(list.key)")
                }
                if let plan = fields.billingPlan, !planTypes.isEmpty, !planTypes.contains(plan) {
                    throw fail(
                        "\(field).billingPlanType",
                        "'\(plan.escapedForMessage)' is none of this subscription's billingPlans (\(planTypes.sorted().joined(separator: ", ")))")
                }
                guard let mode = fields.paymentMode else {
                    throw fail("\(field).\(keys.paymentMode)", "missing; free, payAsYouGo or payUpFront")
                }
                guard let periodText = fields.period else { throw fail("\(field).\(keys.offerPeriod)", "missing; such as P1W") }
                do {
                    let offer = try CatalogOffer(
                        kind: list.kind, id: fields.id, billingPlan: fields.billingPlan, paymentMode: mode,
                        period: SubscriptionPeriod(periodText), periodCount: fields.periodCount ?? 1,
                        prices: fields.prices, paidWithoutPrice: paidWithoutPrice, origin: fields.origin,
                        storefronts: fields.storefronts)
                    // The offer as the file writes it first, then as the store allows it.
                    try StorePeriods.appStore.checkOffer(period: offer.period, count: offer.periodCount)
                    read[list.kind, default: []].append(offer)
                } catch {
                    throw fail(field, error.description)
                }
            }
        }
        return SubscriptionTerms(
            period: period, introductoryOffers: read[.introductory] ?? [], promotionalOffers: read[.promotional] ?? [],
            offerCodes: read[.offerCode] ?? [], winBackOffers: read[.winBack] ?? [], billingPlans: billingPlans)
    }
}
