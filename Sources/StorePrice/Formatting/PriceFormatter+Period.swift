import ICUNumberFormat

extension PriceFormatter {
    /// A price paid every period, from CLDR's patterns for the store language: `$9.99 per month`,
    /// `￥1,200/月`, `9,99 € pro Monat`, `월당 ₩9,900`, `$24.99 per 3 months`.
    ///
    /// A one-unit period uses the unit's own "per" pattern (`{0} per month`, `{0}/月`); a longer
    /// one uses the locale's compound pattern (`{0} per {1}`) with the period's text. Nothing is
    /// concatenated in English.
    ///
    /// ```swift
    /// let formatter = try PriceFormatter(locale: Storefront("USA").priceLocale)
    /// try formatter.format(Price("9.99", currency: CurrencyCode("USD")), per: SubscriptionPeriod("P1M"))   // "$9.99 per month"
    /// ```
    public func format(
        _ price: Price, per period: SubscriptionPeriod, style: SubscriptionPeriod.Style = .wide
    ) throws(StorePriceError) -> String {
        try Self.apply(perPattern(period, style: style), price: format(price))
    }

    /// An amount paid every period, as ``format(_:per:style:)`` shows it.
    public func format(
        amount: String, per period: SubscriptionPeriod, style: SubscriptionPeriod.Style = .wide
    ) throws(StorePriceError) -> String {
        try format(Price(amount, currency: locale.currency), per: period, style: style)
    }

    /// An approximate price, such as a yearly price per month: `$4.99 per month`.
    public func format(_ approximate: ApproximatePrice, style: SubscriptionPeriod.Style = .wide)
        throws(StorePriceError) -> String
    {
        try format(approximate.price, per: approximate.period, style: style)
    }

    /// The pattern with `{0}` for the price, for a period in this formatter's locale.
    func perPattern(_ period: SubscriptionPeriod, style: SubscriptionPeriod.Style) throws(StorePriceError) -> String {
        try locale.perPeriodPattern(period, style: style)
    }

    static func apply(_ pattern: String, price: String) -> String {
        pattern.replacingFirst("{0}", with: price)
    }
}

extension PriceLocale {
    private struct PerPatternKey: Hashable, Sendable {
        var locale: String
        var period: SubscriptionPeriod
        var style: SubscriptionPeriod.Style
    }

    /// Per-period patterns already read from ICU's resource bundles, which are slow to open.
    private static let perPatterns = BoundedCache<PerPatternKey, Result<String, StorePriceError>>(
        limit: FormatterCache.limit)

    /// The pattern with `{0}` for a price paid every `period` in this locale's language; read
    /// from ICU's data once per (locale, period, style) in the process.
    func perPeriodPattern(_ period: SubscriptionPeriod, style: SubscriptionPeriod.Style) throws(StorePriceError)
        -> String
    {
        // By the whole identifier: a period's count is written in the locale's digits.
        try Self.perPatterns.value(for: PerPatternKey(locale: identifier, period: period, style: style)) {
            Result { () throws(StorePriceError) in try lookUpPerPeriodPattern(period, style: style) }
        }.get()
    }

    private func lookUpPerPeriodPattern(_ period: SubscriptionPeriod, style: SubscriptionPeriod.Style)
        throws(StorePriceError) -> String
    {
        if period.value == 1,
            let pattern = ICU.unitString(
                locale: languageIdentifier, table: style.unitTable, group: "duration", key: period.unit.rawValue,
                field: "per")
        {
            return pattern
        }
        guard
            let compound = ICU.unitString(
                locale: languageIdentifier, table: style.unitTable, group: "compound", key: nil, field: "per")
        else {
            throw .icuFailure(code: "U_MISSING_RESOURCE_ERROR", operation: "find a 'per' pattern for \(self)")
        }
        return compound.replacingFirst("{1}", with: try period.text(in: self, style: style))
    }
}

extension String {
    /// The string with the first occurrence of `placeholder` replaced, matched byte for byte.
    func replacingFirst(_ placeholder: String, with replacement: String) -> String {
        let bytes = Array(utf8)
        let target = Array(placeholder.utf8)
        guard let first = target.first, bytes.count >= target.count else { return self }
        for start in 0...(bytes.count - target.count) where bytes[start] == first {
            if bytes[start..<(start + target.count)].elementsEqual(target) {
                var result = bytes[..<start] + Array(replacement.utf8)
                result += bytes[(start + target.count)...]
                return String(decoding: result, as: UTF8.self)
            }
        }
        return self
    }
}
