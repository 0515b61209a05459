#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ICUNumberFormat

/// Paywall templates by store language and name, as translators deliver them: a JSON object of
/// language tags, each an object of template names and ICU MessageFormat patterns.
///
/// ```json
/// {
///   "en": {"headline": "{offer_duration} free, then {price_per_period}"},
///   "ru": {"headline": "{offer_count, plural, one {# месяц} few {# месяца} many {# месяцев} other {# месяца}} бесплатно"}
/// }
/// ```
///
/// A paywall in a store language uses the most specific entry that matches it (`pt-PT`, then
/// `pt`; `zh-Hant-TW`, `zh-Hant`, `zh-TW`, then `zh`), and StorePrice's built-in template of a
/// name the entry lacks. Built in are lines made only of CLDR data, in every store language:
/// `period`, `price_per_period`, `billed_amount_first` and `savings`; and StorePrice's own
/// sentences `offer_then_price` and `save` in the languages of `Data/paywall-templates.json`.
public struct PaywallTemplates: Sendable {
    /// Where the templates came from: a file's path, or `built-in`.
    public let source: String
    /// The patterns, by language tag (`en`, `pt-PT`, `zh-Hant`) and then by template name.
    public let languages: [String: [String: String]]
    /// Each tag as written, by its normalized form (`pt-pt`).
    private let normalizedTags: [String: String]

    /// Templates given in code.
    ///
    /// - Throws: ``StorePriceError/invalidTemplate(name:source:locale:argument:reason:)`` for a
    ///   key that is not a language tag ICU knows.
    public init(_ languages: [String: [String: String]], source: String = "templates") throws(StorePriceError) {
        func fail(_ reason: String) -> StorePriceError {
            .invalidTemplate(name: "", source: source, locale: nil, argument: nil, reason: reason)
        }
        var seen: [String: String] = [:]
        for tag in languages.keys.sorted() {
            guard Self.languageSubtag(of: tag) != nil else {
                throw fail("'\(tag.escapedForMessage)' is not a language tag ICU knows, such as en, pt-BR or zh-Hant")
            }
            if let other = seen.updateValue(tag, forKey: Self.normalized(tag)) {
                throw fail("'\(other.escapedForMessage)' and '\(tag.escapedForMessage)' are one language; keep one")
            }
            for name in (languages[tag] ?? [:]).keys.sorted()
            where name.isEmpty || PaywallTemplate.controlCharacter(in: name) != nil {
                throw fail(
                    "template name '\(name.escapedForMessage)' in \(tag.escapedForMessage) is empty or has a control character, "
                        + "a line or paragraph separator, or a bidi override")
            }
        }
        self.init(checked: languages, source: source)
    }

    /// Reads a templates file: `{"en": {"name": "pattern", …}, "fr": {…}}`, or the same object as
    /// `templates` beside a `note` and a `source`, as `Data/paywall-templates.json` has it.
    ///
    /// - Throws: ``StorePriceError/unreadableFile(path:reason:)``, or
    ///   ``StorePriceError/invalidTemplate(name:source:locale:argument:reason:)`` naming the file
    ///   and what is wrong in it.
    public init(contentsOfFile path: String) throws(StorePriceError) {
        let bytes = try InputFile(path: path).readAll()
        try self.init(json: bytes, source: path)
    }

    init(json bytes: [UInt8], source: String) throws(StorePriceError) {
        func fail(_ reason: String) -> StorePriceError {
            .invalidTemplate(name: "", source: source, locale: nil, argument: nil, reason: reason)
        }
        if let problem = JSONText.problem(in: bytes) { throw fail(problem) }
        let text = String(decoding: bytes, as: UTF8.self)
        guard Array(text.utf8) == bytes else { throw fail("not valid UTF-8") }
        // The languages, alone or in an envelope with a note and a source, as Data/ keeps them.
        struct Envelope: Decodable {
            var note: String?
            var source: String?
            var templates: [String: [String: String]]
        }
        let languages: [String: [String: String]]
        if let plain = try? JSONDecoder().decode([String: [String: String]].self, from: Data(bytes)) {
            languages = plain
        } else if let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(bytes)) {
            languages = envelope.templates
        } else {
            throw fail(#"expected a JSON object of languages, each an object of template names and patterns: {"en": {"headline": "…"}}"#)
        }
        if let repeated = JSONDuplicateKeys.firstRepeatedKey(in: text) {
            throw fail(JSONDuplicateKeys.reason(naming: repeated))
        }
        try self.init(languages, source: source)
    }

