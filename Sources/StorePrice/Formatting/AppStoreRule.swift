import Foundation

/// How the App Store writes prices in one storefront: the data behind
/// ``PriceFormatter/Style/appStore``, read from `Data/app-store-style.json`.
///
/// Apple's servers (StoreKit 2's `displayPrice`, the App Store's pages, the iTunes lookup API) do
/// not write CLDR's formats: `¥800` in Japan where ICU writes `￥800`, `USD 4.99` in storefronts
/// priced in US dollars outside the US, `Rp 99ribu` in Indonesia. A rule says how: ICU formats the
/// number in the locale named by ``numbers`` with ``fractionDigits`` digits, and the ``pattern``
/// places it beside Apple's currency text.
///
/// ```swift
/// let japan = try Storefront("JPN").appStoreRule
/// japan.pattern          // "¥{amount}"
/// japan.basis            // .evidence
/// japan.defaultLanguage  // "ja"
/// ```
///
/// ``basis`` says what a rule rests on, and ``evidence`` cites strings it was checked against;
/// every storefront's rule rests on Apple's own strings today, and a storefront added without
/// them would say so (`.class` or `.none`).
public struct AppStoreRule: Hashable, Sendable {
    /// What a rule rests on.
    public enum Basis: String, Hashable, Sendable, CaseIterable {
        /// Apple's own strings from this storefront, cited in ``AppStoreRule/evidence``.
        case evidence
        /// No strings from this storefront: the rule of storefronts like it, named in
        /// ``AppStoreRule/classNote``.
        case `class`
        /// No evidence at all: the style gives ICU's output for the price locale, unchanged.
        case none
    }

    /// A rule ICU cannot express, written once in `AppStoreFormat`.
    public enum HouseRule: String, Hashable, Sendable, CaseIterable {
        /// Indonesia: whole thousands as `ribu` and millions as `juta`, with a decimal comma
        /// (`Rp 99ribu`, `Rp 1,499juta`); amounts under 1,000, and those that are not whole
        /// thousands (`Rp 14.500`), in full.
        case indonesianThousands = "indonesian-thousands"
    }

    /// The storefront's alpha-3 code, such as `JPN`.
    public let storefront: String
    /// The language the App Store writes this storefront's pages in by default, such as `en-GB`.
    public let defaultLanguage: String
    /// The page languages Apple's strings from this storefront were seen in, such as
    /// `["en-GB", "ja"]`: its default pages and, for 170 storefronts, its English pages.
    public let languagesSeen: [String]
    /// What the rule rests on.
    public let basis: Basis
    /// Apple's text around the number, with `{amount}` for it (`¥{amount}`,
    /// `USD\u{00A0}{amount}`); `nil` when ``basis`` is `.none`: ICU's output is kept.
    public let pattern: String?
    /// The ICU locale whose digits, separators and grouping the number takes, such as `en`.
    public let numbers: String?
    /// The fraction digits Apple shows: 0 for yen and rupees, 2 for most currencies.
    public let fractionDigits: Int?
    /// A rule ICU cannot express, if any.
    public let houseRule: HouseRule?
    /// For `.class` rules, which storefronts the rule is taken from.
    public let classNote: String?
    /// Apple's strings the rule was checked against: `currency amount → string (source kind;
    /// repository path@commit, what, when)`.
    public let evidence: [String]
    /// Rules for store languages that write prices differently from the storefront's own, keyed
    /// by language (`en`) or language and script (`zh-Hant`).
    public let languages: [String: AppStoreRule]
    /// Apple's largest string of 1,000 or more from this storefront that the rule writes, as
    /// `currency amount → string`, such as `JPY 118800 → ¥118,800`; nil when none was found, and
    /// the rule's grouping rests on smaller amounts only. Price points pass 1,000 in most
    /// currencies.
    public let largeAmountSeen: String?
    /// The largest amount ``largeAmountSeen`` verifies the rule to.
    public let largeAmountsSeenUpTo: Int?
    /// What of the rule's large amounts no string of Apple's shows: all of them (when
    /// ``largeAmountSeen`` is nil), or forms of the storefront's rule that no string shows.
    public let largeAmountsUnverified: String?

