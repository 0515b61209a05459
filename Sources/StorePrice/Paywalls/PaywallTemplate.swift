import ICUNumberFormat

/// A paywall line in ICU MessageFormat, the syntax translation tools already know: named
/// arguments, and `plural` and `select` with CLDR's rules for the store language.
///
/// ```swift
/// let template = PaywallTemplate("{offer_duration} free, then {price_per_period}", name: "trial")
/// let paywall = try Paywall(
///     price: Price("59.99", currency: CurrencyCode("USD")), period: SubscriptionPeriod("P1Y"),
///     offer: .freeTrial(SubscriptionPeriod("P1W")), locale: Storefront("USA").priceLocale)
/// try paywall.render(template)   // "1 week free, then $59.99 per year"
/// ```
///
/// ICU's own MessageFormat formats it; StorePrice supplies the ``PaywallArgument`` values. A
/// template that does not parse, uses an argument StorePrice does not supply, uses a text
/// argument where a number is needed, or has a `plural` without a case the language needs is an
/// error naming the template and the argument: ``problems(in:)`` lists them all.
public struct PaywallTemplate: Hashable, Sendable {
    /// The template's name, such as `trial_line`.
    public let name: String
    /// The MessageFormat pattern.
    public let pattern: String
    /// Where the template came from: a file's path, `built-in`, or `--template`.
    public let source: String

    /// A template with a name and the place it came from, for messages.
    public init(_ pattern: String, name: String = "template", source: String = "template") {
        self.pattern = pattern
        self.name = name
        self.source = source
    }

    /// Every problem the template has in a price locale's language, empty when it renders:
    /// a syntax error, a pattern too long or nested too deep, an unknown argument, a text
    /// argument used as a number or a number in a style StorePrice does not format, a `plural`
    /// that lacks a case the language needs, a printf placeholder such as `%d`, a `%` beside
    /// `{savings}`.
    public func problems(in locale: PriceLocale) -> [StorePriceError] {
        Self.checked.value(for: CheckKey(template: self, locale: locale.identifier)) { findProblems(in: locale) }
    }

    private struct CheckKey: Hashable, Sendable {
        var template: PaywallTemplate
        var locale: String
    }

    /// Each template's problems per locale, found once in the process.
    private static let checked = BoundedCache<CheckKey, [StorePriceError]>(limit: FormatterCache.limit)

