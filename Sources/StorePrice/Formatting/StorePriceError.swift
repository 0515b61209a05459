/// An error from StorePrice: a bad value, named in the message, and why it was refused.
///
/// Every case describes itself in one line that quotes the offending value:
///
/// ```swift
/// do {
///     _ = try PriceLocale("xx_YY")
/// } catch {
///     print(error)  // unsupported locale 'xx_YY': ICU has no locale data for language 'xx'
/// }
/// ```
public enum StorePriceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Text that is not an exact decimal amount, such as `1,99`, `1e3` or `NaN`.
    case invalidAmount(String, reason: String)
    /// A code that ICU does not know as an ISO 4217 currency, such as `ZZZ`.
    case unknownCurrency(String, reason: String? = nil)
    /// A locale identifier that ICU has no data for, such as `xx_YY` or `en_QQ`.
    case unsupportedLocale(String, reason: String)
    /// A price in one currency asked to be shown in a price locale of another; StorePrice never converts.
    case currencyMismatch(price: Price, locale: PriceLocale)
    /// An amount with more fraction digits than its currency uses, under the `reject` rounding rule.
    case excessPrecision(amount: String, currency: CurrencyCode, fractionDigits: Int)
    /// ICU failed; `code` is ICU's symbolic error name.
    case icuFailure(code: String, operation: String)
    /// A storefront code that is no App Store storefront's numeric ID, alpha-2 or alpha-3 code.
    case unknownStorefront(String, suggestions: [String])
    /// A Google Play region code that names no Play billing region, with the closest codes.
    case unknownPlayRegion(String, suggestions: [String])
    /// An accounts file, or one entry of it, that cannot be used; `entry` counts from 1.
    case invalidAccounts(source: String, entry: Int?, name: String?, reason: String)
    /// A test account name that the accounts file does not have.
    case unknownAccount(String, source: String, suggestions: [String])
    /// A UI label template that cannot take a price.
    case invalidLabel(String, reason: String)
    /// A file that could not be read.
    case unreadableFile(path: String, reason: String)
    /// A file that could not be written; nothing was left at its path.
    case unwritableFile(path: String, reason: String)
    /// A catalog, or a line or field of it, that cannot be used; `line` counts from 1.
    case invalidCatalog(source: String, line: Int?, field: String?, reason: String)
    /// A product-ID list that cannot be used.
    case invalidProductList(source: String, reason: String)
    /// Text that is not a store subscription period, such as `P1Y2M` or `1 month`.
    case invalidPeriod(String, reason: String)
    /// A subscription offer that cannot be shown, such as a free trial with a price.
    case invalidOffer(String, reason: String)
    /// An offer wording file (`--offer-wording`) that cannot be used; `source` is its path.
    case invalidOfferWording(source: String, reason: String)
    /// A paywall template that cannot be rendered: one that does not parse, uses an unknown
    /// argument, lacks a plural case its language needs, or needs a value the subscription lacks.
    /// `source` is the file it came from (or `built-in`); `locale` the store language it was
    /// rendered or checked for.
    case invalidTemplate(name: String, source: String, locale: String?, argument: String?, reason: String)
    /// A price snapshot file, or a line of it, that cannot be used; `line` counts from 1.
    case invalidSnapshot(source: String, line: Int?, reason: String)
    /// A catalog product whose paywall cannot be made where it was asked for: one that is no
    /// subscription, or a product to compare it with that has no price there.
    case invalidPaywall(productID: String, reason: String)
    /// Products that the catalog lacks or that have no price in a requested storefront, under
    /// strict rendering.
    case invalidProducts([InvalidProduct])

    /// The one-line message, naming the bad value and where it came from.
    public var description: String {
        // Values quoted inside reasons are escaped where they are quoted; this makes sure that
        // nothing, whatever the input, splits a message over lines.
        message.escapingLineBreaksAndControls
    }

    private var message: String {
        switch self {
        case .invalidAmount(let text, let reason):
            return "invalid amount '\(text.escapedForMessage)': \(reason)"
        case .unknownCurrency(let code, let reason):
            let base = "unknown currency '\(code.escapedForMessage)'"
            return reason.map { "\(base): \($0)" } ?? base
        case .unsupportedLocale(let identifier, let reason):
            return "unsupported locale '\(identifier.escapedForMessage)': \(reason)"
        case .currencyMismatch(let price, let locale):
            return "price \(price) is in \(price.currency), but price locale '\(locale.identifier.escapedForMessage)' "
                + "shows \(locale.currency); StorePrice never converts currencies"
        case .excessPrecision(let amount, let currency, let digits):
            let shown = currency.fractionDigits == 0
                ? "are whole amounts" : "show \(currency.fractionDigits) fraction digit\(currency.fractionDigits == 1 ? "" : "s")"
            return "'\(amount.escapedForMessage)' needs \(digits) fraction digit\(digits == 1 ? "" : "s"); "
                + "\(currency) prices \(shown); give a rounding, such as half-even, to round it"
        case .icuFailure(let code, let operation):
            return "ICU failed to \(operation): \(code)"
        case .unknownStorefront(let code, let suggestions):
            let base = "unknown storefront '\(code.escapedForMessage)'"
            guard !suggestions.isEmpty else {
                return base + "; use a numeric ID (143462), an alpha-3 (JPN) or an alpha-2 (JP) code"
            }
            return base + "; did you mean \(suggestions.joined(separator: ", "))?"
        case .unknownPlayRegion(let code, let suggestions):
            let base = "unknown Google Play region '\(code.escapedForMessage)'"
            guard !suggestions.isEmpty else {
                return base + "; Play names regions by ISO 3166 alpha-2 code, such as RU ('storeprice storefronts --store play' lists them)"
            }
            return base + "; did you mean \(suggestions.joined(separator: ", "))?"
        case .invalidAccounts(let source, let entry, let name, let reason):
            var place = "accounts file '\(source.escapedPathForMessage)'"
            if let entry { place += ", entry \(entry)" }
            if let name { place += " ('\(name.escapedForMessage)')" }
            return "\(place): \(reason)"
        case .unknownAccount(let name, let source, let suggestions):
            let base = "no test account named '\(name.escapedForMessage)' in '\(source.escapedPathForMessage)'"
            return suggestions.isEmpty ? base : base + "; did you mean \(suggestions.joined(separator: ", "))?"
        case .invalidLabel(let template, let reason):
            return "label '\(template.escapedForMessage)' \(reason)"
        case .unreadableFile(let path, let reason):
            return "cannot read '\(path.escapedPathForMessage)': \(reason)"
        case .unwritableFile(let path, let reason):
            return "cannot write '\(path.escapedPathForMessage)': \(reason)"
        case .invalidCatalog(let source, let line, let field, let reason):
            var place = "catalog '\(source.escapedPathForMessage)'"
            if let line { place += ", line \(line)" }
            if let field { place += ", field '\(field.escapedPathForMessage)'" }
            return "\(place): \(reason)"
        case .invalidProductList(let source, let reason):
            return "product list '\(source.escapedPathForMessage)': \(reason)"
        case .invalidPeriod(let text, let reason):
            return "invalid period '\(text.escapedForMessage)': \(reason)"
        case .invalidOffer(let text, let reason):
            return "invalid offer '\(text.escapedForMessage)': \(reason)"
        case .invalidOfferWording(let source, let reason):
            return "offer wording '\(source.escapedPathForMessage)': \(reason)"
        case .invalidTemplate(let name, let source, let locale, let argument, let reason):
            var place = name.isEmpty ? "templates" : "template '\(name.escapedForMessage)'"
            if source == "built-in" {
                place = "built-in " + place
            } else if source != name {
                place += " in '\(source.escapedPathForMessage)'"
            }
            if let locale { place += " (\(locale.escapedForMessage))" }
            if let argument { place += ", argument '\(argument.escapedForMessage)'" }
            return "\(place): \(reason)"
        case .invalidSnapshot(let source, let line, let reason):
            return "snapshot '\(source.escapedPathForMessage)'" + (line.map { ", line \($0)" } ?? "") + ": \(reason)"
        case .invalidPaywall(let productID, let reason):
            return "paywall of '\(productID.escapedForMessage)': \(reason)"
        case .invalidProducts(let products):
            let shown = products.prefix(5).map(\.description).joined(separator: "; ")
            let more = products.count > 5 ? "; and \(products.count - 5) more" : ""
            return "\(products.count) invalid product\(products.count == 1 ? "" : "s"): \(shown)\(more)"
        }
    }
}

