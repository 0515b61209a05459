#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
import ICUNumberFormat

/// Every string a paywall shows for one subscription, in its price locale: the price and period,
/// the price restated per day, week, month and year, savings against another plan, and the offer.
///
/// ```swift
/// let usa = try Storefront("USA").priceLocale
/// let yearly = try Paywall(
///     price: Price("59.99", currency: CurrencyCode("USD")), period: SubscriptionPeriod("P1Y"),
///     offer: .freeTrial(SubscriptionPeriod("P1W")),
///     comparedTo: Paywall.Plan(price: Price("4.99", currency: CurrencyCode("USD")), period: SubscriptionPeriod("P1W")),
///     locale: usa)
/// try yearly.render("billed_amount_first")   // "$59.99 per year ($4.99 per month)"
/// try yearly.render("save")                  // "Save 76%"
/// try yearly.render(PaywallTemplate("{offer}, then {price_per_period}"))   // "1 week free, then $59.99 per year"
/// yearly.values[.amountPerMonth]             // .text("$4.99")
/// ```
///
/// Restated prices are exact decimal arithmetic, rounded once to the digits the price is shown
/// with (0 for JPY, 3 for KWD; in the App Store style, 0 for rupees), down by default, so a paywall
/// never shows more than the customer pays. A year is 365 days and 12 months, so a month is
/// 365/12 days and a year ≈ 52.14 weeks; a week is 7 days. Savings are computed from the exact
/// prices, per the same length of time, and rounded down to a whole percent, so they are never
/// overstated.
public struct Paywall: Sendable {
    /// A price and how often it is billed.
    public struct Plan: Hashable, Sendable {
        /// The price billed each period.
        public let price: Price
        /// How often it is billed.
        public let period: SubscriptionPeriod

        /// A price billed every period.
        public init(price: Price, period: SubscriptionPeriod) {
            self.price = price
            self.period = period
        }

        /// A plan written `PRICE:PERIOD`, as `storeprice paywall --compare` takes it: `4.99:P1W`,
        /// the price in `currency`.
        ///
        /// - Throws: ``StorePriceError/invalidAmount(_:reason:)`` for text without one colon, and
        ///   the price's or the period's error.
        public init(_ text: String, currency: CurrencyCode) throws(StorePriceError) {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2 else { throw .invalidAmount(text, reason: "expected PRICE:PERIOD, such as 4.99:P1W") }
            self.init(price: try Price(String(parts[0]), currency: currency), period: try SubscriptionPeriod(String(parts[1])))
        }
    }

    /// The subscription's price and period.
    public let plan: Plan
    /// The offer shown with it, if any.
    public let offer: SubscriptionOffer?
    /// The plan savings are computed against, if any: usually the monthly or weekly plan.
    public let comparedPlan: Plan?
    /// A billing plan: payments of a price every shorter period for the subscription's period,
    /// as Xcode's `billingPlans` has monthly payments for a yearly commitment.
    public let billingPlan: Plan?
    /// The price locale every string is in.
    public let locale: PriceLocale
    /// How prices are formatted, including ``PriceFormatter/Style/appStore``.
    public let options: PriceFormatter.Options
    /// How periods and per-period prices are written.
    public let periodStyle: SubscriptionPeriod.Style
    /// How restated prices are rounded; down by default.
    public let rounding: ApproximatePrice.Rounding
    /// Every argument's value; an argument that is missing here has a reason in ``missing``.
    public let values: [PaywallArgument: PaywallValue]
    /// Why each argument without a value has none, such as `there is no offer`.
    public let missing: [PaywallArgument: String]
    /// The locale of the text around the prices: ``locale``, with Latin digits where the App
    /// Store style writes prices with them.
    let textLocale: PriceLocale