    private func findProblems(in locale: PriceLocale) -> [StorePriceError] {
        // Nothing to show is no template: a line that renders empty hides a missing translation.
        guard pattern.contains(where: { !$0.isWhitespace }) else {
            return [fail(in: locale, argument: nil, "is empty; a template writes a line, such as '{offer}, then {price_per_period}'")]
        }
        let message: ICUMessageFormat
        do {
            message = try compiled(for: locale)
        } catch {
            return [error]
        }
        var problems: [StorePriceError] = []
        var seen: Set<String> = []
        for argument in message.arguments where seen.insert("\(argument.name)|\(argument.kind)|\(argument.style)|\(argument.selectors)").inserted {
            if let problem = problem(with: argument, in: locale) { problems.append(problem) }
        }
        for argument in message.arguments where [.plural, .selectOrdinal, .select].contains(argument.kind) {
            var cases: Set<String> = []
            if let twice = argument.selectors.first(where: { !cases.insert($0).inserted }) {
                let kind = argument.kind == .select ? "select" : argument.kind == .plural ? "plural" : "selectordinal"
                problems.append(
                    fail(
                        in: locale, argument: argument.name,
                        "\(kind) has the case '\(twice.escapedForMessage)' twice; ICU always chooses the first, so the second is never shown"))
            }
        }
        if let quoted = Self.quotingApostrophe(in: pattern) {
            problems.append(
                fail(
                    in: locale, argument: quoted.argument,
                    "an apostrophe before '\(quoted.brace)' starts ICU's quoted text, so '\(quoted.text.escapedForMessage)' is written "
                        + "as it is; write ’ (U+2019) or '' for an apostrophe"))
        }
        if let control = Self.controlCharacter(in: pattern) {
            problems.append(
                fail(
                    in: locale, argument: nil,
                    "has \(control.escapedLiteral), which would break the line or act on a terminal; a paywall line is one line of text"))
        }
        if Self.hasPercentSign(beside: PaywallArgument.savings.name, in: pattern) {
            problems.append(
                fail(
                    in: locale, argument: PaywallArgument.savings.name,
                    "already has the language's percent sign (76 %, %76); remove the '%' beside it"))
        }
        if Self.hasPercentSign(beside: PaywallArgument.savingsPercent.name, in: pattern) {
            problems.append(
                fail(
                    in: locale, argument: PaywallArgument.savingsPercent.name,
                    "is a bare number, and a '%' beside it is not every language's percent (Turkish writes %76, French 76 %); "
                        + "use {savings}"))
        }
        for argument in message.arguments {
            guard let known = PaywallArgument(rawValue: argument.name), let keys = known.selectKeys else { continue }
            switch argument.kind {
            case .none:
                // Its value is a key for select, not words for a person.
                problems.append(
                    fail(
                        in: locale, argument: argument.name,
                        "is a key for select (\(keys.joined(separator: ", "))), not text to show; choose the words with "
                            + "{\(argument.name), select, \(keys[1]) {…} other {…}}"))
            case .select:
                if let unknown = argument.selectors.first(where: { $0 != "other" && !keys.contains($0) }) {
                    let near = closestMatches(to: unknown, in: keys).first.map { "; did you mean '\($0)'?" } ?? ""
                    problems.append(
                        fail(
                            in: locale, argument: argument.name,
                            "select has the case '\(unknown.escapedForMessage)', which it never is; its keys are "
                                + "\(keys.joined(separator: ", "))\(near)"))
                }
            default:
                break
            }
        }
        if let percent = Self.percentAcrossBranches(in: pattern) {
            problems.append(
                fail(
                    in: locale, argument: percent,
                    "a '%' beside a plural or select that writes \(percent == PaywallArgument.savings.name ? "{savings}" : "the bare number") "
                        + "at its edge stands beside the number whichever case is chosen; "
                        + (percent == PaywallArgument.savings.name ? "{savings} has the language's percent sign already" : "use {savings}")))
        }
        if let isolate = Self.unpairedIsolate(in: pattern) {
            problems.append(
                fail(
                    in: locale, argument: nil,
                    "has \(isolate) without its pair; a bidi isolate (U+2066, U+2067, U+2068) is closed by U+2069, or it "
                        + "reorders the rest of the line"))
        }
        if let placeholder = Self.printfPlaceholder(in: pattern) {
            problems.append(
                fail(
                    in: locale, argument: nil,
                    "'\(placeholder)' is a printf placeholder, which MessageFormat writes as it is; "
                        + "use a named argument such as {period_count}"))
        }
        return problems
    }

    // MARK: Rendering

    /// The template with `values` (missing ones have the reason they are missing), each text value
    /// isolated (U+2068…U+2069) when its direction is not the template's.
    func render(
        values: [PaywallArgument: PaywallValue], missing: [PaywallArgument: String], in locale: PriceLocale
    ) throws(StorePriceError) -> String {
        if let problem = problems(in: locale).first { throw problem }
        let message = try compiled(for: locale)
        let used = Set(message.arguments.compactMap { PaywallArgument(rawValue: $0.name) })
        var arguments: [String: PaywallValue] = [:]
        for argument in used {
            // A missing value is marked, and is an error only if the branch that uses it is chosen.
            arguments[argument.name] = values[argument] ?? .text(Self.missingMark(argument))
        }
        let absent = used.filter { values[$0] == nil }.sorted { $0.rawValue < $1.rawValue }
        // An argument that chooses a branch decides what is written: without it, nothing is.
        if let chooser = message.arguments.first(where: { $0.kind == .select && absent.map(\.name).contains($0.name) }) {
            let argument = PaywallArgument(rawValue: chooser.name)
            throw fail(in: locale, argument: chooser.name, "has no value: \(argument.flatMap { missing[$0] } ?? "not supplied")")
        }
        let text: String
        do {
            text = try MessagePatterns.format(message, arguments, rightToLeft: locale.isRightToLeft)
        } catch {
            // A number with no value fails where plural needs it.
            if let number = absent.first(where: \.isNumber) {
                throw fail(in: locale, argument: number.name, "has no value: \(missing[number] ?? "not supplied")")
            }
            throw .icuFailure(code: error.name, operation: "format template '\(name.escapedForMessage)' in \(locale)")
        }
        if let shown = absent.first(where: { text.contains(Self.missingMark($0)) }) {
            throw fail(in: locale, argument: shown.name, "has no value: \(missing[shown] ?? "not supplied")")
        }
        return text
    }