    /// Whether the evidence covers pages in `language` (`en-GB`, `fr`): a language in
    /// ``languagesSeen``, or one with a rule of its own in ``languages``. Other store languages take
    /// the storefront's rule without evidence that Apple writes them the same way.
    ///
    /// ```swift
    /// try Storefront("TWN").appStoreRule.hasEvidence(forLanguage: "en-GB")  // true: NT$…
    /// try Storefront("JPN").appStoreRule.hasEvidence(forLanguage: "fr")     // false: ja and en seen
    /// try Storefront("TWN").appStoreRule.hasEvidence(forLanguage: "zh-Hans") // false: zh-Hant seen
    /// ```
    public func hasEvidence(forLanguage language: String) -> Bool {
        guard basis == .evidence else { return false }
        return (languagesSeen + languages.keys).contains { LocaleSubtags.sameLanguage($0, language) }
    }

    /// The version of `Data/app-store-style.json`, the date its rules were last changed: a
    /// snapshot in the App Store style records it, and `verify` names it beside ICU's.
    public static var rulesVersion: String { AppStoreRuleTable.shared.version }

    /// The rule for every storefront, ordered by alpha-3 code.
    public static var all: [AppStoreRule] { AppStoreRuleTable.shared.all }

    /// The rule for a price locale: the storefront of its region and currency, and the rule for
    /// its language where the storefront has one.
    ///
    /// ```swift
    /// try AppStoreRule(for: PriceLocale("zh_Hant_TW@currency=TWD")).pattern
    /// ```
    ///
    /// - Throws: ``StorePriceError/unsupportedLocale(_:reason:)`` when no storefront has the
    ///   locale's region and currency (`en_GB@currency=USD`: Apple charges pounds in GBR).
    public init(for locale: PriceLocale) throws(StorePriceError) {
        guard let region = locale.region,
            let storefront = StorefrontTable.shared.byCode[region], storefront.alpha2 == region
        else {
            throw .unsupportedLocale(
                locale.identifier,
                reason: "the App Store style needs a storefront's region and currency, such as ja_JP@currency=JPY")
        }
        guard storefront.currency == locale.currency else {
            throw .unsupportedLocale(
                locale.identifier,
                reason: "the App Store charges \(storefront.currency) in \(storefront.countryCode), not \(locale.currency); "
                    + "the App Store style shows a storefront's own currency")
        }
        let rule = AppStoreRuleTable.shared.byStorefront[storefront.countryCode] ?? .none(storefront)
        let withScript = locale.script.map { "\(locale.language)-\($0)" }
        self = withScript.flatMap { rule.languages[$0] } ?? rule.languages[locale.language] ?? rule
    }

    fileprivate static func none(_ storefront: Storefront) -> AppStoreRule {
        AppStoreRule(
            storefront: storefront.countryCode, defaultLanguage: storefront.storeLanguages[0], languagesSeen: [],
            basis: .none,
            pattern: nil, numbers: nil, fractionDigits: nil, houseRule: nil, classNote: nil, evidence: [],
            languages: [:])
    }

    init(
        storefront: String, defaultLanguage: String, languagesSeen: [String], basis: Basis, pattern: String?,
        numbers: String?,
        fractionDigits: Int?, houseRule: HouseRule?, classNote: String?, evidence: [String],
        languages: [String: AppStoreRule], largeAmountSeen: String? = nil, largeAmountsSeenUpTo: Int? = nil,
        largeAmountsUnverified: String? = nil
    ) {
        self.storefront = storefront
        self.defaultLanguage = defaultLanguage
        self.languagesSeen = languagesSeen
        self.basis = basis
        self.pattern = pattern
        self.numbers = numbers
        self.fractionDigits = fractionDigits
        self.houseRule = houseRule
        self.classNote = classNote
        self.evidence = evidence
        self.languages = languages
        self.largeAmountSeen = largeAmountSeen
        self.largeAmountsSeenUpTo = largeAmountsSeenUpTo
        self.largeAmountsUnverified = largeAmountsUnverified
    }
}

extension Storefront {
    /// How the App Store writes prices in this storefront: see ``AppStoreRule``.
    public var appStoreRule: AppStoreRule {
        AppStoreRuleTable.shared.byStorefront[countryCode] ?? .none(self)
    }
}

/// `Data/app-store-style.json`, decoded once and checked against the storefront table.
final class AppStoreRuleTable: Sendable {
    static let shared = AppStoreRuleTable()

