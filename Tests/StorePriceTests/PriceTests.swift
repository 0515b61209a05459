import Foundation
import StorePrice
import TestSupport
import Testing

@Suite struct PriceTests {
    static let usd = try! CurrencyCode("USD")
    static let jpy = try! CurrencyCode("JPY")
    static let kwd = try! CurrencyCode("KWD")

    @Test(arguments: [
        ("0.99", "0.99", 2),
        ("-1.99", "-1.99", 2),
        ("160000", "160000", 0),
        ("1.50", "1.5", 1),
        ("0001.10", "1.1", 1),
        ("0", "0", 0),
        ("-0", "0", 0),
        ("-0.00", "0", 0),
        ("0.000001", "0.000001", 6),
        ("1200.00", "1200", 0),
        ("1234567890123456789012345678901234", "1234567890123456789012345678901234", 0),
        ("0.0000000000000000000000000000000001", "0.0000000000000000000000000000000001", 34),
    ])
    func parsesDecimalTextToItsCanonicalForm(_ input: String, _ canonical: String, _ digits: Int) throws {
        let price = try Price(input, currency: Self.usd)
        expectBytes(price.amount, canonical, input)
        #expect(price.fractionDigits == digits)
    }

    @Test(arguments: [
        ("1,99", "invalid amount '1,99': use '.' as the decimal separator and no grouping separators, such as 1234.5"),
        ("1e3", "invalid amount '1e3': exponent notation is not accepted; write the digits out"),
        ("NaN", "invalid amount 'NaN': not a finite decimal number"),
        ("inf", "invalid amount 'inf': not a finite decimal number"),
        ("", "invalid amount '': the amount is empty"),
        (".", "invalid amount '.': it has no digits; write an amount such as 0.99"),
        (".5", "invalid amount '.5': expected digits on both sides of '.', such as 0.99"),
        ("5.", "invalid amount '5.': expected digits on both sides of '.', such as 0.99"),
        ("-", "invalid amount '-': it has no digits; write an amount such as 0.99"),
        ("-.", "invalid amount '-.': it has no digits; write an amount such as 0.99"),
        ("-.5", "invalid amount '-.5': expected digits on both sides of '.', such as 0.99"),
        ("+-1", "invalid amount '+-1': only a single leading '-' sign is accepted"),
        ("+1", "invalid amount '+1': only a single leading '-' sign is accepted"),
        ("--1", "invalid amount '--1': only a single leading '-' sign is accepted"),
        ("1.2.3", "invalid amount '1.2.3': more than one '.'"),
        (" 1", "invalid amount ' 1': spaces are not accepted"),
        ("1\u{00A0}000", "invalid amount '1\\u{00A0}000': expected ASCII digits with an optional leading '-' and one '.'"),
        ("١٢", "invalid amount '١٢': expected ASCII digits with an optional leading '-' and one '.'"),
        ("$1", "invalid amount '$1': expected ASCII digits with an optional leading '-' and one '.'"),
        ("12345678901234567890123456789012345",
         "invalid amount '12345678901234567890123456789012345': more than 34 significant digits"),
        ("0.12345678901234567890123456789012345",
         "invalid amount '0.12345678901234567890123456789012345': more than 34 significant digits"),
    ])
    func refusesIllFormedTextQuotingIt(_ input: String, _ message: String) {
        #expect {
            try Price(input, currency: Self.usd)
        } throws: { error in
            expectBytes(String(describing: error), message)
            return error is StorePriceError
        }
    }

    @Test func refusesOverlongTextWithoutEchoingAllOfIt() {
        let long = String(repeating: "1", count: 10_000)
        #expect {
            try Price(long, currency: Self.usd)
        } throws: { error in
            let message = String(describing: error)
            #expect(message.hasSuffix("': longer than 100 characters"))
            #expect(message.count < 120)
            return true
        }
    }

    @Test(arguments: [
        (Int64(199), "USD", "1.99"),
        (Int64(-199), "USD", "-1.99"),
        (Int64(5), "USD", "0.05"),
        (Int64(1200), "JPY", "1200"),
        (Int64(1234), "KWD", "1.234"),
        (Int64(0), "USD", "0"),
        (Int64.min, "USD", "-92233720368547758.08"),
    ])
    func makesPricesFromMinorUnits(_ units: Int64, _ currency: String, _ amount: String) throws {
        expectBytes(Price(minorUnits: units, currency: try CurrencyCode(currency)).amount, amount)
    }

    @Test(arguments: [
        (Int64(7_990_000), "7.99"),
        (Int64(990_000), "0.99"),
        (Int64(160_000_000_000), "160000"),
        (Int64(1), "0.000001"),
        (Int64(-1_990_000), "-1.99"),
    ])
    func makesPricesFromGooglePlayMicros(_ micros: Int64, _ amount: String) {
        expectBytes(Price(micros: micros, currency: Self.usd).amount, amount)
    }

    @Test func makesPricesFromDecimalExactly() throws {
        let decimal = try #require(Decimal(string: "114.99"))
        let price = try Price(decimal, currency: Self.usd)
        expectBytes(price.amount, "114.99")
        #expect(price.decimalValue == decimal)
        #expect(throws: StorePriceError.self) { try Price(Decimal.nan, currency: Self.usd) }
    }

    @Test func equalValuesAreEqualPrices() throws {
        #expect(try Price("1.50", currency: Self.usd) == Price("1.5", currency: Self.usd))
        #expect(try Price("1.5", currency: Self.usd) != Price("1.5", currency: try CurrencyCode("EUR")))
        #expect(try Price("-1.99", currency: Self.usd).isNegative)
        #expect(try !Price("-0", currency: Self.usd).isNegative)
    }

    @Test func decimalValueRoundTripsLongAmounts() throws {
        let text = "1234567890123456789012345678.901234"
        let price = try Price(text, currency: Self.usd)
        #expect(price.decimalValue.description == text)
    }
}