    /// StorePrice's built-in templates.
    public static let builtIn: PaywallTemplates = {
        let file = try? PaywallTemplates(json: Array(EmbeddedData.paywallTemplates.utf8), source: "built-in")
        return file ?? PaywallTemplates(checked: [:], source: "built-in")
    }()

    private init(checked languages: [String: [String: String]], source: String) {
        self.source = source
        self.languages = languages
        self.normalizedTags = Dictionary(languages.keys.map { (Self.normalized($0), $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The names of the built-in lines made only of CLDR data, which exist in every store language.
    public static let cldrTemplateNames = ["period", "price_per_period", "billed_amount_first", "savings"]

    /// Every template name these templates have, in any language.
    public var names: [String] { Set(languages.values.flatMap(\.keys)).sorted() }

    /// The language tag whose templates a price locale uses, if any.
    public func languageTag(for locale: PriceLocale) -> String? {
        Self.candidateTags(for: locale).lazy.compactMap { normalizedTags[$0] }.first
    }

    /// The tags a locale's templates may be under, most specific first, normalized: `zh-hant-tw`,
    /// `zh-hant`, `zh-tw`, `zh`; worked out once per locale, since the likely script is ICU's.
    private static func candidateTags(for locale: PriceLocale) -> [String] {
        candidates.value(for: locale.languageIdentifier) {
            let script = locale.scriptOrLikely
            var tags: [String] = []
            if let script, let region = locale.region { tags.append("\(locale.language)-\(script)-\(region)") }
            if let script { tags.append("\(locale.language)-\(script)") }
            if let region = locale.region { tags.append("\(locale.language)-\(region)") }
            tags.append(locale.language)
            return tags.map(normalized)
        }
    }

    private static let candidates = BoundedCache<String, [String]>(limit: FormatterCache.limit)

    /// The template of a name for a paywall: these templates' own in its store language, else
    /// StorePrice's built-in one.
    ///
    /// - Throws: ``StorePriceError/invalidTemplate(name:source:locale:argument:reason:)`` when
    ///   neither has it.
    public func template(named name: String, for paywall: Paywall) throws(StorePriceError) -> PaywallTemplate {
        if let tag = languageTag(for: paywall.locale), let pattern = languages[tag]?[name] {
            return PaywallTemplate(pattern, name: name, source: source)
        }
        let builtIn = Self.builtIn
        if let tag = builtIn.languageTag(for: paywall.locale), let pattern = builtIn.languages[tag]?[name] {
            return PaywallTemplate(pattern, name: name, source: builtIn.source)
        }
        if let pattern = try Self.cldrPattern(named: name, for: paywall) {
            return PaywallTemplate(pattern, name: name, source: builtIn.source)
        }
        var known = Set(names + builtIn.names + Self.cldrTemplateNames).sorted()
        known.removeAll { $0 == name }
        let elsewhere = languages.filter { $0.value[name] != nil }.keys.sorted()
        guard !languages.isEmpty || source == builtIn.source else {
            throw .invalidTemplate(
                name: name, source: source, locale: paywall.locale.languageIdentifier, argument: nil,
                reason: "the file has no languages")
        }
        if elsewhere.isEmpty, let argument = PaywallArgument(rawValue: name) {
            // An argument asked for as a line: say where its value is.
            let value = paywall.values[argument].map { "'\($0.text.escapedForMessage)' here" } ?? "none here: \(paywall.missing[argument] ?? "missing")"
            throw .invalidTemplate(
                name: name, source: source, locale: paywall.locale.languageIdentifier, argument: nil,
                reason: "no such template; \(name) is an argument, whose value (\(value)) is among the paywall's values; "
                    + "a template shows it as {\(name)}")
        }
        let reason = elsewhere.isEmpty
            ? "no such template; there are \(known.joined(separator: ", "))"
            : "none for this language; '\(source.escapedPathForMessage)' has it in \(elsewhere.joined(separator: ", "))"
        throw .invalidTemplate(name: name, source: source, locale: paywall.locale.languageIdentifier, argument: nil, reason: reason)
    }

    /// A built-in line made only of CLDR data, composed with the language's own pattern.
    private static func cldrPattern(named name: String, for paywall: Paywall) throws(StorePriceError) -> String? {
        switch name {
        case "period", "price_per_period", "savings":
            return "{\(name)}"
        case "billed_amount_first":
            // CLDR's pattern for a name and what qualifies it, `{0} ({1})`, `{0}（{1}）`: the billed
            // amount first, then the same price per a shorter unit.
            guard let pattern = Self.qualifierPatterns.value(for: paywall.locale.languageIdentifier, make: {
                ICU.langString(locale: paywall.locale.languageIdentifier, table: "localeDisplayPattern", field: "pattern")
            }) else {
                throw .icuFailure(code: "U_MISSING_RESOURCE_ERROR", operation: "find CLDR's '{0} ({1})' pattern for \(paywall.locale)")
            }
            // A price billed every day is restated as nothing shorter.
            guard let secondary = billedAmountFirstRestatement(for: paywall.plan.period) else { return "{price_per_period}" }
            return MessageText.quoted(pattern)
                .replacingFirst("{0}", with: "{price_per_period}")
                .replacingFirst("{1}", with: "{\(secondary.name)}")
        default:
            return nil
        }
    }

    /// The price a period's `billed_amount_first` line restates it as: per month for a year or
    /// several months, per week for a month or several weeks, per day for a week or several
    /// days; nil for a day.
    static func billedAmountFirstRestatement(for period: SubscriptionPeriod) -> PaywallArgument? {
        switch period.unit {
        case .year: .pricePerMonth
        case .month: period.value > 1 ? .pricePerMonth : .pricePerWeek
        case .week: period.value > 1 ? .pricePerWeek : .pricePerDay
        case .day: period.value > 1 ? .pricePerDay : nil
        }
    }

    /// CLDR's `{0} ({1})` pattern per language, read from ICU's resource bundles once.
    private static let qualifierPatterns = BoundedCache<String, String?>(limit: FormatterCache.limit)

    private static func normalized(_ tag: String) -> String {
        String(tag.map { $0 == "_" ? "-" : $0 }).lowercased()
    }

    /// The language subtag of a tag ICU knows: `pt` for `pt-PT`.
    private static func languageSubtag(of tag: String) -> String? {
        let parts = normalized(tag).split(separator: "-")
        guard let language = parts.first, (2...3).contains(language.count),
            ICU.availableLanguages.contains(String(language))
        else { return nil }
        return String(language)
    }
}

/// MessageFormat's quoting of literal text.
enum MessageText {
    /// Literal text quoted for a pattern, its `{0}` and `{1}` placeholders left as they are: an
    /// apostrophe is doubled, and braces elsewhere are quoted.
    static func quoted(_ literal: String) -> String {
        var result = ""
        var rest = Substring(literal)
        while let first = rest.first {
            if rest.hasPrefix("{0}") || rest.hasPrefix("{1}") {
                result += rest.prefix(3)
                rest = rest.dropFirst(3)
                continue
            }
            switch first {
            case "'": result += "''"
            case "{", "}", "#", "|": result += "'\(first)'"
            default: result.append(first)
            }
            rest = rest.dropFirst()
        }
        return result
    }
}
