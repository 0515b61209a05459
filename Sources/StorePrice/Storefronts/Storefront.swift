import ICUNumberFormat

/// An App Store storefront: a country or region, the currency it charges and how it shows prices.
///
/// The 175 storefronts come from `Data/storefronts.json`, compiled into the library. Look one up
/// by numeric ID, ISO 3166 alpha-3 code (what StoreKit's `Storefront.countryCode` reports) or
/// alpha-2 code, in any case:
///
/// ```swift
/// let japan = try Storefront("JPN")            // or "JP", "jpn", "143462"
/// japan.priceLocale.identifier                 // "ja_JP@currency=JPY"
/// try Storefront("CAN").priceLocale(language: "fr").identifier  // "fr_CA@currency=CAD"
/// ```
///
/// The currency always comes from the storefront, whatever the store or device language.
public struct Storefront: Hashable, Sendable, Identifiable, CustomStringConvertible {
    /// Apple's storefront identifier as StoreKit's `Storefront.id` gives it: `"143462"` for Japan.
    public var id: String { String(numericID) }
    /// Apple's numeric storefront identifier, such as `143462` for Japan: ``id`` as a number, as
    /// catalogs key prices by it.
    public let numericID: Int
    /// The ISO 3166-1 alpha-2 code, such as `JP`.
    public let alpha2: String
    /// The ISO 3166-1 alpha-3 code, such as `JPN`, as StoreKit's `Storefront.countryCode` gives it.
    public let countryCode: String
    /// The ISO 3166-1 alpha-3 code: ``countryCode``, StoreKit's name for it.
    @available(*, deprecated, renamed: "countryCode")
    public var alpha3: String { countryCode }
    /// The English name, such as `Japan`.
    public let name: String
    /// The currency the storefront charges in.
    public let currency: CurrencyCode
    /// Apple's language tags for the storefront, Apple's default first (may be empty).
    public let languages: [String]
    /// The price locale a local customer sees prices in: the main local language, the region
    /// and the currency.
    public let priceLocale: PriceLocale
    /// Why the default price locale was chosen, where the choice is not plain.
    public let note: String?

    /// Looks up a storefront by numeric ID (`143462`), alpha-3 (`JPN`) or alpha-2 (`JP`) code.
    ///
    /// - Throws: ``StorePriceError/unknownStorefront(_:suggestions:)``, suggesting the closest codes.
    public init(_ code: String) throws(StorePriceError) {
        let key = code.trimmingASCIIWhitespace().asciiUppercased()
        // Codes are ASCII. Checked on bytes before the lookup, since Swift's string comparison
        // treats the Kelvin sign (U+212A) as 'K' and would find KOR for "\u{212A}OR".
        guard key.utf8.allSatisfy({ $0 < 0x80 }) else { throw .unknownStorefront(code, suggestions: []) }
        guard let found = StorefrontTable.shared.byCode[key] else {
            throw .unknownStorefront(code, suggestions: StorefrontTable.shared.suggestions(for: key))
        }
        self = found
    }

    /// Every App Store storefront, ordered by alpha-2 code.
    public static var all: [Storefront] { StorefrontTable.shared.all }

    /// The price locale for a store language other than the default, in this storefront's region
    /// and currency.
    ///
    /// ```swift
    /// try Storefront("CAN").priceLocale(language: "fr")     // fr_CA@currency=CAD
    /// try Storefront("HKG").priceLocale(language: "en-GB")  // en_HK@currency=HKD
    /// ```
    ///
    /// - Parameter language: a language, optionally with a script (`zh-Hant`); a region in it
    ///   is ignored, since the region is the storefront's.
    public func priceLocale(language: String) throws(StorePriceError) -> PriceLocale {
        let source = language
        let requested = try LocaleSubtags(parsing: language, source: source)
        let subtags = try LocaleSubtags(
            language: requested.language, script: requested.script, region: priceLocale.region, source: source)
        return PriceLocale(subtags: subtags, currency: currency)
    }

