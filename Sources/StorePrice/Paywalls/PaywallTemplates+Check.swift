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
    /// number, a `plural` without a case the language needs, printf placeholders) and rendered for
    /// a yearly plan with a pay-as-you-go offer, compared with a weekly plan, so that an argument
    /// the language has no value for (such as `offer` where StorePrice has no wording) is found.
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
                let paywall = try? Self.samplePaywall(in: locale)
                for name in templates.keys.sorted() {
                    let template = PaywallTemplate(templates[name] ?? "", name: name, source: source)
                    var errors = template.problems(in: locale)
                    if errors.isEmpty, let paywall {
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

    /// A yearly plan of 49.99 (in the currency's digits) with three months at 0.99 each, compared
    /// with a weekly plan of 4.99, starting on 1 January 2026.
    static func samplePaywall(in locale: PriceLocale) throws(StorePriceError) -> Paywall {
        let digits = locale.currency.fractionDigits
        func price(_ whole: String, _ fraction: String) throws(StorePriceError) -> Price {
            let written = String((fraction + String(repeating: "0", count: digits)).prefix(digits))
            return try Price(digits == 0 ? whole : "\(whole).\(written)", currency: locale.currency)
        }
        return try Paywall(
            price: price("49", "99"), period: SubscriptionPeriod("P1Y"),
            offer: .payAsYouGo(price("0", "99"), every: SubscriptionPeriod("P1M"), count: 3),
            comparedTo: Paywall.Plan(price: price("4", "99"), period: SubscriptionPeriod("P1W")), locale: locale,
            offerStart: Date(timeIntervalSince1970: 1_767_225_600))
    }
}
