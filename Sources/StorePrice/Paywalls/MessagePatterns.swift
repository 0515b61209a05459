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

    /// The direction of each message's own words, by the values that choose its branches; nil
    /// when it has none.
    private static let directions = BoundedCache<DirectionKey, Result<ICU.TextDirection?, ICUError>>(limit: FormatterCache.limit)

    /// Formats a message. A text value that runs the other way from the message's own words
    /// (found by formatting it with every other text value empty, else the locale's direction)
    /// is isolated, first-strong (U+2068…U+2069) where its first letter says its direction and
    /// explicitly (U+2066 or U+2067) where it does not, so that a dollar price inside Arabic
    /// text, or an Arabic price inside English text, keeps its order. A value runs the way its
    /// locale writes when it has a letter of that direction, else as its first letter. Values
    /// that a `select` chooses by are left as they are.
    static func format(
        _ message: ICUMessageFormat, _ values: [String: PaywallValue], rightToLeft: Bool
    ) throws(ICUError) -> String {
        // A value a select chooses by is compared as it is, so it is kept to find the branch.
        let chosenBy = Set(message.arguments.filter { $0.kind == .select }.map(\.name))
        var probe: [String: ICUMessageFormat.Value] = [:]
        for (name, value) in values {
            switch value {
            case .text(let text): probe[name] = .text(chosenBy.contains(name) ? text : "")
            case .number: probe[name] = value.icuValue
            }
        }
        let localeDirection: ICU.TextDirection = rightToLeft ? .rightToLeft : .leftToRight
        // The words depend on the pattern, its locale and the values that choose its branches.
        let key = DirectionKey(pattern: message.pattern, locale: message.locale, probe: probe)
        let words = try directions.value(for: key) {
            Result { () throws(ICUError) in
                let text = try message.format(probe)
                return text.unicodeScalars.allSatisfy(\.properties.isWhitespace) ? nil : ICU.baseDirection(of: text)
            }
        }.get()
        // A line that is only its values has no text for them to run against.
        guard var direction = words else { return try message.format(values.mapValues(\.icuValue)) }
        if direction == .neutral { direction = localeDirection }
        var arguments: [String: ICUMessageFormat.Value] = [:]
        for (name, value) in values {
            switch value {
            case .text(let text):
                // A value runs the way its locale writes when it has a letter of that direction
                // (`SAR 59.99 في السنة` is Arabic), else as its first strong letter, and a value
                // without one ($4.99) as its locale.
                let strong = ICU.strongDirections(of: text)
                let localeLetters = localeDirection == .rightToLeft ? strong.rightToLeft : strong.leftToRight
                let own = localeLetters || strong.first == .neutral ? localeDirection : strong.first
                guard own != direction, !text.isEmpty, !chosenBy.contains(name) else {
                    arguments[name] = .text(text)
                    continue
                }
                // First-strong isolation where the first letter says the direction; else explicit.
                let opening = strong.first == own || strong.first == .neutral
                    ? "\u{2068}" : (own == .rightToLeft ? "\u{2067}" : "\u{2066}")
                arguments[name] = .text(opening + text + "\u{2069}")
            case .number:
                arguments[name] = value.icuValue
            }
        }
        return try message.format(arguments)
    }
}

extension PaywallValue {
    /// The value as ICU's MessageFormat takes it.
    var icuValue: ICUMessageFormat.Value {
        switch self {
        case .text(let text): .text(text)
        case .number(let number): .number(number)
        }
    }
}
