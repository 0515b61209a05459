import ICUNumberFormat
import StorePrice
import TestSupport
import Testing

/// A price is formatted with the whole price locale, `@currency=` keyword included: ICU reads
/// the keyword for the currency's symbols and pattern, and without it uses the region's own
/// currency's (the escudo's `$` decimal separator in Cape Verde).
@Suite struct WholePriceLocaleTests {
    /// ICU 72's `unumf` output for each locale opened with its keyword (Scripts/icu-oracle.c).
    @Test(arguments: [
        ("pt_CV@currency=USD", "1234,50\u{00A0}US$"),
        ("kea_CV@currency=EUR", "1\u{00A0}234,50\u{00A0}\u{20AC}"),
        ("en_DE@currency=USD", "1.234,50\u{00A0}US$"),
        ("en_NL@currency=USD", "US$\u{00A0}1.234,50"),
        ("en_AT@currency=USD", "US$\u{00A0}1.234,50"),
        ("en_BE@currency=USD", "1.234,50\u{00A0}US$"),
        ("en_FI@currency=USD", "1\u{00A0}234,50\u{00A0}US$"),
        ("en_SI@currency=USD", "1.234,50\u{00A0}US$"),
        // The script subtag reaches ICU too: Traditional Chinese in China writes CN¥.
        ("zh_Hant_CN@currency=CNY", "CN\u{00A5}1,234.50"),
        ("zh_Hans_CN@currency=CNY", "\u{00A5}1,234.50"),
    ])
    func formatsWithTheCurrencyKeyword(_ locale: String, _ expected: String) throws {
        let formatter = try PriceFormatter(locale: PriceLocale(locale))
        expectBytes(try formatter.format(amount: "1234.5"), expected, locale)
    }

    /// ICU's older `unum` API takes the currency only from the locale's keyword, so it agrees with
    /// StorePrice only if StorePrice hands ICU the keyword too. Every ICU locale with a region and
    /// no variant, in USD, EUR and JPY.
    @Test func agreesWithICUReadingTheCurrencyFromTheKeywordInEveryRegionLocale() throws {
        let locales = ICU.availableLocales.filter { id in
            let parts = id.split(separator: "_")
            guard parts.count == 2 || (parts.count == 3 && parts[1].count == 4) else { return false }
            return parts.last.map { $0.count == 2 || $0.count == 3 } ?? false
        }.sorted()
        #expect(locales.count > 500, "ICU lists \(locales.count) locales with a region")
        var compared = 0
        var differences: [String] = []
        for base in locales {
            for currency in ["USD", "EUR", "JPY"] {
                let id = "\(base)@currency=\(currency)"
                guard let locale = try? PriceLocale(id) else { continue }
                let amount = currency == "JPY" ? "1234" : "1234.5"
                let ours = try PriceFormatter(locale: locale).format(amount: amount)
                guard let icu = ICULegacyFormat.currency(amount, locale: id) else {
                    differences.append("\(id): ICU's unum gave no result")
                    continue
                }
                compared += 1
                if ours != icu {
                    differences.append("\(id): \(UnicodeEscaping.escapeNonASCII(ours)) ≠ \(UnicodeEscaping.escapeNonASCII(icu))")
                }
            }
        }
        #expect(compared > 1500, "compared \(compared) price locales")
        #expect(differences.isEmpty, "\(differences.count) differ: \(differences.prefix(10).joined(separator: "; "))")
    }

    @Test(arguments: [
        ("-0.001", "en_US@currency=USD", PriceFormatter.Rounding.halfEven, "$0.00"),
        ("-0.005", "en_US@currency=USD", .halfEven, "$0.00"),
        ("-0.0049", "en_US@currency=USD", .halfUp, "$0.00"),
        ("-0.005", "en_US@currency=USD", .halfUp, "-$0.01"),
        ("-0.015", "en_US@currency=USD", .halfEven, "-$0.02"),
        ("-0.4", "ja_JP@currency=JPY", .halfEven, "\u{FFE5}0"),
        ("-0.5", "ja_JP@currency=JPY", .halfEven, "\u{FFE5}0"),
        ("-0.5", "ja_JP@currency=JPY", .halfUp, "-\u{FFE5}1"),
        ("-0.6", "ja_JP@currency=JPY", .halfEven, "-\u{FFE5}1"),
        ("-1.4", "ja_JP@currency=JPY", .halfEven, "-\u{FFE5}1"),
        ("-0.0004", "en_US@currency=KWD", .halfEven, "KWD\u{00A0}0.000"),
        ("-0.0005", "en_US@currency=KWD", .halfUp, "-KWD\u{00A0}0.001"),
        ("-0.001", "sv_SE@currency=SEK", .halfEven, "0,00\u{00A0}kr"),
        ("-0", "en_US@currency=USD", .reject, "$0.00"),
    ])
    func aNegativeAmountThatRoundsToZeroHasNoSign(
        _ amount: String, _ locale: String, _ rounding: PriceFormatter.Rounding, _ expected: String
    ) throws {
        let formatter = try PriceFormatter(locale: PriceLocale(locale), options: .init(rounding: rounding))
        expectBytes(try formatter.format(amount: amount), expected, "\(amount) in \(locale), \(rounding)")
        let price = try Price(amount, currency: formatter.locale.currency)
        let bytes = try formatter.withFormattedUTF8(price) { String(decoding: $0, as: UTF8.self) }
        expectBytes(bytes, expected, "\(amount) in \(locale), \(rounding), as UTF-8")
    }

