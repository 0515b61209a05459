import Foundation
import TestSupport
import Testing

@Suite struct FormatCommandTests {
    @Test(arguments: [
        (["format", "1200", "--locale", "ja_JP@currency=JPY"], "\u{FFE5}1,200\n"),
        (["format", "0.99", "--locale", "en_GB@currency=USD"], "US$0.99\n"),
        (["format", "-1.99", "--locale", "sv_SE@currency=SEK"], "\u{2212}1,99\u{00A0}kr\n"),
        (["format", "1234.5", "--locale", "de_CH@currency=CHF", "--escape"], "CHF\\u{00A0}1\\u{2019}234.50\n"),
        (["format", "9.99", "--locale", "ar-SA-u-cu-sar", "--escape"],
         "\\u{200F}\\u{0669}\\u{066B}\\u{0669}\\u{0669}\\u{00A0}\\u{0631}.\\u{0633}.\\u{200F}\n"),
        (["format", "0.99", "--locale", "en_GB@currency=USD", "--display", "narrow"], "$0.99\n"),
        (["format", "0.99", "--locale", "en_GB@currency=USD", "--display", "iso"], "USD\u{00A0}0.99\n"),
        (["format", "0.99", "--locale", "en_GB@currency=USD", "--display", "name"], "0.99 US dollars\n"),
        (["format", "120.5", "--locale", "ja_JP@currency=JPY", "--rounding", "half-even"], "\u{FFE5}120\n"),
        (["format", "120.5", "--locale", "ja_JP@currency=JPY", "--rounding", "half-up"], "\u{FFE5}121\n"),
        (["format", "--locale", "sv_SE@currency=SEK", "--", "-1.99"], "\u{2212}1,99\u{00A0}kr\n"),
    ])
    func printsExactlyTheseBytes(_ arguments: [String], _ expected: String) throws {
        let run = try runStorePrice(arguments)
        #expect(run.status == 0, "\(arguments): \(run.error)")
        expectBytes(run.output, expected, arguments.joined(separator: " "))
        #expect(run.error.isEmpty)
    }

    @Test(arguments: [
        ("120.5", "ja_JP@currency=JPY", "storeprice: '120.5' needs 1 fraction digit; JPY prices are whole amounts; give a rounding, such as half-even, to round it (--rounding half-even)\n"),
        ("1", "xx_YY@currency=USD", "storeprice: unsupported locale 'xx_YY@currency=USD': ICU has no locale data for language 'xx'\n"),
        ("1", "en_QQ@currency=USD", "storeprice: unsupported locale 'en_QQ@currency=USD': ICU does not know region 'QQ'\n"),
        ("1", "ja_JP@currency=ZZZ", "storeprice: unknown currency 'ZZZ'\n"),
        ("1", "ja_JP@currency=usd1", "storeprice: unknown currency 'usd1': an ISO 4217 code is three letters, such as USD\n"),
        ("1", "ja_JP@currency=EURO", "storeprice: unknown currency 'EURO': an ISO 4217 code is three letters, such as USD\n"),
        ("1,99", "en_US@currency=USD",
         "storeprice: invalid amount '1,99': use '.' as the decimal separator and no grouping separators, such as 1234.5\n"),
        ("1e3", "en_US@currency=USD", "storeprice: invalid amount '1e3': exponent notation is not accepted; write the digits out\n"),
        ("NaN", "en_US@currency=USD", "storeprice: invalid amount 'NaN': not a finite decimal number\n"),
        ("", "en_US@currency=USD", "storeprice: invalid amount '': the amount is empty\n"),
        (".", "en_US@currency=USD", "storeprice: invalid amount '.': it has no digits; write an amount such as 0.99\n"),
        ("+-1", "en_US@currency=USD", "storeprice: invalid amount '+-1': only a single leading '-' sign is accepted\n"),
        ("1234567890123456789012345678901234567", "en_US@currency=USD",
         "storeprice: invalid amount '1234567890123456789012345678901234567': more than 34 significant digits\n"),
        ("1", "ja_JP", "storeprice: unsupported locale 'ja_JP': a price locale names its currency, such as 'ja_JP@currency=JPY'\n"),
    ])
    func refusesBadDataWithOneLineAndStatus65(_ amount: String, _ locale: String, _ message: String) throws {
        let run = try runStorePrice(["format", amount, "--locale", locale])
        #expect(run.status == 65)
        expectBytes(run.error, message)
        #expect(run.output.isEmpty)
    }