    private static func missingMark(_ argument: PaywallArgument) -> String {
        "\u{E000}\(argument.rawValue)\u{E001}"
    }

    // MARK: Checks

    private func problem(with argument: ICUMessageFormat.Argument, in locale: PriceLocale) -> StorePriceError? {
        guard let known = PaywallArgument(rawValue: argument.name) else {
            let names = PaywallArgument.allCases.map(\.name)
            let closest = closestMatches(to: argument.name, in: names).first
            let hint: String
            if let closest {
                hint = "did you mean '\(closest)'?"
            } else if argument.name.allSatisfy(\.isNumber) {
                hint = "arguments have names, such as {price}; 'storeprice paywall --help' lists them"
            } else {
                hint = "StorePrice supplies \(names.prefix(6).joined(separator: ", ")), …; 'storeprice paywall --help' lists them"
            }
            return fail(in: locale, argument: argument.name, "unknown; \(hint)")
        }
        switch argument.kind {
        case .none, .select:
            return nil
        case .choice:
            return fail(in: locale, argument: argument.name, "choice is ICU's deprecated format; use plural")
        case .simple(let type):
            if type == "number", known.isNumber {
                let style = argument.style.trimmingASCIIWhitespace()
                guard style.isEmpty || style == "integer" else {
                    return fail(
                        in: locale, argument: argument.name,
                        "'\(style.escapedForMessage)' is not a style for it; write {\(argument.name)} or "
                            + "{\(argument.name), number}\(known == .savingsPercent ? ", or {savings} for the language's percent" : "")")
                }
                return nil
            }
            if type == "date" || type == "time" {
                return fail(in: locale, argument: argument.name, "is text already formatted; write {\(argument.name)}")
            }
            return fail(
                in: locale, argument: argument.name,
                known.isNumber
                    ? "'\(type.escapedForMessage)' is not a format for it; write {\(argument.name)} or {\(argument.name), number}"
                    : "is text already formatted; write {\(argument.name)}")
        case .plural, .selectOrdinal:
            guard known.isNumber else {
                let numbers = PaywallArgument.allCases.filter(\.isNumber).map(\.name).joined(separator: ", ")
                return fail(in: locale, argument: argument.name, "is text; plural needs a number: \(numbers)")
            }
            return missingPluralCase(argument, known, ordinal: argument.kind == .selectOrdinal, in: locale)
        }
    }

    /// The plural categories the language gives some value of the argument that neither a
    /// keyword nor an explicit `=n` case covers, all in one error.
    private func missingPluralCase(
        _ argument: ICUMessageFormat.Argument, _ known: PaywallArgument, ordinal: Bool, in locale: PriceLocale
    ) -> StorePriceError? {
        let categories: [String]
        do {
            categories = try PluralCategories.of(locale.identifier, ordinal: ordinal)
        } catch {
            return fail(in: locale, argument: argument.name, "ICU has no plural rules here: \(error.name)")
        }
        let selectors = Set(argument.selectors)
        var missing: [String: [Int]] = [:]
        for n in known.possibleValues where n < categories.count {
            let category = categories[n]
            if selectors.contains(category) || selectors.contains("=\(n)") { continue }
            missing[category, default: []].append(n)
        }
        let order = ["zero", "one", "two", "few", "many", "other"]
        let absent = order.filter { missing[$0] != nil }
        func examples(_ category: String) -> String {
            let values = missing[category] ?? []
            return values.prefix(3).map(String.init).joined(separator: ", ") + (values.count > 3 ? ", …" : "")
        }
        let kind = ordinal ? "selectordinal" : "plural"
        guard let first = absent.first else { return nil }
        guard absent.count > 1 else {
            return fail(
                in: locale, argument: argument.name,
                "\(kind) has no '\(first)' case, which '\(locale.language)' needs for \(examples(first))")
        }
        // Every case at once, so that one check shows the whole fix.
        let cases = absent.map { "'\($0)' (\(examples($0)))" }
        return fail(
            in: locale, argument: argument.name,
            "\(kind) has no \(cases.dropLast().joined(separator: ", ")) or \(cases.last ?? "") case, "
                + "which '\(locale.language)' needs")
    }

    private func fail(in locale: PriceLocale, argument: String?, _ reason: String) -> StorePriceError {
        .invalidTemplate(name: name, source: source, locale: locale.languageIdentifier, argument: argument, reason: reason)
    }

    /// Whether a `%` is written next to the argument `name` (spaces allowed, as ICU allows them
    /// around a name, and a format after a comma): `{savings}%`, `% { savings }`,
    /// `{savings_percent, number}%`.
    static func hasPercentSign(beside name: String, in pattern: String) -> Bool {
        // Spaces, joiners and marks a translator may put between a number and its sign.
        let spaces: Set<Character> = [
            " ", "\t", "\u{00A0}", "\u{202F}", "\u{2009}", "\u{200A}", "\u{2002}", "\u{2003}", "\u{2007}", "\u{2008}",
            "\u{3000}", "\u{200B}", "\u{2060}", "\u{200E}", "\u{200F}", "\u{061C}", "\u{00AD}",
        ]
        // The percent sign and its look-alikes: full-width, small, Arabic, per mille.
        let signs: Set<Character> = ["%", "％", "﹪", "٪", "‰"]
        let characters = Array(pattern)
        // In a plural or selectordinal of the argument, `#` is the number.
        if pattern.contains(where: { $0 == "#" }), let plural = try? Regex("\(name)\\s*,\\s*(plural|selectordinal)"),
            pattern.contains(plural)
        {
            for (index, character) in characters.enumerated() where character == "#" {
                var before = index - 1
                while before >= 0, spaces.contains(characters[before]) { before -= 1 }
                var after = index + 1
                while after < characters.count, spaces.contains(characters[after]) { after += 1 }
                if (before >= 0 && signs.contains(characters[before])) || (after < characters.count && signs.contains(characters[after])) {
                    return true
                }
            }
        }
        let name = Array(name)
        var index = 0
        while index + name.count <= characters.count {
            defer { index += 1 }
            guard Array(characters[index..<(index + name.count)]) == name else { continue }
            var open = index - 1
            while open >= 0, spaces.contains(characters[open]) { open -= 1 }
            var close = index + name.count
            while close < characters.count, spaces.contains(characters[close]) { close += 1 }
            // A format after the name, such as `, number`, up to the argument's brace.
            if close < characters.count, characters[close] == "," {
                while close < characters.count, characters[close] != "}", characters[close] != "{" { close += 1 }
            }
            guard open >= 0, characters[open] == "{", close < characters.count, characters[close] == "}" else { continue }
            var before = open - 1
            while before >= 0, spaces.contains(characters[before]) { before -= 1 }
            var after = close + 1
            while after < characters.count, spaces.contains(characters[after]) { after += 1 }
            if (before >= 0 && signs.contains(characters[before])) || (after < characters.count && signs.contains(characters[after])) {
                return true
            }
        }
        return false
    }

    /// The percent argument (`savings_percent`, or `savings`) written at the edge of a case of a
    /// plural or select that has a percent sign beside it outside:
    /// `{savings_percent, plural, other {#}}%`, `%{offer_type, select, other {{savings}}}`. ICU
    /// writes the case, then the sign: the sign stands beside the number.
    static func percentAcrossBranches(in pattern: String) -> String? {
        let characters = Array(pattern)
        let signs: Set<Character> = ["%", "％", "﹪", "٪", "‰"]
        func skipSpaces(_ index: Int, by step: Int) -> Int {
            var index = index
            while index >= 0, index < characters.count, characters[index].isWhitespace || "\u{00A0}\u{202F}\u{200E}\u{200F}".contains(characters[index]) {
                index += step
            }
            return index
        }
        // The end of the brace group that starts at `open`.
        func close(of open: Int) -> Int? {
            var depth = 0
            var index = open
            while index < characters.count {
                if characters[index] == "{" { depth += 1 }
                if characters[index] == "}" {
                    depth -= 1
                    if depth == 0 { return index }
                }
                index += 1
            }
            return nil
        }
        var open = 0
        while open < characters.count {
            defer { open += 1 }
            guard characters[open] == "{", let end = close(of: open) else { continue }
            let inner = String(characters[(open + 1)..<end])
            let parts = inner.split(separator: ",", maxSplits: 2).map { String($0).trimmingASCIIWhitespace() }
            guard parts.count == 3, ["plural", "select", "selectordinal"].contains(parts[1]) else { continue }
            let before = skipSpaces(open - 1, by: -1)
            let after = skipSpaces(end + 1, by: 1)
            let signBefore = before >= 0 && signs.contains(characters[before])
            let signAfter = after < characters.count && signs.contains(characters[after])
            guard signBefore || signAfter else { continue }
            // Each case's text, between its braces.
            var index = open + 1 + parts[0].count
            while index < end {
                guard characters[index] == "{", let caseEnd = close(of: index), caseEnd <= end else {
                    index += 1
                    continue
                }
                let text = String(characters[(index + 1)..<caseEnd]).trimmingASCIIWhitespace()
                for (name, forms) in [
                    (PaywallArgument.savingsPercent.name, parts[0] == PaywallArgument.savingsPercent.name && parts[1] != "select"
                        ? ["#", "{savings_percent}"] : ["{savings_percent}"]),
                    (PaywallArgument.savings.name, ["{savings}"]),
                ] {
                    let compact = String(text.filter { $0 != " " })
                    if forms.contains(where: { (signAfter && compact.hasSuffix($0)) || (signBefore && compact.hasPrefix($0)) })
                    {
                        return name
                    }
                }
                index = caseEnd + 1
            }
        }
        return nil
    }

    /// The first bidi isolate (U+2066 LRI, U+2067 RLI, U+2068 FSI) not closed by a U+2069 PDI,
    /// or a PDI with none open, as `\u{2068}`.
    static func unpairedIsolate(in pattern: String) -> String? {
        var open: [Unicode.Scalar] = []
        for scalar in pattern.unicodeScalars {
            switch scalar.value {
            case 0x2066...0x2068: open.append(scalar)
            case 0x2069:
                guard open.popLast() != nil else { return scalar.escapedLiteral }
            default: break
            }
        }
        return open.first?.escapedLiteral
    }

    /// An apostrophe that starts ICU's quoted text by mistake, as French and Italian elision
    /// writes one before an argument or a plural's `#` (`l'{offer_duration}`, `l'# mois`): the
    /// quoted text, the syntax character after the apostrophe, and the argument it hides.
    ///
    /// ICU quotes from an apostrophe before `{`, `}` or `#` to the next lone apostrophe. `''` is
    /// an apostrophe, and one quoted character (`'{'`, `'}'`, `'#'`) is written on purpose;
    /// longer quoted text, or a quote never closed, hides what follows.
    static func quotingApostrophe(in pattern: String) -> (text: String, brace: Character, argument: String?)? {
        let characters = Array(pattern)
        var index = 0
        while index + 1 < characters.count {
            guard characters[index] == "'" else {
                index += 1
                continue
            }
            let next = characters[index + 1]
            if next == "'" {
                index += 2
                continue
            }
            guard next == "{" || next == "}" || next == "#" else {
                index += 1
                continue
            }
            // The quoted text runs to the next apostrophe that is not doubled.
            var close = index + 1
            while close < characters.count {
                if characters[close] == "'" {
                    if close + 1 < characters.count, characters[close + 1] == "'" {
                        close += 2
                        continue
                    }
                    break
                }
                close += 1
            }
            let quoted = close - index - 1
            guard quoted == 1, close < characters.count else {
                let start = max(0, index - 1)
                let end = min(characters.count, close + 1, start + 40)
                var argument: String?
                if next == "{" {
                    let name = characters[(index + 2)...].prefix { $0 != "}" && $0 != "," && $0 != "{" && $0 != "'" }
                    argument = String(name).trimmingASCIIWhitespace()
                }
                return (String(characters[start..<end]), next, argument?.isEmpty == false ? argument : nil)
            }
            index = close + 1
        }
        return nil
    }

    /// A character a paywall line must not have: a control character (a line break or tab that
    /// forges output lines, ESC that acts on a terminal), a line or paragraph separator, or a
    /// bidi embedding or override (U+202A–U+202E) that reorders the text around it.
    static func controlCharacter(in pattern: String) -> Unicode.Scalar? {
        pattern.unicodeScalars.first { scalar in
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: return true
            default: return (0x202A...0x202E).contains(scalar.value)
            }
        }
    }

