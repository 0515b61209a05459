#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// An exact amount of money in one currency.
///
/// Amounts are decimal digits from end to end: a price is made from decimal text, integer minor
/// units, Google Play micros or a Foundation `Decimal`, and never from a binary floating-point
/// value, so `114.99` stays `114.99`.
///
/// ```swift
/// let usd = try CurrencyCode("USD")
/// try Price("0.99", currency: usd)           // 0.99 USD
/// Price(minorUnits: 199, currency: usd)      // 1.99 USD
/// Price(micros: 7_990_000, currency: usd)    // 7.99 USD
/// try Price("1,99", currency: usd)           // throws: invalid amount '1,99': ...
/// ```
///
/// Two prices are equal when their currencies and values are: `1.50` equals `1.5`.
public struct Price: Hashable, Sendable, CustomStringConvertible {
    /// The most significant digits an amount may have: those of a decimal128, as in ICU.
    public static let maximumSignificantDigits = 34
    /// The longest amount text accepted, in characters.
    public static let maximumAmountLength = 100

    /// The amount in canonical decimal text: an optional `-`, no leading zeros, no trailing
    /// fraction zeros and no `.` without digits after it (`-1234.5`, `0.99`, `160000`, `0`).
    public let amount: String
    /// The currency of the amount.
    public let currency: CurrencyCode
    /// How many fraction digits the amount has, trailing zeros aside (`1.50` has 1).
    public let fractionDigits: Int

    /// Creates a price from decimal text such as `"0.99"`, `"-1.99"` or `"160000"`.
    ///
    /// The text is ASCII digits with an optional leading `-` and at most one `.` between digits.
    /// Grouping separators, exponents, `+`, spaces, `NaN` and infinities are refused.
    ///
    /// - Throws: ``StorePriceError/invalidAmount(_:reason:)``, quoting the text.
    public init(_ amount: String, currency: CurrencyCode) throws(StorePriceError) {
        switch DecimalText.parse(amount) {
        case .success(let parsed):
            self.init(canonical: parsed.text, fractionDigits: parsed.fractionDigits, currency: currency)
        case .failure(let problem):
            throw .invalidAmount(amount, reason: problem.reason)
        }
    }

    /// Creates a price from an integer number of the currency's minor units.
    ///
    /// ```swift
    /// Price(minorUnits: 199, currency: try CurrencyCode("USD"))   // 1.99 USD
    /// Price(minorUnits: 1200, currency: try CurrencyCode("JPY"))  // 1200 JPY
    /// ```
    public init(minorUnits: Int64, currency: CurrencyCode) {
        let parsed = DecimalText.scaled(minorUnits, fractionDigits: currency.fractionDigits)
        self.init(canonical: parsed.text, fractionDigits: parsed.fractionDigits, currency: currency)
    }

    /// Creates a price from Google Play micros: millionths of the currency unit.
    ///
    /// ```swift
    /// Price(micros: 7_990_000, currency: try CurrencyCode("USD"))  // 7.99 USD
    /// ```
    public init(micros: Int64, currency: CurrencyCode) {
        let parsed = DecimalText.scaled(micros, fractionDigits: 6)
        self.init(canonical: parsed.text, fractionDigits: parsed.fractionDigits, currency: currency)
    }

    /// Creates a price from a Foundation `Decimal`, exactly, as StoreKit's `Product.price` gives it.
    ///
    /// - Throws: ``StorePriceError/invalidAmount(_:reason:)`` for `NaN` or a value with more
    ///   than 34 significant digits.
    public init(_ amount: Decimal, currency: CurrencyCode) throws(StorePriceError) {
        guard !amount.isNaN else {
            throw .invalidAmount("NaN", reason: "not a finite decimal number")
        }
        try self.init(amount.description, currency: currency)
    }

    /// A price from a canonical amount packed by ``PackedAmount/pack(_:)``.
    init(packed: UInt64, currency: CurrencyCode) {
        let amount = PackedAmount.unpack(packed)
        let point = amount.utf8.firstIndex(of: UInt8(ascii: "."))
        let digits = point.map { amount.utf8.distance(from: $0, to: amount.utf8.endIndex) - 1 } ?? 0
        self.init(canonical: amount, fractionDigits: digits, currency: currency)
    }

    init(canonical: String, fractionDigits: Int, currency: CurrencyCode) {
        self.amount = canonical
        self.fractionDigits = fractionDigits
        self.currency = currency
    }

    /// Whether the amount is below zero.
    public var isNegative: Bool { amount.utf8.first == UInt8(ascii: "-") }

    /// The amount as a Foundation `Decimal`, exactly.
    public var decimalValue: Decimal {
        var significand = Decimal(0)
        var negative = false
        for byte in amount.utf8 {
            if byte == UInt8(ascii: "-") {
                negative = true
            } else if byte.isASCIIDigit {
                significand = significand * 10 + Decimal(Int(byte - UInt8(ascii: "0")))
            }
        }
        return Decimal(sign: negative ? .minus : .plus, exponent: -fractionDigits, significand: significand)
    }