    @Test(arguments: [
        ("en_US@currency=USD;currency=EUR",
         "unsupported locale 'en_US@currency=USD;currency=EUR': the 'currency' keyword appears more than once"),
        ("en_US@currency=USD;CURRENCY=USD",
         "unsupported locale 'en_US@currency=USD;CURRENCY=USD': the 'currency' keyword appears more than once"),
        ("en-US-u-cu-usd-cu-eur",
         "unsupported locale 'en-US-u-cu-usd-cu-eur': the 'cu' (currency) key appears more than once"),
        ("en-US-u-cu-usd-CU-usd",
         "unsupported locale 'en-US-u-cu-usd-CU-usd': the 'cu' (currency) key appears more than once"),
    ])
    func aRepeatedCurrencyKeywordIsAnError(_ input: String, _ message: String) {
        #expect {
            try PriceLocale(input)
        } throws: { error in
            expectBytes(String(describing: error), message, input)
            return true
        }
    }

    @Test func aTagWithOneCurrencyKeyIsAccepted() throws {
        expectBytes(try PriceLocale("en-US-u-cu-usd").identifier, "en_US@currency=USD")
        expectBytes(try PriceLocale("en_US@CURRENCY=usd").identifier, "en_US@currency=USD")
    }

    @Test(arguments: ["XXX", "XTS", "XAU", "XAG", "XPT", "XPD", "XDR", "XUA", "XSU", "XBA", "USN", "CLF", "CHE", "xau"])
    func codesNoStoreSellsInAreErrors(_ code: String) {
        let message = "unknown currency '\(code)': no store sells in it: ICU lists it as uncommon, with funds codes, "
            + "units of account, precious metals and the testing and no-currency codes"
        #expect {
            try CurrencyCode(code)
        } throws: { error in
            expectBytes(String(describing: error), message, code)
            return true
        }
        #expect {
            try PriceLocale("en_US@currency=\(code)")
        } throws: { error in
            expectBytes(String(describing: error), message, code)
            return true
        }
    }

    @Test(arguments: ["XAF", "XOF", "XCD", "XPF", "CHF", "CLP", "USD"])
    func currenciesThatStartWithXOrShareACountryWithAFundStillWork(_ code: String) throws {
        #expect(try CurrencyCode(code).code == code)
    }

    @Test(arguments: [
        ("\u{0131}sr", "unknown storefront '\u{0131}sr'"),  // dotless i
        ("u\u{017F}a", "unknown storefront 'u\u{017F}a'"),  // long s
        ("\u{0130}SR", "unknown storefront '\u{0130}SR'"),  // dotted capital I
        ("\u{212A}OR", "unknown storefront '\u{212A}OR'"),  // Kelvin sign, canonically equal to K
        ("\u{212A}WT", "unknown storefront '\u{212A}WT'"),
    ])
    func storefrontCodesFoldCaseByASCIIRulesOnly(_ code: String, _ message: String) {
        #expect {
            try Storefront(code)
        } throws: { error in
            String(describing: error).hasPrefix(message)
        }
    }

    @Test func asciiCodesStillFoldCase() throws {
        #expect(try Storefront("isr").countryCode == "ISR")
        #expect(try Storefront("usa").countryCode == "USA")
        #expect(try Storefront("Us").countryCode == "USA")
    }

    @Test(arguments: [
        "en_u\u{017F}@currency=USD",  // long s in the region
        "\u{212A}o_KR@currency=KRW",  // Kelvin sign, which Unicode lower-cases to k
        "en_US@currency=u\u{017F}d",
        "tr_TR@currency=TRY;\u{0131}currency=TRY",
        "en_US@CURRENC\u{0130}=USD",
        "en_US@currency=USD\u{037E}",  // Greek question mark, canonically equal to ';'
        "en_US@currency=USD\u{037E}currency=EUR",
        "ko_KR@currency=\u{212A}RW",
    ])
    func localeCodesFoldCaseByASCIIRulesOnly(_ input: String) {
        #expect(throws: StorePriceError.self, "\(input)") { try PriceLocale(input) }
    }
}
