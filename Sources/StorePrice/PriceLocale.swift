import ICUNumberFormat

/// The locale a price is shown in: the storefront's language, region and currency.
///
/// A price locale is the only locale StorePrice formats in. It never comes from the device, the
/// server or the environment, and ICU must have data for its language and region: where ICU
/// would silently fall back to its root locale (and print `$ 1.00` for `xx_YY`), StorePrice
/// throws instead.
///
/// ```swift
/// let japan = try PriceLocale("ja_JP@currency=JPY")
/// let same = try PriceLocale("ja-JP-u-cu-jpy")          // BCP 47
/// let built = try PriceLocale(language: "ja", region: "JP", currency: CurrencyCode("JPY"))
/// japan.identifier  // "ja_JP@currency=JPY"
/// ```
public struct PriceLocale: Hashable, Sendable, CustomStringConvertible {
    /// The canonical ICU identifier: `language[_Script][_REGION]@currency=CODE`.
    public let identifier: String
    /// The ISO 639 language code, such as `ja`.
    public let language: String
    /// The ISO 15924 script code, such as `Hant`, when the identifier names one.
    public let script: String?
    /// The ISO 3166 region (`JP`) or UN M.49 area (`419`), when the identifier names one.
    public let region: String?
    /// The currency prices are shown in.
    public let currency: CurrencyCode

    /// The ICU locale ID without the currency keyword, such as `ja_JP`; the currency reaches
    /// ICU through the formatter's skeleton.
    public var languageIdentifier: String {
        Self.identifier(language, script, region)
    }

    /// Parses an ICU locale ID with a currency keyword (`ja_JP@currency=JPY`) or a BCP 47 tag
    /// with a currency extension (`ja-JP-u-cu-jpy`).
    ///
    /// - Throws: ``StorePriceError/unsupportedLocale(_:reason:)`` when the text is malformed,
    ///   names no currency, or names a language, script or region ICU has no data for;
    ///   ``StorePriceError/unknownCurrency(_:reason:)`` for an unknown currency.
    public init(_ identifier: String) throws(StorePriceError) {
        let icuID: String
        if identifier.contains("-") && !identifier.contains("@") && !identifier.contains("_") {
            do {
                icuID = try ICU.localeID(forLanguageTag: identifier)
            } catch {
                throw .unsupportedLocale(identifier, reason: "not a well-formed BCP 47 language tag")
            }
        } else {
            icuID = identifier
        }
        let parts = icuID.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        let base = String(parts[0])
        var currencyText: String?
        if parts.count == 2 {
            for keyword in parts[1].split(separator: ";") {
                let pair = keyword.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard pair.count == 2, pair[0].lowercased() == "currency" else {
                    throw .unsupportedLocale(
                        identifier, reason: "only the 'currency' keyword is accepted, such as ja_JP@currency=JPY")
                }
                currencyText = String(pair[1])
            }
        }
        let subtags = try Self.parseBase(base, identifier: identifier)
        guard let currencyText else {
            var reason = "a price locale names its currency"
            let suggestionBase = Self.identifier(subtags.language, subtags.script, subtags.region)
            if let currency = ICU.defaultCurrency(forLocale: suggestionBase) {
                reason += ", such as '\(suggestionBase)@currency=\(currency)'"
            } else {
                reason += ", such as 'en_US@currency=USD'"
            }
            throw .unsupportedLocale(identifier, reason: reason)
        }
        let currency = try CurrencyCode(currencyText)
        try self.init(
            language: subtags.language, script: subtags.script, region: subtags.region,
            currency: currency, source: identifier)
    }

    /// Creates a price locale from its parts.
    ///
    /// - Parameters:
    ///   - language: an ISO 639 code ICU has data for, such as `fr`.
    ///   - script: an ISO 15924 code, such as `Hant`, or nil.
    ///   - region: an ISO 3166 alpha-2 code or UN M.49 area, such as `CA` or `419`, or nil.
    ///   - currency: the currency prices are shown in.
    public init(language: String, script: String? = nil, region: String?, currency: CurrencyCode)
        throws(StorePriceError)
    {
        let shown = Self.identifier(language, script, region) + "@currency=\(currency)"
        try self.init(language: language, script: script, region: region, currency: currency, source: shown)
    }

    private init(language: String, script: String?, region: String?, currency: CurrencyCode, source: String)
        throws(StorePriceError)
    {
        let language = language.lowercased()
        guard (2...3).contains(language.utf8.count), language.utf8.allSatisfy(\.isASCIILetter) else {
            throw .unsupportedLocale(source, reason: "'\(language)' is not an ISO 639 language code")
        }
        guard ICU.availableLanguages.contains(language) else {
            throw .unsupportedLocale(source, reason: "ICU has no locale data for language '\(language)'")
        }
        var normalizedScript: String?
        if let script {
            guard script.utf8.count == 4, script.utf8.allSatisfy(\.isASCIILetter) else {
                throw .unsupportedLocale(source, reason: "'\(script)' is not an ISO 15924 script code")
            }
            let titled = script.prefix(1).uppercased() + script.dropFirst().lowercased()
            guard ICU.availableLanguages.contains("\(language)_\(titled)") else {
                throw .unsupportedLocale(
                    source, reason: "ICU has no locale data for language '\(language)' in script '\(titled)'")
            }
            normalizedScript = titled
        }
        var normalizedRegion: String?
        if let region {
            let upper = region.uppercased()
            let wellFormed = (upper.utf8.count == 2 && upper.utf8.allSatisfy(\.isASCIILetter))
                || (upper.utf8.count == 3 && upper.utf8.allSatisfy(\.isASCIIDigit))
            guard wellFormed, ICU.isKnownRegion(upper) else {
                throw .unsupportedLocale(source, reason: "ICU does not know region '\(region)'")
            }
            normalizedRegion = upper
        }
        self.language = language
        self.script = normalizedScript
        self.region = normalizedRegion
        self.currency = currency
        self.identifier = Self.identifier(language, normalizedScript, normalizedRegion) + "@currency=\(currency)"
    }

    private static func identifier(_ language: String, _ script: String?, _ region: String?) -> String {
        var id = language
        if let script { id += "_" + script }
        if let region { id += "_" + region }
        return id
    }

    private static func parseBase(_ base: String, identifier: String) throws(StorePriceError)
        -> (language: String, script: String?, region: String?)
    {
        let subtags = base.split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        guard let language = subtags.first, !language.isEmpty else {
            throw .unsupportedLocale(identifier, reason: "no language, such as 'ja' in ja_JP@currency=JPY")
        }
        var script: String?
        var region: String?
        var rest = subtags.dropFirst()
        if let next = rest.first, next.utf8.count == 4, next.utf8.allSatisfy(\.isASCIILetter) {
            script = next
            rest = rest.dropFirst()
        }
        if let next = rest.first {
            region = next
            rest = rest.dropFirst()
        }
        guard rest.isEmpty else {
            throw .unsupportedLocale(
                identifier, reason: "variants such as '\(rest.joined(separator: "_"))' are not accepted")
        }
        return (language, script, region)
    }

    public var description: String { identifier }
}