    /// `%d`, `%@`, `%1$@`, `%lld`: what printf-style string tables write, left as it is by MessageFormat.
    static func printfPlaceholder(in pattern: String) -> String? {
        let scalars = Array(pattern.unicodeScalars)
        for (index, scalar) in scalars.enumerated() where scalar == "%" {
            var end = index + 1
            while end < scalars.count, ("0"..."9").contains(scalars[end]) { end += 1 }
            if end > index + 1, end < scalars.count, scalars[end] == "$" { end += 1 }
            while end < scalars.count, scalars[end] == "l" { end += 1 }
            // `%d月` is a placeholder; `100%ig` is German for "100 per cent".
            let next = end + 1 < scalars.count ? scalars[end + 1] : nil
            if end < scalars.count, "d@sifuxX".unicodeScalars.contains(scalars[end]),
                !(next.map { ("a"..."z").contains($0) || ("A"..."Z").contains($0) } ?? false)
            {
                return String(String.UnicodeScalarView(scalars[index...end]))
            }
        }
        return nil
    }

    /// What a syntax error means, in words, with ICU's name for it.
    static func syntaxReason(_ error: ICUMessageFormat.SyntaxError) -> String {
        if let limit = error.limit { return limit }
        let place = error.offset.map { " at character \($0 + 1)" } ?? ""
        let meaning: String
        switch error.icu.name {
        case "U_DEFAULT_KEYWORD_MISSING": meaning = ": a plural or select needs an 'other' case"
        case "U_DUPLICATE_KEYWORD": meaning = ": a plural or select has a case twice"
        case "U_UNMATCHED_BRACES": meaning = ": a '{' without its '}'"
        case "U_ARGUMENT_TYPE_MISMATCH": meaning = ": arguments are all named or all numbered"
        default: meaning = ""
        }
        return "not valid MessageFormat\(place)\(meaning) (ICU: \(error.icu.name))"
    }