    /// Computes every argument for a subscription.
    ///
    /// - Parameters:
    ///   - price: the price billed each period.
    ///   - period: how often it is billed.
    ///   - offer: an offer to show, such as a free trial.
    ///   - comparedTo: a plan to compute savings against, in the same currency.
    ///   - billingPlan: payments of a price every shorter period, such as monthly for a year.
    ///   - locale: the price locale, from a storefront or a test account.
    ///   - options: how prices are formatted.
    ///   - periodStyle: full words (`per month`), CLDR's short or narrow forms.
    ///   - rounding: how restated prices are rounded to the currency's digits.
    ///   - offerStart: the day the offer starts, for `trial_end_date`.
    ///   - timeZone: the time zone that day is in; GMT by default.
    ///   - offerWording: the app's wording for `offer`; StorePrice's own by default.
    /// - Throws: ``StorePriceError`` for a price the locale cannot show (another currency, more
    ///   digits than it shows), or a compared plan in another currency.
    public init(
        price: Price, period: SubscriptionPeriod, offer: SubscriptionOffer? = nil, comparedTo: Plan? = nil,
        billingPlan: Plan? = nil, locale: PriceLocale, options: PriceFormatter.Options = .init(),
        periodStyle: SubscriptionPeriod.Style = .wide,
        rounding: ApproximatePrice.Rounding = .down, offerStart: Date? = nil, timeZone: TimeZone = .gmt,
        offerWording: OfferWording? = nil
    ) throws(StorePriceError) {
        try self.init(
            price: price, period: period, offer: offer, comparedTo: comparedTo, billingPlan: billingPlan, locale: locale,
            options: options, periodStyle: periodStyle, rounding: rounding, offerStart: offerStart, timeZone: timeZone,
            offerWording: offerWording, offerText: nil, only: nil)
    }

