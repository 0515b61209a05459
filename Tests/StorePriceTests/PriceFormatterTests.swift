import StorePrice
import TestSupport
import Testing

@Suite struct PriceFormatterTests {
    func format(_ amount: String, _ locale: String, _ options: PriceFormatter.Options = .init()) throws -> String {
        try PriceFormatter(locale: PriceLocale(locale), options: options).format(amount: amount)
    }

    @Test func aUSStorefrontPriceIsDollarsWhateverTheDevice() throws {
        // A US customer whose phone is set to British English still sees the US store's price.
        let price = try Price("0.99", currency: CurrencyCode("USD"))
        let store = try PriceFormatter(locale: PriceLocale("en_US@currency=USD"))
        expectBytes(try store.format(price), "$0.99")
    }

    @Test(arguments: [
        (PriceFormatter.CurrencyDisplay.symbol, "US$0.99", "1.234,50\u{00A0}€", "\u{FFE5}1"),
        (.narrowSymbol, "$0.99", "1.234,50\u{00A0}€", "\u{FFE5}1"),
        (.isoCode, "USD\u{00A0}0.99", "1.234,50\u{00A0}EUR", "JPY\u{00A0}1"),
        (.name, "0.99 US dollars", "1.234,50 Euro", "1\u{5186}"),
    ])
    func showsTheCurrencyAsAsked(_ display: PriceFormatter.CurrencyDisplay, _ gb: String, _ de: String, _ jp: String)
        throws
    {
        let options = PriceFormatter.Options(display: display)
        expectBytes(try format("0.99", "en_GB@currency=USD", options), gb)
        expectBytes(try format("1234.5", "de_DE@currency=EUR", options), de)
        expectBytes(try format("1", "ja_JP@currency=JPY", options), jp)
    }

    @Test(arguments: [
        ("120.5", "ja_JP@currency=JPY", "'120.5' needs 1 fraction digit; JPY prices are whole amounts; give a rounding, such as half-even, to round it"),
        ("0.125", "en_US@currency=USD", "'0.125' needs 3 fraction digits; USD prices show 2 fraction digits; give a rounding, such as half-even, to round it"),
        ("1.2345", "ar_KW@currency=KWD", "'1.2345' needs 4 fraction digits; KWD prices show 3 fraction digits; give a rounding, such as half-even, to round it"),
        ("1200.50", "ja_JP@currency=JPY", "'1200.5' needs 1 fraction digit; JPY prices are whole amounts; give a rounding, such as half-even, to round it"),
    ])
    func rejectsExcessPrecisionByDefault(_ amount: String, _ locale: String, _ message: String) {
        #expect {
            try format(amount, locale)
        } throws: { error in
            expectBytes(String(describing: error), message)
            guard case .excessPrecision = error as? StorePriceError else { return false }
            return true
        }
    }

    @Test func acceptsTrailingZerosBeyondTheCurrencyDigits() throws {
        expectBytes(try format("1200.00", "ja_JP@currency=JPY"), "\u{FFE5}1,200")
    }

    @Test(arguments: [
        ("0.125", "en_US@currency=USD", "$0.12", "$0.13"),
        ("0.135", "en_US@currency=USD", "$0.14", "$0.14"),
        ("-0.125", "en_US@currency=USD", "-$0.12", "-$0.13"),
        ("2.675", "en_US@currency=USD", "$2.68", "$2.68"),
        ("0.005", "en_US@currency=USD", "$0.00", "$0.01"),
        ("120.5", "ja_JP@currency=JPY", "\u{FFE5}120", "\u{FFE5}121"),
        ("121.5", "ja_JP@currency=JPY", "\u{FFE5}122", "\u{FFE5}122"),
        ("1.2345", "ar_KW@currency=KWD", "\u{200F}١٫٢٣٤\u{00A0}د.ك.\u{200F}", "\u{200F}١٫٢٣٥\u{00A0}د.ك.\u{200F}"),
    ])
    func roundsOnlyWhenAsked(_ amount: String, _ locale: String, _ halfEven: String, _ halfUp: String) throws {
        expectBytes(try format(amount, locale, .init(rounding: .halfEven)), halfEven, "half-even \(amount)")
        expectBytes(try format(amount, locale, .init(rounding: .halfUp)), halfUp, "half-up \(amount)")
    }

    @Test func neverConvertsBetweenCurrencies() throws {
        let price = try Price("12.99", currency: CurrencyCode("USD"))
        let turkey = try PriceFormatter(locale: PriceLocale("tr_TR@currency=TRY"))
        #expect {
            try turkey.format(price)
        } throws: { error in
            expectBytes(
                String(describing: error),
                "price 12.99 USD is in USD, but price locale 'tr_TR@currency=TRY' shows TRY; StorePrice never converts currencies")
            return true
        }
    }

    @Test func skeletonsNameEveryOption() throws {
        let jpy = try CurrencyCode("JPY")
        #expect(PriceFormatter.Options().skeleton(currency: jpy) == "currency/JPY unit-width-short rounding-mode-unnecessary")
        #expect(
            PriceFormatter.Options(display: .isoCode, rounding: .halfEven).skeleton(currency: jpy)
                == "currency/JPY unit-width-iso-code rounding-mode-half-even")
        #expect(
            PriceFormatter.Options(display: .name, rounding: .halfUp).skeleton(currency: jpy)
                == "currency/JPY unit-width-full-name rounding-mode-half-up")
        #expect(PriceFormatter.Options(display: .narrowSymbol).skeleton(currency: jpy).contains("unit-width-narrow"))
    }

    @Test func writesUTF8WithoutAString() throws {
        let formatter = try PriceFormatter(locale: PriceLocale("de_CH@currency=CHF"))
        let price = try Price("1234.5", currency: CurrencyCode("CHF"))
        let bytes = try formatter.withFormattedUTF8(price) { Array($0) }
        #expect(bytes == Array("CHF\u{00A0}1\u{2019}234.50".utf8))
    }

    @Test func givesTheSameBytesFromManyTasksAtOnce() async throws {
        let rows = ICUOutputTests.grid
        let formatters = try Dictionary(
            uniqueKeysWithValues: Set(rows.map(\.0)).map { ($0, try PriceFormatter(locale: PriceLocale($0))) })
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var bad = 0
                    for _ in 0..<5 {
                        for (locale, amount, expected) in rows.shuffled() {
                            // Optional chaining: every key exists; a miss would count as a mismatch.
                            if try formatters[locale]?.format(amount: amount) != expected { bad += 1 }
                        }
                    }
                    return bad
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