extension String {
    /// The string with control characters and line or paragraph separators written as `\u{XXXX}`.
    var escapingLineBreaksAndControls: String {
        escaping { scalar in
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: return true
            default: return false
            }
        }
    }

    /// The string with each scalar that `isHidden` picks written as `\u{XXXX}`.
    private func escaping(where isHidden: (Unicode.Scalar) -> Bool) -> String {
        guard unicodeScalars.contains(where: isHidden) else { return self }
        var out = ""
        for scalar in unicodeScalars {
            if isHidden(scalar) { out += scalar.escapedLiteral } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// The string with control and invisible characters written as `\u{XXXX}`, and at most
    /// 64 characters of it, so that an error message stays one readable line.
    package var escapedForMessage: String {
        let scalars = Array(unicodeScalars.prefix(65))
        guard scalars.count > 64 else { return Self.escapedForMessage(scalars[...]) }
        return Self.escapedForMessage(scalars[..<64]) + "…"
    }

    /// A file path written for a message: escaped like ``escapedForMessage``, and whole, as the
    /// user typed it or a file named it. Only a path beyond any real length (over 1,024 bytes) is
    /// cut, in its middle: its last component, the file's own name, is kept whole up to 256 bytes.
    package var escapedPathForMessage: String {
        let scalars = Array(unicodeScalars)
        guard utf8.count > 1024 else { return Self.escapedForMessage(scalars[...]) }
        let lastSlash = scalars.lastIndex(of: "/").map { $0 + 1 } ?? 0
        let name = scalars[lastSlash...]
        let keptName = name.count > 256 ? Self.escapedForMessage(name.prefix(255)) + "…" : Self.escapedForMessage(name)
        return Self.escapedForMessage(scalars[..<min(lastSlash, 64)]) + "…/" + keptName
    }

    /// The string for a report people and CI systems read (HTML, JUnit XML): every control,
    /// format (bidi and zero-width), line or paragraph separator and noncharacter written
    /// `\u{XXXX}`, whole. XML 1.0 cannot hold some of them at all, and a bidi override would
    /// reorder what a reader sees (`com.ex.bidi\u{202E}gnp.exe` shows as `com.ex.bidiexe.png`).
    package var escapedForReport: String { escaping(where: Self.isHiddenInReport) }

    /// A product ID or account name for a report: as ``escapedForReport``, and its backslashes
    /// escaped too, so that an ID holding the text `\u{0001}` and one holding U+0001 read apart.
    package var escapedIDForReport: String { escaping { $0 == "\\" || Self.isHiddenInReport($0) } }

    /// A formatted price for a report's cell, shown as customers see it: bidi marks (U+200E,
    /// U+200F, U+061C), which ICU writes in right-to-left prices, and combining marks are kept,
    /// and every other character that ``escapedForReport`` escapes is escaped.
    package var escapedForReportKeepingMarks: String {
        escaping { scalar in
            let category = scalar.properties.generalCategory
            let shown = scalar == "\u{200E}" || scalar == "\u{200F}" || scalar == "\u{061C}"
                || category == .nonspacingMark || category == .enclosingMark
            return !shown && Self.isHiddenInReport(scalar)
        }
    }

    /// A character a report escapes: a control, format (bidi and zero-width), separator,
    /// noncharacter, private-use, unassigned or combining character.
    private static func isHiddenInReport(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value >= 0x20, scalar.value < 0x7F { return false }
        if scalar.properties.isNoncharacterCodePoint { return true }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse,
            .nonspacingMark, .enclosingMark:
            return true
        default: return false
        }
    }

    private static func escapedForMessage(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var out = ""
        for scalar in scalars {
            // Printable ASCII is written as it is, without a lookup in the Unicode tables.
            if scalar.value >= 0x20, scalar.value < 0x7F {
                out.unicodeScalars.append(scalar)
                continue
            }
            let category = scalar.properties.generalCategory
            // Combining marks too: `com.example.é` written with U+0301 must not look like the
            // precomposed one in a message that tells them apart.
            if category == .control || category == .format || category == .spaceSeparator
                || category == .lineSeparator || category == .paragraphSeparator
                || category == .nonspacingMark || category == .enclosingMark
            {
                out += scalar.escapedLiteral
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension Unicode.Scalar {
    /// The scalar as a Swift escape, `\u{00A0}`: upper-case hex, at least four digits.
    var escapedLiteral: String {
        let hex = String(value, radix: 16, uppercase: true)
        return "\\u{" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "}"
    }
}