    /// Computes the arguments in `only` (every one when nil); the others are left without a
    /// value, as if missing, so a caller that needs a few pays for those. `offerText` is the
    /// offer's text when the caller has it already.
    init(
        price: Price, period: SubscriptionPeriod, offer: SubscriptionOffer?, comparedTo: Plan?, billingPlan: Plan?,
        locale: PriceLocale,
        options: PriceFormatter.Options, periodStyle: SubscriptionPeriod.Style, rounding: ApproximatePrice.Rounding,
        offerStart: Date?, timeZone: TimeZone, offerWording: OfferWording?, offerText: String?,
        only: Set<PaywallArgument>?
    ) throws(StorePriceError) {
        // Every number is computed from the prices as shown: rounded, when the options round.
        // The text around the prices is in their digits (see PriceFormatter.textLocale).
        let formatter = try PriceFormatter(locale: locale, options: options).forTextLocale()
        let textLocale = formatter.locale
        self.textLocale = textLocale
        for given in [price, comparedTo?.price, offer?.price, billingPlan?.price].compactMap({ $0 }) where given.isNegative {
            throw .invalidAmount(given.amount, reason: "a subscription's prices are 0 or more")
        }
        if let billingPlan, billingPlan.period.twelfthsOfADay >= period.twelfthsOfADay {
            throw .invalidPeriod(
                billingPlan.period.description,
                reason: "a billing plan's payments are shorter than the subscription's period, \(period); give one such as "
                    + "\(billingPlan.price.amount):\(period.unit == .year ? "P1M" : "P1W")")
        }
        let price = try formatter.shown(price)
        let comparedTo = try comparedTo.map { (plan) throws(StorePriceError) in
            Plan(price: try formatter.shown(plan.price), period: plan.period)
        }
        self.plan = Plan(price: price, period: period)
        self.offer = offer
        self.comparedPlan = comparedTo
        let billingPlan = try billingPlan.map { (plan) throws(StorePriceError) in
            Plan(price: try formatter.shown(plan.price), period: plan.period)
        }
        self.billingPlan = billingPlan
        self.locale = locale
        self.options = options
        self.periodStyle = periodStyle
        self.rounding = rounding

        var values: [PaywallArgument: PaywallValue] = [:]
        var missing: [PaywallArgument: String] = [:]
        func needs(_ arguments: PaywallArgument...) -> Bool { needsAny(arguments) }
        func needsAny(_ arguments: [PaywallArgument]) -> Bool { only.map { !$0.isDisjoint(with: arguments) } ?? true }
        values[.price] = .text(try formatter.format(price))
        if needs(.period) { values[.period] = .text(try period.text(in: textLocale, style: periodStyle)) }
        values[.periodCount] = .number(String(period.value))
        values[.periodUnit] = .text(period.unit.rawValue)
        values[.pricePerPeriod] = .text(try formatter.format(price, per: period, style: periodStyle))
        let restated: [(SubscriptionPeriod.Unit, PaywallArgument, PaywallArgument)] = [
            (.day, .pricePerDay, .amountPerDay), (.week, .pricePerWeek, .amountPerWeek),
            (.month, .pricePerMonth, .amountPerMonth), (.year, .pricePerYear, .amountPerYear),
        ]
        for (unit, perUnit, amount) in restated where needs(perUnit, amount) {
            do {
                let approximate = try price.approximately(
                    per: SubscriptionPeriod(value: 1, unit: unit), billedEvery: period, rounding: rounding,
                    fractionDigits: formatter.fractionDigits)
                // A paid plan restated as nothing would read as free: like a saving under 1%,
                // such a value is absent, with the reason.
                if approximate.price.amount == "0", price.amount != "0" {
                    let reason = "\(try formatter.format(price)) every \(period) comes to "
                        + "\(try formatter.format(approximate.price)) a \(unit.rawValue) as shown; a paid plan would read as free"
                    missing[amount] = reason
                    missing[perUnit] = reason
                    continue
                }
                values[amount] = .text(try formatter.format(approximate.price))
                values[perUnit] = .text(try formatter.format(approximate, style: periodStyle))
            } catch {
                // Too many digits per year for a Price: only a template that shows it fails.
                missing[amount] = error.description
                missing[perUnit] = error.description
            }
        }

        let savingsArguments: [PaywallArgument] = [.savings, .savingsPercent]
        let compareArguments = savingsArguments + [.comparePrice, .comparePricePerPeriod]
        if let comparedTo, needsAny(compareArguments) {
            values[.comparePrice] = .text(try formatter.format(comparedTo.price))
            values[.comparePricePerPeriod] = .text(try formatter.format(comparedTo.price, per: comparedTo.period, style: periodStyle))
            if let percent = SavingsPercent.of(plan, against: comparedTo) {
                values[.savingsPercent] = .number(String(percent))
                values[.savings] = .text(try SavingsPercent.format(percent, in: textLocale))
            } else {
                for argument in savingsArguments { missing[argument] = SavingsPercent.whyNone(plan, against: comparedTo) }
            }
        } else if comparedTo == nil {
            for argument in compareArguments { missing[argument] = "no plan to compare with" }
        }

        let offerArguments: [PaywallArgument] = [
            .offer, .offerType, .offerPrice, .offerPeriod, .offerCount, .offerDuration, .offerPricePerPeriod, .trialEndDate,
        ]
        if let offer, needsAny(offerArguments) {
            let duration = try offer.duration
            switch offer.paymentMode {
            case .freeTrial: values[.offerType] = .text("free_trial")
            case .payAsYouGo: values[.offerType] = .text("pay_as_you_go")
            case .payUpFront: values[.offerType] = .text("pay_up_front")
            }
            if needs(.offerPeriod) { values[.offerPeriod] = .text(try offer.period.text(in: textLocale, style: periodStyle)) }
            values[.offerCount] = .number(String(offer.periodCount))
            if needs(.offerDuration) { values[.offerDuration] = .text(try duration.text(in: textLocale, style: periodStyle)) }
            if let offerPrice = try offer.price.map(formatter.shown), offer.paymentMode != .freeTrial,
                needs(.offerPrice, .offerPricePerPeriod)
            {
                values[.offerPrice] = .text(try formatter.format(offerPrice))
                let per = offer.paymentMode == .payAsYouGo ? offer.period : duration
                values[.offerPricePerPeriod] = .text(try formatter.format(offerPrice, per: per, style: periodStyle))
            } else if offer.paymentMode == .freeTrial {
                missing[.offerPrice] = "the offer is a free trial"
                missing[.offerPricePerPeriod] = "the offer is a free trial"
            }
            do {
                if let offerText {
                    values[.offer] = .text(offerText)
                } else if needs(.offer) {
                    values[.offer] = .text(try offer.text(in: locale, wording: offerWording, options: options, style: periodStyle))
                }
            } catch {
                missing[.offer] = "StorePrice has no offer wording in '\(locale.language)'; pass the app's own"
            }
            if let offerStart {
                values[.trialEndDate] = .text(try Self.endDate(of: duration, from: offerStart, in: timeZone, locale: textLocale))
            } else {
                missing[.trialEndDate] = "no day the offer starts"
            }
        } else if offer == nil {
            // A template chooses with {offer_type, select, none {…} other {…}}.
            values[.offerType] = .text("none")
            for argument in offerArguments where argument != .offerType { missing[argument] = "there is no offer" }
        }
        let planArguments: [PaywallArgument] = [.billingPlanPrice, .billingPlanPricePerPeriod, .billingPlanCount, .billingPlanTotal]
        if let billingPlan, needsAny(planArguments) {
            values[.billingPlanPrice] = .text(try formatter.format(billingPlan.price))
            values[.billingPlanPricePerPeriod] = .text(
                try formatter.format(billingPlan.price, per: billingPlan.period, style: periodStyle))
            let length = period.twelfthsOfADay
            let payment = billingPlan.period.twelfthsOfADay
            if length % payment == 0 {
                let count = length / payment
                values[.billingPlanCount] = .number(String(count))
                // The total is exact: the payment as shown, times a whole count.
                let (total, _) = DecimalDigits.scale(
                    billingPlan.price.amount, by: count, over: 1, fractionDigits: formatter.fractionDigits, rounding: .down)
                do {
                    values[.billingPlanTotal] = .text(try formatter.format(Price(total, currency: price.currency)))
                } catch {
                    missing[.billingPlanTotal] = error.description
                }
            } else {
                let reason = "\(period) is not a whole number of \(billingPlan.period) payments"
                missing[.billingPlanCount] = reason
                missing[.billingPlanTotal] = reason
            }
        } else if billingPlan == nil {
            for argument in planArguments { missing[argument] = "there is no billing plan" }
        }
        self.values = values
        self.missing = missing
    }

