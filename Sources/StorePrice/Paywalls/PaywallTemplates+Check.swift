#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension PaywallTemplates {
    /// A problem a template has, and the storefronts whose store languages show it.
    public struct Problem: Hashable, Sendable, CustomStringConvertible {
        /// The error, naming the template, the language and the argument.
        public let error: StorePriceError
        /// The storefronts (alpha-3 codes) whose store language has the problem.
        public let storefronts: [String]

        /// `template 'headline' in 'paywall.json' (ru), argument 'pirce': unknown; did you mean 'price'? (in RUS, BLR)`
        public var description: String {
            let shown = storefronts.prefix(6).joined(separator: ", ") + (storefronts.count > 6 ? ", …" : "")
            return "\(error) (\(storefronts.count == 1 ? "in" : "in \(storefronts.count) storefronts:") \(shown))"
        }
    }

    /// What a check of every storefront and store language found.
    public struct CheckReport: Sendable {
        /// Every problem, in the order first met.
        public let problems: [Problem]
        /// How many (storefront, store language) pairs used these templates.
        public let checkedLanguages: Int
        /// Store languages (`ru`, `pl`) none of these templates' languages matches; paywalls there
        /// get StorePrice's built-in lines or none.
        public let uncoveredLanguages: [String]
    }

    /// Checks every template in every store language of `storefronts` that these templates have
    /// a language for: each is parsed for that language (unknown arguments, text used as a
    /// number, a `plural` without a case the language needs, printf placeholders, a `%` beside
    /// `{savings}`) and rendered for two subscriptions: a yearly plan with a week free, and one
    /// with three months at a lower price, each compared with a weekly plan and paid monthly. So an argument
    /// with no value in one of them (`offer_price` for a free trial, `offer` where StorePrice
    /// has no wording) is found. Plans without an offer or a compared plan are not rendered:
    /// a template for them uses no offer or savings argument, or chooses with
    /// `{offer_type, select, none {…} other {…}}`.
    public func check(storefronts: [Storefront] = Storefront.all) -> CheckReport {
        var problems: [Problem] = []
        var storefrontsOf: [StorePriceError: [String]] = [:]
        var order: [StorePriceError] = []
        var uncovered: Set<String> = []
        var checked = 0
        for storefront in storefronts {
            for language in storefront.storeLanguages {
                guard let locale = try? storefront.priceLocale(language: language) else { continue }
                guard let tag = languageTag(for: locale), let templates = languages[tag] else {
                    uncovered.insert(language)
                    continue
                }
                checked += 1
                let samples = Self.samplePaywalls(in: locale)
                for name in templates.keys.sorted() {
                    let template = PaywallTemplate(templates[name] ?? "", name: name, source: source)
                    var errors = template.problems(in: locale)
                    for paywall in samples where errors.isEmpty {
                        do {
                            _ = try paywall.render(template)
                        } catch {
                            errors = [error]
                        }
                    }
                    for found in errors {
                        // Said once per language of the file, not once per region.
                        var error = found
                        if case .invalidTemplate(let name, let source, _, let argument, let reason) = found {
                            error = .invalidTemplate(name: name, source: source, locale: tag, argument: argument, reason: reason)
                        }
                        if storefrontsOf[error] == nil { order.append(error) }
                        if storefrontsOf[error]?.last != storefront.countryCode { storefrontsOf[error, default: []].append(storefront.countryCode) }
                    }
                }
            }
        }
        for error in order { problems.append(Problem(error: error, storefronts: storefrontsOf[error] ?? [])) }
        return CheckReport(problems: problems, checkedLanguages: checked, uncoveredLanguages: uncovered.sorted())
    }

    /// The subscriptions a check renders with: ``samplePaywall(in:)``, and the same yearly plan
    /// with a week free.
    static func samplePaywalls(in locale: PriceLocale) -> [Paywall] {
        guard let paid = try? samplePaywall(in: locale) else { return [] }
        let trial = try? Paywall(
            price: paid.plan.price, period: paid.plan.period, offer: .freeTrial(SubscriptionPeriod(value: 1, unit: .week)),
            comparedTo: paid.comparedPlan, billingPlan: paid.billingPlan, locale: locale,
            offerStart: Date(timeIntervalSince1970: 1_767_225_600))
        return [trial, paid].compactMap { $0 }
    }

    /// A yearly plan of 49.99 (in the currency's digits) with three months at 0.99 each, compared
    /// with a weekly plan of 4.99, paid in monthly payments of 4.49, starting on 1 January 2026.
    static func samplePaywall(in locale: PriceLocale) throws(StorePriceError) -> Paywall {
        let digits = locale.currency.fractionDigits
        func price(_ whole: String, _ fraction: String) throws(StorePriceError) -> Price {
            let written = String((fraction + String(repeating: "0", count: digits)).prefix(digits))
            return try Price(digits == 0 ? whole : "\(whole).\(written)", currency: locale.currency)
        }
        return try Paywall(
            price: price("49", "99"), period: SubscriptionPeriod("P1Y"),
            offer: .payAsYouGo(price("0", "99"), every: SubscriptionPeriod("P1M"), count: 3),
            comparedTo: Paywall.Plan(price: price("4", "99"), period: SubscriptionPeriod("P1W")),
            billingPlan: Paywall.Plan(price: price("4", "49"), period: SubscriptionPeriod("P1M")), locale: locale,
            offerStart: Date(timeIntervalSince1970: 1_767_225_600))
    }
}
