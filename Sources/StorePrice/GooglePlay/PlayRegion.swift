import FoundationEssentials

/// A Google Play billing region: a country Play sells in, and the currency its buyers pay in.
///
/// Play gives an app a region code and a finished string, never a price locale. StorePrice's
/// rule: a Play price is shown in the buyer's language, in the region, with the currency of the
/// price, which is the region's buyer currency unless Play says otherwise. The 173 regions come
/// from `Data/play-regions.json`, compiled into the library; each says how sure it is
/// (``confidence``) and where it comes from (``sources``).
///
/// ```swift
/// let russia = try PlayRegion("RU")
/// russia.currency.code                                  // "RUB"
/// russia.priceLocale.identifier                         // "ru_RU@currency=RUB"
/// try russia.priceLocale(language: "en").identifier     // "en_RU@currency=RUB"
/// try PlayRegion("AR").currency.code                    // "USD": Play bills Argentina in dollars
/// ```
public struct PlayRegion: Hashable, Sendable, Identifiable, CustomStringConvertible {
    /// The ISO 3166-1 alpha-2 code Play names the region by (`regionCode`), such as `RU`.
    public let code: String
    /// ``code``, as `Identifiable` asks.
    public var id: String { code }
    /// The English name, such as `Russia`.
    public let name: String
    /// The buyer currency: what Play charges buyers in this region in, at ``PlayRegion/regionsVersion``.
    public let currency: CurrencyCode
    /// How sure the table is of the buyer currency.
    public let confidence: Confidence
    /// The keys of the sources the entry rests on (`A` to `E`): ``PlayRegion/source(_:)`` says what each is.
    public let sources: [String]
    /// Earlier buyer currencies, with the day and cause of each change.
    public let changes: [CurrencyChange]
    /// Why the entry is as it is, where that is not plain.
    public let note: String?
    /// The price locale's language when the buyer's device language is not known.
    public let language: String
    /// Where ``language`` comes from: `app-store` (the language of the App Store storefront of
    /// the same country), `cldr-likely-subtags` (CLDR's likely language for the region) or
    /// `official` (an official language ICU has data for).
    public let languageSource: String
    /// The price locale of a buyer whose language is not known: ``language``, the region and the
    /// buyer currency.
    public let priceLocale: PriceLocale

    /// How sure `Data/play-regions.json` is of a region's buyer currency.
    public enum Confidence: String, Hashable, Sendable, CaseIterable, Decodable {
        /// A real Play response (an API answer, not a hand-written list) prices the region in it.
        case confirmed
        /// The currency changed on a dated cause (a country's adoption of the euro, a Play
        /// change); see ``PlayRegion/changes``.
        case changed
        /// Only in a hand-written list of Play's regions; unconfirmed by any Play response.
        case listed
    }

    /// A change of a region's buyer currency.
    public struct CurrencyChange: Hashable, Sendable, Decodable {
        /// The currency before, such as `BGN`.
        public let from: String
        /// The currency after, such as `EUR`.
        public let to: String
        /// The day it took effect, `YYYY-MM-DD`.
        public let date: String
        /// Why, in a sentence.
        public let cause: String
        /// What shows it.
        public let source: String
    }

    /// The version of Play's set of regions and buyer currencies the table follows (`2025/03`),
    /// as the Play Developer API's `regionsVersion.version` names one.
    public static var regionsVersion: String { PlayRegionTable.shared.version }

    /// Every Play billing region, ordered by code.
    public static var all: [PlayRegion] { PlayRegionTable.shared.all }

    /// What a source key of ``sources`` stands for: the repository, path and commit, or the page.
    public static func source(_ key: String) -> String? { PlayRegionTable.shared.sources[key] }

    /// The price locale of a buyer whose device is in `language`: the language, the region and
    /// the currency of the price (by default the buyer currency).
    ///
    /// ```swift
    /// try PlayRegion("IN").priceLocale(language: "en-US").identifier  // "en_IN@currency=INR"
    /// try PlayRegion("KR").priceLocale(language: "ko", currency: CurrencyCode("USD")).identifier
    ///                                                                 // "ko_KR@currency=USD"
    /// ```
    ///
    /// - Parameters:
    ///   - language: the device's language, optionally with a script (`zh-Hant`); a region in
    ///     it (`en-US`) is ignored, since the region is the Play region; `nil` for ``language``.
    ///   - currency: the price's currency, where Play names one other than the buyer currency.
    /// - Throws: ``StorePriceError/unsupportedLocale(_:reason:)`` for a language ICU has no data for.
    public func priceLocale(language: String?, currency: CurrencyCode? = nil) throws(StorePriceError) -> PriceLocale {
        let chosen = currency ?? self.currency
        guard let language else {
            return chosen == self.currency ? priceLocale : PriceLocale(subtags: priceLocale.subtags, currency: chosen)
        }
        let requested = try LocaleSubtags(parsing: language, source: language)
        let subtags = try LocaleSubtags(
            language: requested.language, script: requested.script, region: code, source: language)
        return PriceLocale(subtags: subtags, currency: chosen)
    }

    /// The region as a storefront, as Play catalogs key their prices and are rendered: its
    /// ``numericID``, its code as both of a storefront's codes, its buyer currency and price
    /// locale (``Storefront/isPlayRegion`` is true).
    ///
    /// ```swift
    /// let bangladesh = try PlayRegion("BD").storefront
    /// bangladesh.countryCode             // "BD"
    /// bangladesh.priceLocale.identifier  // "bn_BD@currency=BDT"
    /// ```
    public var storefront: Storefront { Storefront(playRegion: self) }