    /// Renders a template with this subscription's arguments.
    ///
    /// - Throws: ``StorePriceError/invalidTemplate(name:source:locale:argument:reason:)`` naming
    ///   the template and the argument: one that does not parse, an unknown argument, a `plural`
    ///   without a case the language needs, or an argument this subscription has no value for.
    public func render(_ template: PaywallTemplate) throws(StorePriceError) -> String {
        try template.render(values: values, missing: missing, in: textLocale)
    }

    /// Renders the template of that name from `templates` (the app's, over StorePrice's built-in
    /// ones), in the store language of this paywall's price locale.
    public func render(_ name: String, templates: PaywallTemplates = .builtIn) throws(StorePriceError) -> String {
        try render(templates.template(named: name, for: self))
    }

    /// The date the offer ends, `duration` after `start`, in the store language's medium format.
    private static func endDate(
        of duration: SubscriptionPeriod, from start: Date, in timeZone: TimeZone, locale: PriceLocale
    ) throws(StorePriceError) -> String {
        let unit: Int
        switch duration.unit {
        case .day: unit = 0
        case .week: unit = 1
        case .month: unit = 2
        case .year: unit = 3
        }
        do {
            return try ICU.formatDate(
                locale: locale.identifier, zone: timeZone.identifier, startMillis: start.timeIntervalSince1970 * 1000,
                adding: duration.value, unit: unit, skeleton: "yMMMd")
        } catch {
            throw .icuFailure(code: error.name, operation: "format the date \(duration) after \(start) in \(locale)")
        }
    }
}