    let all: [AppStoreRule]
    let byStorefront: [String: AppStoreRule]
    let version: String

    private init() {
        do {
            let (version, rules) = try Self.decode(Data(EmbeddedData.appStoreStyle.utf8))
            self.version = version
            all = rules
            byStorefront = Dictionary(rules.map { ($0.storefront, $0) }, uniquingKeysWith: { first, _ in first })
        } catch {
            // The embedded file is checked by the test suite; a build whose data does not decode
            // is a build defect, not a user's input.
            preconditionFailure("Data/app-store-style.json: \(error)")
        }
    }

    struct Entry: Decodable {
        var currency: String?
        var language: String?
        var seen_in: [String]?
        var basis: String
        var pattern: String?
        var numbers: String?
        var fraction_digits: Int?
        var rule: String?
        var `class`: String?
        var evidence: [String]?
        var languages: [String: Entry]?
        var large_amounts: LargeAmounts?
    }

    /// Whether Apple's strings show the rule at 1,000 or more (`Scripts/app-store-large-amounts.py`).
    struct LargeAmounts: Decodable {
        var seen: String?
        var up_to: Int?
        var unverified: String?
    }

    struct File: Decodable {
        var version: String
        var storefronts: [String: Entry]
    }

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// Decodes the file and checks every entry: a known storefront and its currency, a pattern
    /// with one `{amount}`, numbers and digits wherever there is a pattern.
    static func decode(_ data: Data) throws -> (version: String, rules: [AppStoreRule]) {
        let file = try JSONDecoder().decode(File.self, from: data)
        var rules: [AppStoreRule] = []
        for code in file.storefronts.keys.sorted() {
            guard let entry = file.storefronts[code], let storefront = StorefrontTable.shared.byCode[code],
                storefront.countryCode == code
            else { throw Problem(description: "unknown storefront '\(code)'") }
            if let currency = entry.currency, currency != storefront.currency.code {
                throw Problem(description: "\(code): currency \(currency), but the storefront charges \(storefront.currency)")
            }
            rules.append(
                try rule(entry, storefront: code, defaultLanguage: entry.language ?? "en-GB", seen: entry.seen_in ?? []))
        }
        return (file.version, rules)
    }

    private static func rule(_ entry: Entry, storefront: String, defaultLanguage: String, seen: [String]) throws
        -> AppStoreRule
    {
        guard let basis = AppStoreRule.Basis(rawValue: entry.basis) else {
            throw Problem(description: "\(storefront): unknown basis '\(entry.basis)'")
        }
        if let pattern = entry.pattern {
            guard pattern.components(separatedBy: "{amount}").count == 2 else {
                throw Problem(description: "\(storefront): pattern '\(pattern)' needs one {amount}")
            }
            guard entry.numbers != nil, let digits = entry.fraction_digits, (0...4).contains(digits) else {
                throw Problem(description: "\(storefront): a pattern needs numbers and fraction_digits (0 to 4)")
            }
        } else if basis != .none {
            throw Problem(description: "\(storefront): basis \(basis.rawValue) needs a pattern")
        }
        var houseRule: AppStoreRule.HouseRule?
        if let name = entry.rule {
            guard let known = AppStoreRule.HouseRule(rawValue: name) else {
                throw Problem(description: "\(storefront): unknown rule '\(name)'")
            }
            houseRule = known
        }
        if basis == .evidence, entry.evidence?.isEmpty ?? true {
            throw Problem(description: "\(storefront): basis evidence cites no evidence")
        }
        var languages: [String: AppStoreRule] = [:]
        for (language, nested) in entry.languages ?? [:] {
            languages[language] = try rule(nested, storefront: storefront, defaultLanguage: defaultLanguage, seen: [language])
        }
        return AppStoreRule(
            storefront: storefront, defaultLanguage: defaultLanguage, languagesSeen: seen, basis: basis,
            pattern: entry.pattern,
            numbers: entry.numbers, fractionDigits: entry.fraction_digits, houseRule: houseRule,
            classNote: entry.class, evidence: entry.evidence ?? [], languages: languages,
            largeAmountSeen: entry.large_amounts?.seen, largeAmountsSeenUpTo: entry.large_amounts?.up_to,
            largeAmountsUnverified: entry.large_amounts?.unverified)
    }
}