    /// Whether the App Store offers `language` (`fr`, `fr-CA`, `zh-Hant`) as a store language here:
    /// one of ``languages``, by language and script; English where Apple lists none.
    ///
    /// ```swift
    /// try Storefront("CAN").hasStoreLanguage("fr")  // true
    /// try Storefront("JPN").hasStoreLanguage("fr")  // false
    /// ```
    ///
    /// In a Google Play region (``isPlayRegion``) every language is: Play shows a price in the
    /// device's language.
    public func hasStoreLanguage(_ language: String) -> Bool {
        isPlayRegion || storeLanguages.contains { LocaleSubtags.sameLanguage($0, language) }
    }

    /// The store languages the App Store offers here: ``languages``, or English (`en-GB`) for the
    /// storefronts Apple's listing names none for, whose pages the App Store serves in English.
    public var storeLanguages: [String] { languages.isEmpty ? ["en-GB"] : languages }

    /// Whether this is a Google Play region standing as a storefront (``PlayRegion/storefront``),
    /// as Play catalogs are rendered, rather than an App Store storefront.
    public var isPlayRegion: Bool { numericID >= PlayRegion.firstNumericID }

    /// `JPN (Japan)`.
    public var description: String { "\(countryCode) (\(name))" }
}

extension Storefront: Decodable {
    private enum CodingKeys: String, CodingKey {
        case alpha2, name, currency, languages, note
        case countryCode = "alpha3"
        case id = "storefront_id"
        case priceLocale = "price_locale"
    }

    /// Decodes a storefront from its code, as a request body names one (`"JPN"`, `"JP"`,
    /// `"143462"` or `143462`), or from the full object `Data/storefronts.json` holds. A code is
    /// read whatever the decoder's key strategy.
    ///
    /// ```swift
    /// let body = try JSONDecoder().decode([String: Storefront].self, from: Data(#"{"storefront":"JPN"}"#.utf8))
    /// body["storefront"]?.countryCode  // "JPN"
    /// ```
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer() {
            if let code = try? single.decode(String.self) {
                self = try Storefront(code)
                return
            }
            if let number = try? single.decode(Int.self) {
                self = try Storefront(String(number))
                return
            }
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.numericID = try container.decode(Int.self, forKey: .id)
        self.alpha2 = try container.decode(String.self, forKey: .alpha2)
        self.countryCode = try container.decode(String.self, forKey: .countryCode)
        self.name = try container.decode(String.self, forKey: .name)
        self.currency = try CurrencyCode(container.decode(String.self, forKey: .currency))
        self.languages = try container.decode([String].self, forKey: .languages)
        self.priceLocale = try PriceLocale(container.decode(String.self, forKey: .priceLocale))
        self.note = try container.decodeIfPresent(String.self, forKey: .note)
        // Only the App Store's own storefronts: an object that says otherwise is refused, field
        // by field, rather than rendered with an ID or currency of its own.
        guard let known = try? Storefront(countryCode), known.countryCode == countryCode else {
            throw DecodingError.dataCorruptedError(
                forKey: .countryCode, in: container,
                debugDescription: "'\(countryCode.escapedForMessage)' is not an App Store storefront's alpha-3 code")
        }
        let fields: [(CodingKeys, Bool, String)] = [
            (.id, known.numericID == numericID, String(known.numericID)), (.alpha2, known.alpha2 == alpha2, known.alpha2),
            (.name, known.name == name, known.name), (.currency, known.currency == currency, known.currency.code),
            (.languages, known.languages == languages, known.languages.joined(separator: ", ")),
            (.priceLocale, known.priceLocale == priceLocale, known.priceLocale.identifier),
        ]
        if let (key, _, expected) = fields.first(where: { !$0.1 }) {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "\(countryCode)'s \(key.stringValue) is \(expected)")
        }
    }
}

