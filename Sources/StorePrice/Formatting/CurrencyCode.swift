import ICUNumberFormat

/// An ISO 4217 currency code that ICU knows, with the number of fraction digits it uses.
///
/// ```swift
/// let yen = try CurrencyCode("JPY")
/// yen.fractionDigits  // 0
/// try CurrencyCode("KWD").fractionDigits  // 3
/// try CurrencyCode("ZZZ")  // throws: unknown currency 'ZZZ'
/// try CurrencyCode("XAU")  // throws: unknown currency 'XAU': no store sells in it: …
/// ```
public struct CurrencyCode: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The upper-case three-letter code, such as `USD`.
    public let code: String
    /// How many fraction digits prices in this currency use: JPY 0, USD 2, KWD 3.
    public let fractionDigits: Int

    /// Creates a currency code from three ASCII letters, in either case.
    ///
    /// - Throws: ``StorePriceError/unknownCurrency(_:reason:)`` for text that is not a code
    ///   ICU knows as a currency (`ZZZ`, `usd1`, `EURO`), and for codes no store sells in:
    ///   `XXX` ("no currency"), the testing code `XTS`, precious metals (`XAU`, `XAG`, `XPT`,
    ///   `XPD`), units of account (`XDR`, `XUA`) and funds codes (`USN`, `CLF`), which ICU
    ///   classes as uncommon along with a few other special-purpose codes (`CNH`, the offshore
    ///   yuan). Other historic currencies (`DEM`, `HRK`) are accepted, for old price data.
    public init(_ code: String) throws(StorePriceError) {
        let bytes = Array(code.utf8)
        guard bytes.count == 3, bytes.allSatisfy({ $0.isASCIILetter }) else {
            throw .unknownCurrency(code, reason: "an ISO 4217 code is three letters, such as USD")
        }
        let upper = String(decoding: bytes.map { $0 & ~0x20 }, as: UTF8.self)
        guard ICU.currencyCodes.contains(upper) else {
            throw .unknownCurrency(code)
        }
        guard !ICU.uncommonCurrencyCodes.contains(upper) else {
            throw .unknownCurrency(
                code,
                reason: "no store sells in it: ICU lists it as uncommon, with funds codes, units of account, "
                    + "precious metals and the testing and no-currency codes")
        }
        do {
            self.fractionDigits = try ICU.fractionDigits(currency: upper)
        } catch {
            throw .icuFailure(code: error.name, operation: "read the fraction digits of \(upper)")
        }
        self.code = upper
    }

    /// A code already checked, such as a built-in storefront's, with ICU's fraction digits.
    init(checked code: String, fractionDigits: Int) {
        self.code = code
        self.fractionDigits = fractionDigits
    }

    /// The ISO 4217 code, `USD`.
    public var description: String { code }

    /// Orders codes alphabetically.
    public static func < (lhs: CurrencyCode, rhs: CurrencyCode) -> Bool {
        lhs.code < rhs.code
    }
}

extension UInt8 {
    var isASCIILetter: Bool { (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) }
    var isASCIIDigit: Bool { (0x30...0x39).contains(self) }
}

/// A currency code encodes as its text, `"USD"`, and decodes with the same checks as
/// ``init(_:)``.
extension CurrencyCode: Codable {
    public init(from decoder: any Decoder) throws {
        self = try TextCoding.decode(from: decoder) { (text) throws(StorePriceError) in try CurrencyCode(text) }
    }

    public func encode(to encoder: any Encoder) throws {
        try TextCoding.encode(code, to: encoder)
    }
}