    @Test(arguments: [
        ["format"],
        ["format", "1"],
        ["format", "1", "2", "--locale", "en_US@currency=USD"],
        ["format", "1", "--locale", "en_US@currency=USD", "--display", "fancy"],
        ["format", "1", "--locale", "en_US@currency=USD", "--rounding", "up"],
        ["format", "1", "--batch"],
        ["format", "--batch", "--locale", "en_US@currency=USD"],
        ["frobnicate"],
    ])
    func refusesBadUsageWithStatus64(_ arguments: [String]) throws {
        let run = try runStorePrice(arguments)
        #expect(run.status == 64, "\(arguments)")
        #expect(run.error.contains("Usage:") || run.error.contains("Error:"))
        #expect(!run.error.contains("Fatal error"))
    }

    @Test func printsItsVersionWithICUAndCLDR() throws {
        let run = try runStorePrice(["--version"])
        #expect(run.status == 0)
        let pattern = #/^storeprice \d+\.\d+\.\d+ \(ICU \d+\.\d+, CLDR \d+\.\d+\)\n$/#
        #expect(run.output.wholeMatch(of: pattern) != nil, "\(run.output)")
    }

    @Test func givesTheSameBytesWhateverTheProcessLocale() throws {
        let input = Data(
            ICUOutputTests_sample.map { "\($0.0)\t\($0.1)\n" }.joined().utf8)
        var outputs: [String: Data] = [:]
        for lang in ["ar_EG.UTF-8", "tr_TR.UTF-8", "de_CH.UTF-8", "C"] {
            var environment = ProcessInfo.processInfo.environment
            environment["LANG"] = lang
            environment["LC_ALL"] = lang
            environment["LC_NUMERIC"] = lang
            environment["LC_MONETARY"] = lang
            let batch = try runStorePrice(["format", "--batch"], input: input, environment: environment)
            #expect(batch.status == 0, "\(lang): \(batch.error)")
            let single = try runStorePrice(
                ["format", "1234.5", "--locale", "en_US@currency=USD"], environment: environment)
            outputs[lang] = batch.standardOutput + single.standardOutput
        }
        let reference = try #require(outputs["C"])
        let expectedSingle = Data("$1,234.50\n".utf8)
        #expect(reference.suffix(expectedSingle.count) == expectedSingle)
        for (lang, output) in outputs {
            #expect(output == reference, "output under LANG=\(lang) differs from LANG=C")
        }
    }
}

/// Rows whose output differs the most between locales: digits, separators, marks.
let ICUOutputTests_sample: [(String, String)] = [
    ("en_US@currency=USD", "1234.5"), ("ar_EG@currency=EGP", "1234.5"), ("tr_TR@currency=TRY", "-1.99"),
    ("de_CH@currency=CHF", "1234.5"), ("ja_JP@currency=JPY", "1200"), ("hi_IN@currency=INR", "1234567.89"),
    ("he_IL@currency=ILS", "-9.99"), ("fr_CA@currency=USD", "9.99"),
]

@Suite struct FormatOptionTypoTests {
    @Test(arguments: [
        (["format", "0.99", "--storefrnt", "USA"], "Error: Unknown option '--storefrnt'. Did you mean '--storefront'?"),
        (["format", "0.99", "--storefront", "USA", "--dispaly", "name"], "Error: Unknown option '--dispaly'. Did you mean '--display'?"),
        (["format", "--batch", "--escap"], "Error: Unknown option '--escap'. Did you mean '--escape'?"),
        (["format", "0.99", "--locale", "en_US@currency=USD", "--zzzzzz"], "Error: Unknown option '--zzzzzz'."),
    ])
    func aMistypedOptionIsNamedWithTheNearestOne(_ arguments: [String], _ first: String) throws {
        let run = try runStorePrice(arguments)
        #expect(run.status == 64)
        expectBytes(String(run.error.prefix { $0 != "\n" }), first)
    }

    @Test func negativeAmountsAreStillAmounts() throws {
        let run = try runStorePrice(["format", "-1.99", "--storefront", "USA"])
        expectBytes(run.output, "-$1.99\n")
    }
}