    // MARK: Compiled patterns

    private func compiled(for locale: PriceLocale) throws(StorePriceError) -> ICUMessageFormat {
        do {
            return try MessagePatterns.message(pattern, locale: locale.identifier)
        } catch {
            throw fail(in: locale, argument: nil, Self.syntaxReason(error))
        }
    }
}

extension PaywallArgument {
    /// The values a number argument can take, for checking plural cases: a count of periods is
    /// 1 to 999, a saving 1 to 100 percent.
    var possibleValues: ClosedRange<Int> {
        self == .savingsPercent ? 1...100 : 1...SubscriptionPeriod.maximumCount
    }
}

/// CLDR's plural categories for the integers 0 to 999, per locale, read from ICU once.
enum PluralCategories {
    private struct Key: Hashable, Sendable {
        var locale: String
        var ordinal: Bool
    }

    private static let known = BoundedCache<Key, Result<[String], ICUError>>(limit: FormatterCache.limit)

    static func of(_ locale: String, ordinal: Bool) throws(ICUError) -> [String] {
        try known.value(for: Key(locale: locale, ordinal: ordinal)) {
            Result { () throws(ICUError) in
                try ICU.pluralCategories(locale: locale, ordinal: ordinal, count: SubscriptionPeriod.maximumCount + 1)
            }
        }.get()
    }
}