extension Storefront {
    /// A storefront of `Data/storefronts.json` as `Scripts/embed-data.sh` writes it into the
    /// library, its price locale in parts. Checked against the file by StorefrontTests.
    struct Record: Sendable {
        var id: Int
        var alpha2, countryCode, name, currency: String
        var languages: [String]
        var language: String
        var script: String?
        var region: String
        var note: String?

        init(
            _ id: Int, _ alpha2: String, _ countryCode: String, _ name: String, _ currency: String,
            _ languages: [String], _ language: String, _ script: String?, _ region: String, _ note: String?
        ) {
            (self.id, self.alpha2, self.countryCode, self.name, self.currency) = (id, alpha2, countryCode, name, currency)
            (self.languages, self.language, self.script, self.region, self.note) = (languages, language, script, region, note)
        }
    }

    /// A Google Play region as a storefront: its ``PlayRegion/numericID``, its alpha-2 code as
    /// both codes (Play names regions by it), its buyer currency and default price locale.
    init(playRegion region: PlayRegion) {
        numericID = region.numericID
        alpha2 = region.code
        countryCode = region.code
        name = region.name
        currency = region.currency
        languages = [region.language]
        priceLocale = region.priceLocale
        note = region.note
    }

    /// A built-in storefront, from data checked when it was built.
    fileprivate init(_ record: Record, fractionDigits: Int) {
        numericID = record.id
        alpha2 = record.alpha2
        countryCode = record.countryCode
        name = record.name
        currency = CurrencyCode(checked: record.currency, fractionDigits: fractionDigits)
        languages = record.languages
        priceLocale = PriceLocale(
            subtags: LocaleSubtags(unchecked: record.language, script: record.script, region: record.region),
            currency: currency)
        note = record.note
    }
}

/// The storefront table, made once from the copy of `Data/storefronts.json` compiled into the
/// library (`EmbeddedData.storefronts`).
final class StorefrontTable: Sendable {
    static let shared = StorefrontTable()

    let all: [Storefront]
    let byCode: [String: Storefront]
    /// Each storefront's currency, by its numeric ID.
    private let currencies: [Int: CurrencyCode]

    private init() {
        var digits: [String: Int] = [:]
        var storefronts: [Storefront] = []
        storefronts.reserveCapacity(EmbeddedData.storefronts.count)
        for record in EmbeddedData.storefronts {
            let fractionDigits: Int
            if let known = digits[record.currency] {
                fractionDigits = known
            } else {
                do {
                    fractionDigits = try ICU.fractionDigits(currency: record.currency)
                } catch {
                    // Only a broken ICU fails here: every currency of the table is checked
                    // against ICU's list, with each price locale, by StorefrontTests.
                    fatalError("ICU \(VersionInfo.icu) cannot give the fraction digits of \(record.currency): \(error)")
                }
                digits[record.currency] = fractionDigits
            }
            storefronts.append(Storefront(record, fractionDigits: fractionDigits))
        }
        self.all = storefronts
        var byCode: [String: Storefront] = [:]
        for storefront in storefronts {
            byCode[String(storefront.id)] = storefront
            byCode[storefront.alpha2] = storefront
            byCode[storefront.countryCode] = storefront
        }
        self.byCode = byCode
        currencies = Dictionary(uniqueKeysWithValues: storefronts.map { ($0.numericID, $0.currency) })
    }

    /// The currency of the storefront with this numeric ID, if there is one: an App Store
    /// storefront, or a Play region standing as one (``PlayRegion/storefront``).
    func currency(ofNumericID id: Int) -> CurrencyCode? {
        currencies[id] ?? (id >= PlayRegion.firstNumericID ? PlayRegionTable.shared.byNumericID[id]?.currency : nil)
    }

    /// The storefront with this numeric ID: an App Store storefront, or a Play region's.
    func storefront(ofNumericID id: Int) -> Storefront? {
        id >= PlayRegion.firstNumericID ? PlayRegionTable.shared.byNumericID[id]?.storefront : byCode[String(id)]
    }

