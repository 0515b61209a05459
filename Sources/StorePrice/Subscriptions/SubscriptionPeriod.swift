import ICUNumberFormat

/// A subscription or offer period, as stores write it in ISO 8601: `P3D`, `P1W`, `P1M`, `P2M`,
/// `P3M`, `P6M`, `P1Y`.
///
/// ```swift
/// let period = try SubscriptionPeriod("P3M")
/// try period.text(in: PriceLocale("de_DE@currency=EUR"))            // "3 Monate"
/// try period.text(in: PriceLocale("ja_JP@currency=JPY"))            // "3 か月"
/// try period.text(in: PriceLocale("en_US@currency=USD"), style: .short)  // "3 mths"
/// ```
///
/// Parsing is strict: one count (1 to 999, no leading zero) and one unit, upper case, as App
/// Store Connect, StoreKit configuration files and Google Play write them. `P1Y2M`, `p1m`, `P0M`
/// and `PT1H` are errors that quote the text.
public struct SubscriptionPeriod: Hashable, Sendable, CustomStringConvertible {
    /// The calendar unit of a period.
    public enum Unit: String, Hashable, Sendable, CaseIterable {
        /// Days, `D`.
        case day
        /// Weeks, `W`.
        case week
        /// Months, `M`.
        case month
        /// Years, `Y`.
        case year

        /// The ISO 8601 designator: `D`, `W`, `M`, `Y`.
        public var designator: Character {
            switch self {
            case .day: "D"
            case .week: "W"
            case .month: "M"
            case .year: "Y"
            }
        }

        /// The unit's length in twelfths of a day, with a year of 365 days and a month of a
        /// twelfth of a year: day 12, week 84, month 365, year 4,380. Exact for day ↔ week and
        /// month ↔ year; between the two families it is the convention that
        /// ``Price/approximately(per:billedEvery:rounding:fractionDigits:)`` documents.
        var twelfthsOfADay: Int {
            switch self {
            case .day: 12
            case .week: 84
            case .month: 365
            case .year: 4380
            }
        }
    }

    /// How many units the period lasts, from 1 to ``maximumCount``: StoreKit's
    /// `Product.SubscriptionPeriod.value`.
    public let value: Int
    /// The unit: StoreKit's `Product.SubscriptionPeriod.unit`.
    public let unit: Unit
    /// How many units the period lasts: ``value``, StoreKit's name for it.
    @available(*, deprecated, renamed: "value")
    public var count: Int { value }

    /// The largest count accepted.
    public static let maximumCount = 999

    /// A period of `value` units, as StoreKit's `Product.SubscriptionPeriod` has it.
    ///
    /// - Throws: ``StorePriceError/invalidPeriod(_:reason:)`` when the value is not 1 to 999.
    public init(value: Int, unit: Unit) throws(StorePriceError) {
        guard (1...Self.maximumCount).contains(value) else {
            throw .invalidPeriod("P\(value)\(unit.designator)", reason: "the count must be 1 to \(Self.maximumCount)")
        }
        self.value = value
        self.unit = unit
    }

    /// A period of `count` units: ``init(value:unit:)``, in StoreKit's words.
    @available(*, deprecated, renamed: "init(value:unit:)")
    public init(count: Int, unit: Unit) throws(StorePriceError) {
        try self.init(value: count, unit: unit)
    }

    /// Parses an ISO 8601 duration with one unit: `P1W`, `P1M`, `P1Y`.
    ///
    /// - Throws: ``StorePriceError/invalidPeriod(_:reason:)`` quoting the text.
    public init(_ text: String) throws(StorePriceError) {
        let bytes = Array(text.utf8)
        func fail(_ reason: String) -> StorePriceError { .invalidPeriod(text, reason: reason) }
        guard bytes.first == UInt8(ascii: "P") else {
            throw fail("an ISO 8601 period starts with 'P', such as P1M or P1Y")
        }
        guard bytes.count >= 3, let last = bytes.last else {
            throw fail("expected a count and a unit after 'P', such as P1M")
        }
        let unit: Unit
        switch last {
        case UInt8(ascii: "D"): unit = .day
        case UInt8(ascii: "W"): unit = .week
        case UInt8(ascii: "M"): unit = .month
        case UInt8(ascii: "Y"): unit = .year
        default: throw fail("the unit must be D, W, M or Y, in upper case; times such as PT1H are not periods")
        }
        let digits = bytes[1..<(bytes.count - 1)]
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        // ISO 8601 allows a fraction in the last part; a store period's count is whole.
        if let point = digits.firstIndex(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ",") }),
            point > digits.startIndex, point < digits.endIndex - 1,
            digits[..<point].allSatisfy(isDigit), digits[(point + 1)...].allSatisfy(isDigit)
        {
            throw fail("the count is a whole number, such as P3\(unit.designator); a fraction of a \(unit.rawValue) is no store period")
        }
        guard digits.allSatisfy(isDigit) else {
            throw fail("expected one count and one unit, such as P3M; combined periods such as P1Y2M are not store periods")
        }
        guard digits.count <= 3, digits.first != UInt8(ascii: "0") else {
            throw fail("the count must be 1 to \(Self.maximumCount), without leading zeros")
        }
        let count = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        self.value = count
        self.unit = unit
    }

    /// The ISO 8601 text: `P1M`.
    public var iso8601: String { "P\(value)\(unit.designator)" }

    /// The period's length in twelfths of a day, by ``Unit``'s convention: `P3M` is 1,095.
    var twelfthsOfADay: Int { value * unit.twelfthsOfADay }

    /// The ISO 8601 text, `P1M`.
    public var description: String { iso8601 }

    /// How period text and per-period prices are written.
    public enum Style: String, Hashable, Sendable, CaseIterable {
        /// Full words: `1 month`, `3 Monate`, `$9.99 per month`.
        case wide
        /// CLDR's short forms: `1 mth`, `3 Mon.`, `$9.99/m`.
        case short
        /// CLDR's narrow forms, for the tightest space: `1m`, `3 M.`, `$9.99/m`.
        case narrow

        var skeleton: String {
            switch self {
            case .wide: "unit-width-full-name"
            case .short: "unit-width-short"
            case .narrow: "unit-width-narrow"
            }
        }

        /// The table in ICU's unit data.
        var unitTable: String {
            switch self {
            case .wide: "units"
            case .short: "unitsShort"
            case .narrow: "unitsNarrow"
            }
        }
    }

    /// The period in the store language of a price locale, from ICU's unit data: `1 month`,
    /// `3 Monate`, `1 週間`, `٣ أشهر`.
    ///
    /// The number is written in the locale's digits, and the plural form is CLDR's.
    public func text(in locale: PriceLocale, style: Style = .wide) throws(StorePriceError) -> String {
        let formatter = try FormatterCache.formatter(
            skeleton: "measure-unit/duration-\(unit.rawValue) \(style.skeleton)", locale: locale.identifier)
        do {
            return try formatter.format(decimal: String(value))
        } catch {
            throw .icuFailure(code: error.name, operation: "format the period \(iso8601) in \(locale)")
        }
    }
}

/// A period encodes as its ISO 8601 text, `"P1M"`, and decodes with the same checks as
/// ``init(_:)``.
extension SubscriptionPeriod: Codable {
    public init(from decoder: any Decoder) throws {
        self = try TextCoding.decode(from: decoder) { (text) throws(StorePriceError) in try SubscriptionPeriod(text) }
    }

    public func encode(to encoder: any Encoder) throws {
        try TextCoding.encode(iso8601, to: encoder)
    }
}