    /// The amount and currency code, such as `0.99 USD`.
    public var description: String { "\(amount) \(currency)" }
}

/// Strict parsing of decimal text into its canonical form.
enum DecimalText {
    struct Parsed: Hashable {
        var text: String
        var fractionDigits: Int
    }

    struct Problem: Error, Hashable {
        var reason: String
    }

    static func parse(_ input: String) -> Result<Parsed, Problem> {
        let bytes = input.utf8
        guard !bytes.isEmpty else { return .failure(Problem(reason: "the amount is empty")) }
        guard bytes.count <= Price.maximumAmountLength else {
            return .failure(Problem(reason: "longer than \(Price.maximumAmountLength) characters"))
        }

        var negative = false
        var integer: [UInt8] = []
        var fraction: [UInt8] = []
        var sawPoint = false
        var index = bytes.startIndex
        if bytes[index] == UInt8(ascii: "-") {
            negative = true
            index = bytes.index(after: index)
        }
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte.isASCIIDigit {
                if sawPoint { fraction.append(byte) } else { integer.append(byte) }
            } else if byte == UInt8(ascii: "."), !sawPoint {
                sawPoint = true
            } else {
                return .failure(Problem(reason: explain(input, offending: byte)))
            }
            index = bytes.index(after: index)
        }
        guard !integer.isEmpty || !fraction.isEmpty else {
            return .failure(Problem(reason: "it has no digits; write an amount such as 0.99"))
        }
        guard !integer.isEmpty, !sawPoint || !fraction.isEmpty else {
            return .failure(Problem(reason: "expected digits on both sides of '.', such as 0.99"))
        }

        // Canonical form: no leading integer zeros, no trailing fraction zeros.
        let firstNonZero = integer.firstIndex { $0 != UInt8(ascii: "0") } ?? integer.endIndex
        integer.removeSubrange(..<firstNonZero)
        while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }

        let significant = integer.isEmpty
            ? fraction.drop { $0 == UInt8(ascii: "0") }.count
            : integer.count + fraction.count
        guard significant <= Price.maximumSignificantDigits else {
            return .failure(Problem(
                reason: "more than \(Price.maximumSignificantDigits) significant digits"))
        }

        var text: [UInt8] = []
        text.reserveCapacity(integer.count + fraction.count + 3)
        let isZero = integer.isEmpty && fraction.isEmpty
        if negative && !isZero { text.append(UInt8(ascii: "-")) }
        if integer.isEmpty { text.append(UInt8(ascii: "0")) } else { text.append(contentsOf: integer) }
        if !fraction.isEmpty {
            text.append(UInt8(ascii: "."))
            text.append(contentsOf: fraction)
        }
        return .success(Parsed(text: String(decoding: text, as: UTF8.self), fractionDigits: fraction.count))
    }

    /// The decimal text of `value / 10^fractionDigits`.
    static func scaled(_ value: Int64, fractionDigits: Int) -> Parsed {
        var digits = Array(String(value.magnitude).utf8)
        if digits.count <= fractionDigits {
            digits.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: fractionDigits - digits.count + 1), at: 0)
        }
        let pointIndex = digits.count - fractionDigits
        var text = value < 0 ? "-" : ""
        text += String(decoding: digits[..<pointIndex], as: UTF8.self)
        if fractionDigits > 0 {
            text += "." + String(decoding: digits[pointIndex...], as: UTF8.self)
        }
        // Re-parse to canonicalize trailing zeros; the text is well formed by construction.
        switch parse(text) {
        case .success(let parsed): return parsed
        case .failure: return Parsed(text: "0", fractionDigits: 0)
        }
    }

    private static func explain(_ input: String, offending byte: UInt8) -> String {
        let lowered = input.lowercased()
        if lowered.contains("nan") || lowered.contains("inf") {
            return "not a finite decimal number"
        }
        switch byte {
        case UInt8(ascii: ","):
            return "use '.' as the decimal separator and no grouping separators, such as 1234.5"
        case UInt8(ascii: "e"), UInt8(ascii: "E"):
            return "exponent notation is not accepted; write the digits out"
        case UInt8(ascii: "."):
            return "more than one '.'"
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            return "only a single leading '-' sign is accepted"
        case UInt8(ascii: " "), UInt8(ascii: "\t"):
            return "spaces are not accepted"
        default:
            return "expected ASCII digits with an optional leading '-' and one '.'"
        }
    }
}

/// A price encodes as its exact decimal text and its currency, `{"amount":"0.99","currency":"USD"}`
/// (never a JSON number, which most tools read as binary floating point), and decodes with the
/// same checks as ``init(_:currency:)``.
extension Price: Codable {
    private enum CodingKeys: String, CodingKey {
        case amount, currency
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let amount = try container.decode(String.self, forKey: .amount)
        let currency = try container.decode(CurrencyCode.self, forKey: .currency)
        do {
            self = try Price(amount, currency: currency)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .amount, in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(amount, forKey: .amount)
        try container.encode(currency, forKey: .currency)
    }
}
