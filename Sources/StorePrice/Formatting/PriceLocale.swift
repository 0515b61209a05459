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
    public private(set) var identifier: String
    /// The ISO 639 language code, such as `ja`.
    public let language: String
    /// The ISO 15924 script code, such as `Hant`, when the identifier names one.
    public let script: String?
    /// The ISO 3166 region (`JP`) or UN M.49 area (`419`), when the identifier names one.
    public let region: String?
    /// The currency prices are shown in.
    public let currency: CurrencyCode

    /// The ICU locale ID without the currency keyword, such as `ja_JP`: the language and region
    /// of text around a price (titles, offer wording, durations).
    ///
    /// Never format a price with it: ICU reads the `@currency=` keyword for the symbols and
    /// pattern of the currency, and without it uses the region's own currency's.
    /// `pt_CV@currency=USD` writes `1234,50\u{00A0}US$`, but `pt_CV` writes the escudo's
    /// `1234$50\u{00A0}US$` for the same dollars. Prices are formatted with ``identifier``.
    public var languageIdentifier: String { subtags.identifier }

    /// Parses an ICU locale ID with a currency keyword (`ja_JP@currency=JPY`) or a BCP 47 tag
    /// with a currency extension (`ja-JP-u-cu-jpy`).
    ///
    /// - Throws: ``StorePriceError/unsupportedLocale(_:reason:)`` when the text is malformed,
    ///   names no currency, or names a language, script or region ICU has no data for;
    ///   ``StorePriceError/unknownCurrency(_:reason:)`` for an unknown currency.
    public init(_ identifier: String) throws(StorePriceError) {
        // Locale IDs and language tags are ASCII. Checked on bytes first: Swift compares characters
        // by canonical equivalence, under which U+037E (Greek question mark) is ';' and the Kelvin
        // sign is 'K'.
        guard identifier.utf8.allSatisfy({ $0 < 0x80 }) else {
            throw .unsupportedLocale(identifier, reason: "a locale identifier is ASCII, such as ja_JP@currency=JPY")
        }
        let icuID: String
        if identifier.contains("-") && !identifier.contains("@") && !identifier.contains("_") {
            do {
                icuID = try ICU.localeID(forLanguageTag: identifier)
            } catch {
                throw .unsupportedLocale(identifier, reason: "not a well-formed BCP 47 language tag")
            }
            // ICU keeps the first of two `cu` keys and drops the other without a word.
            if Self.unicodeExtensionKeys(ofLanguageTag: identifier).filter({ $0 == "cu" }).count > 1 {
                throw .unsupportedLocale(identifier, reason: "the 'cu' (currency) key appears more than once")
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
                guard pair.count == 2, pair[0].asciiLowercased() == "currency" else {
                    throw .unsupportedLocale(
                        identifier, reason: "only the 'currency' keyword is accepted, such as ja_JP@currency=JPY")
                }
                // ICU would use the last one; a price locale names its currency once.
                guard currencyText == nil else {
                    throw .unsupportedLocale(identifier, reason: "the 'currency' keyword appears more than once")
                }
                currencyText = String(pair[1])
            }
        }
        let subtags = try LocaleSubtags(parsing: base, source: identifier)
        guard let currencyText else {
            var reason = "a price locale names its currency"
            if let currency = ICU.defaultCurrency(forLocale: subtags.identifier) {
                reason += ", such as '\(subtags.identifier.escapedForMessage)@currency=\(currency)'"
            } else {
                reason += ", such as 'en_US@currency=USD'"
            }
            throw .unsupportedLocale(identifier, reason: reason)
        }
        self.init(subtags: subtags, currency: try CurrencyCode(currencyText))
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
        let source = LocaleSubtags.unchecked(language, script, region) + "@currency=\(currency)"
        let subtags = try LocaleSubtags(language: language, script: script, region: region, source: source)
        self.init(subtags: subtags, currency: currency)
    }

    init(subtags: LocaleSubtags, currency: CurrencyCode) {
        self.language = subtags.language
        self.script = subtags.script
        self.region = subtags.region
        self.currency = currency
        self.identifier = subtags.identifier + "@currency=\(currency)"
    }

    /// This locale with Latin digits (`ar_SA@currency=SAR;numbers=latn`), for text that sits
    /// beside prices written with them, as the App Store writes prices in Arabic storefronts.
    var withLatinDigits: PriceLocale {
        var copy = self
        copy.identifier = identifier + ";numbers=latn"
        return copy
    }

    /// The keys of a BCP 47 tag's Unicode extension (`-u-`), in order: `["cu", "nu"]` for
    /// `ar-SA-u-cu-sar-nu-latn`.
    static func unicodeExtensionKeys(ofLanguageTag tag: String) -> [String] {
        var keys: [String] = []
        var inUnicodeExtension = false
        for subtag in tag.split(separator: "-") {
            if subtag.utf8.count == 1 {
                inUnicodeExtension = subtag.asciiLowercased() == "u"
            } else if inUnicodeExtension, subtag.utf8.count == 2 {
                keys.append(subtag.asciiLowercased())
            }
        }
        return keys
    }

    /// Whether the language is written right to left, as Arabic, Hebrew, Persian and Urdu are;
    /// a page showing the price sets its direction from this.
    public var isRightToLeft: Bool { subtags.isRightToLeft }

    /// The script, as written or as ICU's likely subtags give it: `Hans` for `zh_CN`, `Hant` for
    /// `zh_TW`, `Latn` for `en_US`.
    var scriptOrLikely: String? {
        if let script { return script }
        let parts = ICU.addingLikelySubtags(to: languageIdentifier).split(separator: "_")
        guard parts.count > 1, parts[1].count == 4 else { return nil }
        return String(parts[1])
    }

    var subtags: LocaleSubtags {
        LocaleSubtags(unchecked: language, script: script, region: region)
    }

    /// The identifier, `ja_JP@currency=JPY`.
    public var description: String { identifier }
}

/// A price locale encodes as its identifier, `"ja_JP@currency=JPY"`, and decodes with the same
/// checks as ``init(_:)``.
extension PriceLocale: Codable {
    public init(from decoder: any Decoder) throws {
        self = try TextCoding.decode(from: decoder) { (text) throws(StorePriceError) in try PriceLocale(text) }
    }

    public func encode(to encoder: any Encoder) throws {
        try TextCoding.encode(identifier, to: encoder)
    }
}