    /// Up to three known codes closest to `code`, of the same kind (numeric, alpha-2, alpha-3).
    func suggestions(for code: String) -> [String] {
        // Longer than any storefront's name: nothing is close to it (and the distances would cost
        // time in proportion to its length).
        guard !code.isEmpty, code.utf8.count <= 64 else { return [] }
        // ISO 3166 reserves UK for the United Kingdom and EL for Greece; neither is a storefront code.
        if let alias = Self.reservedAliases[code] { return alias }
        // A country name, or the start of one: "JAPAN", "UNITED".
        if code.count > 3 {
            let named = all.filter { $0.name.uppercased().hasPrefix(code) }.map(\.countryCode)
            if !named.isEmpty { return Array(named.prefix(3)) }
        }
        let candidates: [String]
        if code.utf8.allSatisfy(\.isASCIIDigit) {
            candidates = all.map { String($0.id) }
        } else if code.utf8.allSatisfy(\.isASCIILetter) {
            candidates = code.utf8.count <= 2 ? all.map(\.alpha2) : all.map(\.countryCode)
        } else {
            return []
        }
        return closestMatches(to: code, in: candidates)
    }

    private static let reservedAliases = ["UK": ["GB", "GBR"], "EL": ["GR", "GRC"]]
}

/// Up to three of `candidates` closest to `text`: those it begins, else those at the smallest edit
/// distance (within a third of its length, at least 2), those sharing its first letter first.
package func closestMatches(to text: String, in candidates: [String]) -> [String] {
    guard !text.isEmpty else { return [] }
    let extending = candidates.filter { $0.hasPrefix(text) }.sorted()
    if !extending.isEmpty { return Array(extending.prefix(3)) }
    let scored = candidates.map { ($0, editDistance($0, text)) }
    guard let best = scored.map(\.1).min(), best <= max(2, text.count / 3) else { return [] }
    let nearest = scored.filter { $0.1 == best }.map(\.0)
    let sameStart = nearest.filter { $0.first == text.first }.sorted()
    let others = nearest.filter { $0.first != text.first }.sorted()
    return Array((sameStart + others).prefix(3))
}

/// The Levenshtein distance between two strings, by Unicode scalar.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars)
    let b = Array(b.unicodeScalars)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
            current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

extension String {
    func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

extension Storefront: Encodable {
    /// Encodes the storefront as rows and request bodies name it: its alpha-3 code, `"JPN"`.
    /// ``details`` encodes every field.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(countryCode)
    }
}

extension Storefront {
    /// Every field of a storefront, as `storeprice storefronts --format json` writes it:
    /// `{"alpha2":"JP","alpha3":"JPN","storefront_id":143462,"name":"Japan","currency":"JPY",
    /// "languages":["ja"],"price_locale":"ja_JP@currency=JPY"}`.
    public struct Details: Hashable, Sendable, Codable {
        /// The ISO 3166-1 alpha-2 code.
        public var alpha2: String
        /// The ISO 3166-1 alpha-3 code (StoreKit's `countryCode`).
        public var alpha3: String
        /// Apple's numeric storefront identifier.
        public var storefrontID: Int
        /// The English name.
        public var name: String
        /// The currency the storefront charges in.
        public var currency: CurrencyCode
        /// Apple's language tags, Apple's default first.
        public var languages: [String]
        /// The default price locale.
        public var priceLocale: PriceLocale

        private enum CodingKeys: String, CodingKey {
            case alpha2, alpha3, name, currency, languages
            case storefrontID = "storefront_id"
            case priceLocale = "price_locale"
        }
    }

    /// Every field of the storefront, for a storefront table.
    public var details: Details {
        Details(
            alpha2: alpha2, alpha3: countryCode, storefrontID: numericID, name: name, currency: currency,
            languages: languages, priceLocale: priceLocale)
    }
}
