import ICUNumberFormat

/// ICU MessageFormat patterns as StorePrice formats them: parsed once per (pattern, locale), and
/// formatted with each text value isolated when its direction is not the text around it.
enum MessagePatterns {
    private struct Key: Hashable, Sendable {
        var pattern: String
        var locale: String
    }

    private static let compiled = BoundedCache<Key, Result<ICUMessageFormat, ICUMessageFormat.SyntaxError>>(
        limit: FormatterCache.limit)

    /// The pattern parsed for an ICU locale ID, from the process-wide cache.
    static func message(_ pattern: String, locale: String) throws(ICUMessageFormat.SyntaxError) -> ICUMessageFormat {
        try compiled.value(for: Key(pattern: pattern, locale: locale)) {
            Result { () throws(ICUMessageFormat.SyntaxError) in try ICUMessageFormat(pattern: pattern, locale: locale) }
        }.get()
    }

    private struct DirectionKey: Hashable, Sendable {
        var pattern: String
        var locale: String
        var probe: [String: ICUMessageFormat.Value]
    }

    /// The direction of each message's own words, by the numbers it was formatted with.
    private static let directions = BoundedCache<DirectionKey, Result<ICU.TextDirection, ICUError>>(limit: FormatterCache.limit)

    /// Formats a message. A text value whose first strong character (or, without one, whose
    /// locale) runs the other way from the message's own words (found by formatting it with every
    /// text value empty, else the locale's direction) is isolated with U+2068…U+2069, so that a
    /// US dollar price inside Arabic text, or an Arabic price inside English text, keeps its
    /// order. Values that a `select` chooses by are left as they are.
    static func format(
        _ message: ICUMessageFormat, _ values: [String: PaywallValue], rightToLeft: Bool
    ) throws(ICUError) -> String {
        var probe: [String: ICUMessageFormat.Value] = [:]
        for (name, value) in values {
            switch value {
            case .text: probe[name] = .text("")
            case .number(let number): probe[name] = .number(number)
            }
        }
        let localeDirection: ICU.TextDirection = rightToLeft ? .rightToLeft : .leftToRight
        // The words depend on the pattern, its locale and the numbers that choose its branches.
        let key = DirectionKey(pattern: message.pattern, locale: message.locale, probe: probe)
        var direction = try directions.value(for: key) {
            Result { () throws(ICUError) in ICU.baseDirection(of: try message.format(probe)) }
        }.get()
        if direction == .neutral { direction = localeDirection }
        // A value a select chooses by is compared as it is.
        let chosenBy = Set(message.arguments.filter { $0.kind == .select }.map(\.name))
        var arguments: [String: ICUMessageFormat.Value] = [:]
        for (name, value) in values {
            switch value {
            case .text(let text):
                // A value without a strong character ($4.99) runs the way its locale writes.
                var own = ICU.baseDirection(of: text)
                if own == .neutral, !text.isEmpty { own = localeDirection }
                let isolated = own != direction && !chosenBy.contains(name)
                arguments[name] = .text(isolated ? "\u{2068}\(text)\u{2069}" : text)
            case .number(let number):
                arguments[name] = .number(number)
            }
        }
        return try message.format(arguments)
    }
}