    /// The region's number among storefront IDs: ``firstNumericID`` plus its two letters as a
    /// base-26 number (`AA` 0, `AB` 1 … `ZZ` 675), the same in every version of the table and
    /// apart from every App Store storefront ID (6 digits, from 143441).
    public var numericID: Int {
        let letters = Array(code.utf8)
        return Self.firstNumericID + Int(letters[0] &- 0x41) * 26 + Int(letters[1] &- 0x41)
    }

    /// The first ``numericID`` of a Play region: 2,000,000.
    public static let firstNumericID = 2_000_000

    /// `RU (Russia)`.
    public var description: String { "\(code) (\(name))" }
}

extension PlayRegion {
    /// Looks up a region by its alpha-2 code (`RU`, `ru`).
    ///
    /// - Throws: ``StorePriceError/unknownPlayRegion(_:suggestions:)``; an App Store code
    ///   (`RUS`, `143469`) is answered with the region's alpha-2 code.
    public init(_ code: String) throws(StorePriceError) {
        let key = code.trimmingASCIIWhitespace().asciiUppercased()
        guard key.utf8.allSatisfy({ $0 < 0x80 }), let found = PlayRegionTable.shared.byCode[key] else {
            throw .unknownPlayRegion(code, suggestions: PlayRegionTable.shared.suggestions(for: key))
        }
        self = found
    }
}

/// `Data/play-regions.json`, decoded once and checked: a code and currency ICU knows for every
/// region, a language ICU has data for, the sources named.
final class PlayRegionTable: Sendable {
    static let shared = PlayRegionTable()

    let all: [PlayRegion]
    let byCode: [String: PlayRegion]
    let byNumericID: [Int: PlayRegion]
    let version: String
    let sources: [String: String]

    private init() {
        do {
            (version, sources, all) = try Self.decode(Data(EmbeddedData.playRegions.utf8))
            byCode = Dictionary(all.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
            byNumericID = Dictionary(all.map { ($0.numericID, $0) }, uniquingKeysWith: { first, _ in first })
        } catch {
            // The embedded file is checked by the test suite; a build whose data does not decode
            // is a build defect, not a user's input.
            preconditionFailure("Data/play-regions.json: \(error)")
        }
    }

    struct Entry: Decodable {
        var region: String
        var name: String
        var currency: String
        var confidence: PlayRegion.Confidence
        var sources: [String]
        var language: String
        var language_source: String
        var note: String?
        var changes: [PlayRegion.CurrencyChange]?
    }

    struct File: Decodable {
        var regions_version: String
        var sources: [String: String]
        var regions: [Entry]
    }

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    static func decode(_ data: Data) throws -> (String, [String: String], [PlayRegion]) {
        let file = try JSONDecoder().decode(File.self, from: data)
        var regions: [PlayRegion] = []
        var seen: Set<String> = []
        for entry in file.regions {
            let code = entry.region
            guard code.utf8.count == 2, code.utf8.allSatisfy({ (0x41...0x5A).contains($0) }), seen.insert(code).inserted else {
                throw Problem(description: "region '\(code)' is not a new alpha-2 code")
            }
            if entry.sources.isEmpty { throw Problem(description: "\(code): no source") }
            if let unknown = entry.sources.first(where: { file.sources[$0] == nil }) {
                throw Problem(description: "\(code): unknown source '\(unknown)'")
            }
            if entry.confidence == .changed, entry.changes?.last?.to != entry.currency {
                throw Problem(description: "\(code): a changed currency needs a last change to \(entry.currency)")
            }
            let currency = try CurrencyCode(entry.currency)
            let language = try LocaleSubtags(parsing: entry.language, source: "\(code)'s language")
            let subtags = try LocaleSubtags(language: language.language, script: language.script, region: code, source: code)
            // ICU must have data for the language: the locale is opened as any price locale is.
            let locale = try PriceLocale(PriceLocale(subtags: subtags, currency: currency).identifier)
            regions.append(PlayRegion(
                code: code, name: entry.name, currency: currency, confidence: entry.confidence, sources: entry.sources,
                changes: entry.changes ?? [], note: entry.note, language: entry.language,
                languageSource: entry.language_source, priceLocale: locale))
        }
        return (file.regions_version, file.sources, regions.sorted { $0.code < $1.code })
    }

    /// Up to three region codes for a code that is none: the alpha-2 code of an App Store
    /// storefront's alpha-3 code or numeric ID, or codes one letter away.
    func suggestions(for code: String) -> [String] {
        guard !code.isEmpty, code.utf8.count <= 16 else { return [] }
        // ISO 3166 reserves UK for the United Kingdom and EL for Greece; Play names them GB and GR.
        if let alias = ["UK": "GB", "EL": "GR"][code] { return [alias] }
        if code.utf8.count != 2, let storefront = try? Storefront(code), byCode[storefront.alpha2] != nil {
            return [storefront.alpha2]
        }
        guard code.utf8.count == 2 else { return [] }
        let letters = Array(code.utf8)
        return all.filter { region in
            zip(Array(region.code.utf8), letters).filter { $0 != $1 }.count == 1
        }.prefix(3).map(\.code)
    }
}
