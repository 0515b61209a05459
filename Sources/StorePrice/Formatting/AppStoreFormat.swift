import ICUNumberFormat

/// A storefront's ``AppStoreRule`` made ready to format: ICU's formatters for its number, and the
/// text Apple writes on either side of it.
struct AppStoreFormat: Sendable {
    /// The number, in the rule's numbers locale with its fraction digits and the options' rounding.
    let number: ICUNumberFormatter
    /// The fraction digits a price may have before it is rounded or refused.
    let fractionDigits: Int
    /// The storefront's alpha-3 code, for messages.
    let storefront: String
    private let prefix: String
    private let suffix: String
    private let houseRule: HouseRuleFormatters?

    /// Indonesia's thousands (`ribu`) and millions (`juta`): see
    /// ``AppStoreRule/HouseRule/indonesianThousands``.
    private struct HouseRuleFormatters: Sendable {
        /// The rounded whole amount as plain ASCII digits, to choose the unit by.
        var whole: ICUNumberFormatter
        var thousands: ICUNumberFormatter
        var millions: ICUNumberFormatter
    }

    /// The format for a rule, or `nil` when the rule keeps ICU's output (basis `.none`).
    init?(rule: AppStoreRule, options: PriceFormatter.Options) throws(StorePriceError) {
        guard let pattern = rule.pattern, let numbers = rule.numbers, let digits = rule.fractionDigits,
            let split = pattern.firstRange(of: "{amount}")
        else { return nil }
        let precision = digits == 0 ? "precision-integer" : "." + String(repeating: "0", count: digits)
        let rounding = options.rounding.skeleton
        number = try FormatterCache.formatter(skeleton: "\(precision) \(rounding)", locale: numbers)
        fractionDigits = digits
        storefront = rule.storefront
        prefix = String(pattern[..<split.lowerBound])
        suffix = String(pattern[split.upperBound...])
        switch rule.houseRule {
        case .indonesianThousands:
            houseRule = HouseRuleFormatters(
                whole: try FormatterCache.formatter(skeleton: "precision-integer group-off \(rounding)", locale: "en"),
                thousands: try FormatterCache.formatter(skeleton: "scale/0.001 .### \(rounding)", locale: numbers),
                millions: try FormatterCache.formatter(skeleton: "scale/0.000001 .###### \(rounding)", locale: numbers))
        case nil:
            houseRule = nil
        }
    }

    /// The price as Apple writes it, from the decimal text `PriceFormatter` checked.
    func format(_ amount: String, price: Price, locale: PriceLocale) throws(StorePriceError) -> String {
        do {
            return prefix + (try formattedNumber(amount)) + suffix
        } catch {
            throw .icuFailure(code: error.name, operation: "format \(price) in \(locale) in the App Store style")
        }
    }

    private func formattedNumber(_ amount: String) throws(ICUError) -> String {
        guard let houseRule else { return try number.format(decimal: amount) }
        // Whole thousands of rupiah are written in ribu, whole millions and more in juta, with a
        // decimal comma for the rest (Rp 99ribu, Rp 14,999juta); the unit follows the rounded
        // amount's size. An amount that is not whole thousands is written in full (Rp 14.500).
        let whole = try houseRule.whole.format(decimal: amount)
        let magnitude = whole.utf8.count - (whole.hasPrefix("-") ? 1 : 0)
        guard magnitude >= 4, whole.hasSuffix("000") else { return try number.format(decimal: amount) }
        if magnitude >= 7 { return try houseRule.millions.format(decimal: amount) + "juta" }
        return try houseRule.thousands.format(decimal: amount) + "ribu"
    }
}
