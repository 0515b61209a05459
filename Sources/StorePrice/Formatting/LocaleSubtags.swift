import ICUNumberFormat

/// The language, script and region of a locale identifier, checked against ICU's data.
///
/// Shared by ``PriceLocale`` (which adds a currency) and device locales (which have none).
struct LocaleSubtags: Hashable, Sendable {
    var language: String
    var script: String?
    var region: String?

    /// `language[_Script][_REGION]`, such as `zh_Hant_TW`.
    var identifier: String {
        var id = language
        if let script { id += "_" + script }
        if let region { id += "_" + region }
        return id
    }

    /// Subtags already checked, such as those of a ``PriceLocale``.
    init(unchecked language: String, script: String?, region: String?) {
        self.language = language
        self.script = script
        self.region = region
    }

    /// Language codes replaced by their current ones: `iw` is Hebrew, `he`.
    static let replacedLanguages = ["in": "id", "iw": "he", "ji": "yi", "jw": "jv", "mo": "ro", "no": "nb"]

    /// `language[_Script][_REGION]` from unchecked parts, for quoting in errors.
    static func unchecked(_ language: String, _ script: String?, _ region: String?) -> String {
        LocaleSubtags(unchecked: language, script: script, region: region).identifier
    }

    /// Checks and normalizes subtags: lower-case language, title-case script, upper-case region.
    ///
    /// - Parameter source: the text the subtags came from, quoted in errors.
    init(language: String, script: String?, region: String?, source: String) throws(StorePriceError) {
        var language = language.asciiLowercased()
        // Withdrawn codes, replaced as ICU replaces them (uloc_canonicalize's deprecated languages:
        // in, iw, ji, jw, mo), and Norwegian's macrolanguage code by Bokmål, which ICU's data for
        // `no` is an alias of and the App Store's Norwegian is.
        language = Self.replacedLanguages[language] ?? language
        guard (2...3).contains(language.utf8.count), language.utf8.allSatisfy(\.isASCIILetter) else {
            throw .unsupportedLocale(source, reason: "'\(language.escapedForMessage)' is not an ISO 639 language code")
        }
        guard ICU.availableLanguages.contains(language) else {
            throw .unsupportedLocale(source, reason: "ICU has no locale data for language '\(language.escapedForMessage)'")
        }
        if let script {
            guard script.utf8.count == 4, script.utf8.allSatisfy(\.isASCIILetter) else {
                throw .unsupportedLocale(source, reason: "'\(script.escapedForMessage)' is not an ISO 15924 script code")
            }
            let titled = script.asciiTitlecased()
            guard ICU.availableLanguages.contains("\(language)_\(titled)") else {
                throw .unsupportedLocale(
                    source, reason: "ICU has no locale data for language '\(language.escapedForMessage)' in script '\(titled.escapedForMessage)'")
            }
            self.script = titled
        }
        if let region {
            let upper = region.asciiUppercased()
            let wellFormed = (upper.utf8.count == 2 && upper.utf8.allSatisfy(\.isASCIILetter))
                || (upper.utf8.count == 3 && upper.utf8.allSatisfy(\.isASCIIDigit))
            guard wellFormed, ICU.isKnownRegion(upper) else {
                throw .unsupportedLocale(source, reason: "ICU does not know region '\(region.escapedForMessage)'")
            }
            self.region = upper
        }
        self.language = language
    }

    /// Parses `language[_Script][_REGION]`, or the same with `-` separators.
    init(parsing base: String, source: String) throws(StorePriceError) {
        let subtags = base.split(omittingEmptySubsequences: false) { $0 == "_" || $0 == "-" }.map(String.init)
        guard let language = subtags.first, !language.isEmpty else {
            throw .unsupportedLocale(source, reason: "no language, such as 'ja' in ja_JP@currency=JPY")
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
                source, reason: "variants such as '\(rest.joined(separator: "_").escapedForMessage)' are not accepted")
        }
        try self.init(language: language, script: script, region: region, source: source)
    }

    /// Whether ICU writes this language right to left.
    var isRightToLeft: Bool { ICU.isRightToLeft(locale: identifier) }
}

extension LocaleSubtags {
    /// Whether two language tags (`en-GB`, `zh_Hant`, `fr`) name the same language: the same
    /// language subtag, and the same script where both name one (zh-Hant is not zh-Hans; `zh`
    /// says nothing of its script). Regions do not count: a store language's region is the
    /// storefront's.
    static func sameLanguage(_ a: String, _ b: String) -> Bool {
        func parts(_ tag: String) -> (language: String, script: String?) {
            let subtags = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.lowercased() }
            let language = subtags.first ?? ""
            return (replacedLanguages[language] ?? language, subtags.dropFirst().first { $0.count == 4 })
        }
        let (x, y) = (parts(a), parts(b))
        return x.language == y.language && (x.script == nil || y.script == nil || x.script == y.script)
    }
}

