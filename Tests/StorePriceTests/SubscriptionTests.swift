@testable import StorePrice
import ICUNumberFormat
import Foundation
import TestSupport
import Testing

/// Subscription periods, per-period prices, approximations and offers, byte for byte.
///
/// Expected strings are written escaped (`\\u{00A0}`), so each invisible character is explicit.
@Suite struct SubscriptionTests {
    static let periods = ["P3D", "P1W", "P1M", "P2M", "P3M", "P6M", "P1Y"]

    @Test(arguments: [
        ("en_US@currency=USD", "wide", ["3 days", "1 week", "1 month", "2 months", "3 months", "6 months", "1 year"]),
        ("en_US@currency=USD", "short", ["3 days", "1 wk", "1 mth", "2 mths", "3 mths", "6 mths", "1 yr"]),
        ("ja_JP@currency=JPY", "wide", ["3 \\u{65E5}", "1 \\u{9031}\\u{9593}", "1 \\u{304B}\\u{6708}", "2 \\u{304B}\\u{6708}", "3 \\u{304B}\\u{6708}", "6 \\u{304B}\\u{6708}", "1 \\u{5E74}"]),
        ("ja_JP@currency=JPY", "short", ["3 \\u{65E5}", "1 \\u{9031}\\u{9593}", "1 \\u{304B}\\u{6708}", "2 \\u{304B}\\u{6708}", "3 \\u{304B}\\u{6708}", "6 \\u{304B}\\u{6708}", "1 \\u{5E74}"]),
        ("de_DE@currency=EUR", "wide", ["3 Tage", "1 Woche", "1 Monat", "2 Monate", "3 Monate", "6 Monate", "1 Jahr"]),
        ("de_DE@currency=EUR", "short", ["3 Tg.", "1 Wo.", "1 Mon.", "2 Mon.", "3 Mon.", "6 Mon.", "1 J"]),
        ("fr_FR@currency=EUR", "wide", ["3\\u{00A0}jours", "1\\u{00A0}semaine", "1\\u{00A0}mois", "2\\u{00A0}mois", "3\\u{00A0}mois", "6\\u{00A0}mois", "1\\u{00A0}an"]),
        ("fr_FR@currency=EUR", "short", ["3\\u{202F}j", "1\\u{202F}sem.", "1\\u{202F}m.", "2\\u{202F}m.", "3\\u{202F}m.", "6\\u{202F}m.", "1\\u{00A0}an"]),
        ("ar_SA@currency=SAR", "wide", ["\\u{0663} \\u{0623}\\u{064A}\\u{0627}\\u{0645}", "\\u{0623}\\u{0633}\\u{0628}\\u{0648}\\u{0639}", "\\u{0634}\\u{0647}\\u{0631}", "\\u{0634}\\u{0647}\\u{0631}\\u{0627}\\u{0646}", "\\u{0663} \\u{0623}\\u{0634}\\u{0647}\\u{0631}", "\\u{0666} \\u{0623}\\u{0634}\\u{0647}\\u{0631}", "\\u{0633}\\u{0646}\\u{0629}"]),
        ("ar_SA@currency=SAR", "short", ["\\u{0663} \\u{0623}\\u{064A}\\u{0627}\\u{0645}", "\\u{0623}\\u{0633}\\u{0628}\\u{0648}\\u{0639}", "\\u{0634}\\u{0647}\\u{0631}", "\\u{0634}\\u{0647}\\u{0631}\\u{0627}\\u{0646}", "\\u{0663} \\u{0623}\\u{0634}\\u{0647}\\u{0631}", "\\u{0666} \\u{0623}\\u{0634}\\u{0647}\\u{0631}", "\\u{0633}\\u{0646}\\u{0629}"]),
        ("ko_KR@currency=KRW", "wide", ["3\\u{C77C}", "1\\u{C8FC}", "1\\u{AC1C}\\u{C6D4}", "2\\u{AC1C}\\u{C6D4}", "3\\u{AC1C}\\u{C6D4}", "6\\u{AC1C}\\u{C6D4}", "1\\u{B144}"]),
        ("ko_KR@currency=KRW", "short", ["3\\u{C77C}", "1\\u{C8FC}", "1\\u{AC1C}\\u{C6D4}", "2\\u{AC1C}\\u{C6D4}", "3\\u{AC1C}\\u{C6D4}", "6\\u{AC1C}\\u{C6D4}", "1\\u{B144}"]),
        ("zh_Hant_TW@currency=TWD", "wide", ["3 \\u{5929}", "1 \\u{9031}", "1 \\u{500B}\\u{6708}", "2 \\u{500B}\\u{6708}", "3 \\u{500B}\\u{6708}", "6 \\u{500B}\\u{6708}", "1 \\u{5E74}"]),
        ("zh_Hant_TW@currency=TWD", "short", ["3 \\u{5929}", "1 \\u{9031}", "1 \\u{500B}\\u{6708}", "2 \\u{500B}\\u{6708}", "3 \\u{500B}\\u{6708}", "6 \\u{500B}\\u{6708}", "1 \\u{5E74}"]),
    ] as [(String, String, [String])])
    func everyPeriodInSevenStoreLanguages(_ locale: String, _ style: String, _ expected: [String]) throws {
        let priceLocale = try PriceLocale(locale)
        for (period, text) in zip(Self.periods, expected) {
            let shown = try SubscriptionPeriod(period).text(in: priceLocale, style: style == "wide" ? .wide : .short)
            expectBytes(escaped(shown), text, "\(period) in \(locale), \(style)")
        }
    }

    @Test(arguments: [
        ("ja_JP@currency=JPY", "1200", "P1W", .wide, "\\u{FFE5}1,200/\\u{9031}"),
        ("ja_JP@currency=JPY", "1200", "P1W", .short, "\\u{FFE5}1,200/\\u{9031}"),
        ("ja_JP@currency=JPY", "1200", "P1M", .wide, "\\u{FFE5}1,200/\\u{6708}"),
        ("ja_JP@currency=JPY", "1200", "P1M", .short, "\\u{FFE5}1,200/\\u{6708}"),
        ("ja_JP@currency=JPY", "1200", "P3M", .wide, "\\u{FFE5}1,200\\u{6BCE}3 \\u{304B}\\u{6708}"),
        ("ja_JP@currency=JPY", "1200", "P3M", .short, "\\u{FFE5}1,200/3 \\u{304B}\\u{6708}"),
        ("ja_JP@currency=JPY", "1200", "P1Y", .wide, "\\u{FFE5}1,200/\\u{5E74}"),
        ("ja_JP@currency=JPY", "1200", "P1Y", .short, "\\u{FFE5}1,200/\\u{5E74}"),
        ("ko_KR@currency=KRW", "9900", "P1W", .wide, "\\u{C8FC}\\u{B2F9} \\u{20A9}9,900"),
        ("ko_KR@currency=KRW", "9900", "P1W", .short, "\\u{20A9}9,900/\\u{C8FC}"),
        ("ko_KR@currency=KRW", "9900", "P1M", .wide, "\\u{C6D4}\\u{B2F9} \\u{20A9}9,900"),
        ("ko_KR@currency=KRW", "9900", "P1M", .short, "\\u{20A9}9,900/\\u{C6D4}"),
        ("ko_KR@currency=KRW", "9900", "P3M", .wide, "3\\u{AC1C}\\u{C6D4}\\u{B2F9} \\u{20A9}9,900"),
        ("ko_KR@currency=KRW", "9900", "P3M", .short, "\\u{20A9}9,900/3\\u{AC1C}\\u{C6D4}"),
        ("ko_KR@currency=KRW", "9900", "P1Y", .wide, "\\u{C5F0}\\u{B2F9} \\u{20A9}9,900"),
        ("ko_KR@currency=KRW", "9900", "P1Y", .short, "\\u{20A9}9,900/\\u{B144}"),
        ("en_US@currency=USD", "9.99", "P1W", .wide, "$9.99 per week"),
        ("en_US@currency=USD", "9.99", "P1W", .short, "$9.99/w"),
        ("en_US@currency=USD", "9.99", "P1M", .wide, "$9.99 per month"),
        ("en_US@currency=USD", "9.99", "P1M", .short, "$9.99/m"),
        ("en_US@currency=USD", "9.99", "P3M", .wide, "$9.99 per 3 months"),
        ("en_US@currency=USD", "9.99", "P3M", .short, "$9.99/3 mths"),
        ("en_US@currency=USD", "9.99", "P1Y", .wide, "$9.99 per year"),
        ("en_US@currency=USD", "9.99", "P1Y", .short, "$9.99/y"),
        ("de_DE@currency=EUR", "9.99", "P1W", .wide, "9,99\\u{00A0}\\u{20AC} pro Woche"),
        ("de_DE@currency=EUR", "9.99", "P1W", .short, "9,99\\u{00A0}\\u{20AC}/W"),
        ("de_DE@currency=EUR", "9.99", "P1M", .wide, "9,99\\u{00A0}\\u{20AC} pro Monat"),
        ("de_DE@currency=EUR", "9.99", "P1M", .short, "9,99\\u{00A0}\\u{20AC}/M"),
        ("de_DE@currency=EUR", "9.99", "P3M", .wide, "9,99\\u{00A0}\\u{20AC} pro 3 Monate"),
        ("de_DE@currency=EUR", "9.99", "P3M", .short, "9,99\\u{00A0}\\u{20AC}/3 Mon."),
        ("de_DE@currency=EUR", "9.99", "P1Y", .wide, "9,99\\u{00A0}\\u{20AC} pro Jahr"),
        ("de_DE@currency=EUR", "9.99", "P1Y", .short, "9,99\\u{00A0}\\u{20AC}/J"),
        ("ar_KW@currency=KWD", "2.990", "P1W", .wide, "\\u{200F}\\u{0662}\\u{066B}\\u{0669}\\u{0669}\\u{0660}\\u{00A0}\\u{062F}.\\u{0643}.\\u{200F} \\u{0641}\\u{064A} \\u{0627}\\u{0644}\\u{0623}\\u{0633}\\u{0628}\\u{0648}\\u{0639}"),
        ("ar_KW@currency=KWD", "2.990", "P1W", .short, "\\u{200F}\\u{0662}\\u{066B}\\u{0669}\\u{0669}\\u{0660}\\u{00A0}\\u{062F}.\\u{0643}.\\u{200F}/\\u{0623}"),
        ("ar_KW@currency=KWD", "2.990", "P1M", .wide, "\\u{200F}\\u{0662}\\u{066B}\\u{0669}\\u{0669}\\u{0660}\\u{00A0}\\u{062F}.\\u{0643}.\\u{200F} \\u{0641}\\u{064A} \\u{0627}\\u{0644}\\u{0634}\\u{0647}\\u{0631}"),
        ("ar_KW@currency=KWD", "2.990", "P1M", .short, "\\u{200F}\\u{0662}\\u{066B}\\u{0669}\\u{0669}\\u{0660}\\u{00A0}\\u{062F}.\\u{0643}.\\u{200F}/\\u{0634}"),
        ("ar_KW@currency=KWD", "2.990", "P3M", .wide, "\\u{200F}\\u{0662}\\u{066B}\\u{0669}\\u{0669}\\u{0660}\\u{00A0}\\u{062F}.\\u{0643}.\\u{200F} \\u{0644}\\u{0643}\\u{0644} \\u{0663} \\u{0623}\\u{0634}\\u{0647}\\u{0631}"),
        ("ar_KW@currency=KWD", "2.990", "P3M", .short, "\\u{200F}\\u{0662}\\u{066B}\\u{0669}\\u{0669}\\u{0660}\\u{00A0}\\u{062F}.\\u{0643}.\\u{200F}/\\u{0663} \\u{0623}\\u{0634}\\u{0647}\\u{0631}"),
        ("ar_KW@currency=KWD", "2.990", "P1Y", .wide, "\\u{200F}\\u{0662}\\u{066B}\\u{0669}\\u{0669}\\u{0660}\\u{00A0}\\u{062F}.\\u{0643}.\\u{200F} \\u{0641}\\u{064A} \\u{0627}\\u{0644}\\u{0633}\\u{0646}\\u{0629}"),
        ("ar_KW@currency=KWD", "2.990", "P1Y", .short, "\\u{200F}\\u{0662}\\u{066B}\\u{0669}\\u{0669}\\u{0660}\\u{00A0}\\u{062F}.\\u{0643}.\\u{200F}/\\u{0633}\\u{0646}\\u{0629}"),
        ("en_BH@currency=BHD", "1.250", "P1W", .wide, "BHD\\u{00A0}1.250 per week"),
        ("en_BH@currency=BHD", "1.250", "P1W", .short, "BHD\\u{00A0}1.250/w"),
        ("en_BH@currency=BHD", "1.250", "P1M", .wide, "BHD\\u{00A0}1.250 per month"),
        ("en_BH@currency=BHD", "1.250", "P1M", .short, "BHD\\u{00A0}1.250/m"),
        ("en_BH@currency=BHD", "1.250", "P3M", .wide, "BHD\\u{00A0}1.250 per 3 months"),
        ("en_BH@currency=BHD", "1.250", "P3M", .short, "BHD\\u{00A0}1.250/3 mths"),
        ("en_BH@currency=BHD", "1.250", "P1Y", .wide, "BHD\\u{00A0}1.250 per year"),
        ("en_BH@currency=BHD", "1.250", "P1Y", .short, "BHD\\u{00A0}1.250/y"),
    ] as [(String, String, String, SubscriptionPeriod.Style, String)])
    func pricesPerPeriodIn0And2And3DigitCurrencies(
        _ locale: String, _ amount: String, _ period: String, _ style: SubscriptionPeriod.Style, _ expected: String
    ) throws {
        let formatter = try PriceFormatter(locale: PriceLocale(locale))
        expectBytes(escaped(try formatter.format(amount: amount, per: SubscriptionPeriod(period), style: style)), expected)
    }

    /// The per-period patterns are ICU's: for every storefront's price locale, a one-unit period
    /// in each style wraps a price exactly as ICU wraps a measure in `per-measure-unit`.
    @Test func perPeriodPatternsMatchICUsOwnPerUnitFormatting() throws {
        var compared = 0
        for storefront in Storefront.all {
            let locale = storefront.priceLocale
            let formatter = try PriceFormatter(locale: locale)
            for unit in ["week", "month", "year"] {
                let period = try SubscriptionPeriod("P1\(unit.prefix(1).uppercased())")
                for style in SubscriptionPeriod.Style.allCases {
                    let width = switch style {
                    case .wide: "unit-width-full-name"
                    case .short: "unit-width-short"
                    case .narrow: "unit-width-narrow"
                    }
                    let mass = try ICUNumberFormatter(
                        skeleton: "measure-unit/mass-kilogram \(width)", locale: locale.languageIdentifier).format(decimal: "5")
                    let icu = try ICUNumberFormatter(
                        skeleton: "measure-unit/mass-kilogram per-measure-unit/duration-\(unit) \(width)",
                        locale: locale.languageIdentifier
                    ).format(decimal: "5")
                    let ours = try formatter.perPattern(period, style: style).replacingFirst("{0}", with: mass)
                    expectBytes(ours, icu, "\(locale) \(period) \(style)")
                    compared += 1
                }
            }
        }
        #expect(compared == 175 * 3 * 3)
    }

    @Test(arguments: [
        ("P1D", "P1D"), ("P3D", "P3D"), ("P1W", "P1W"), ("P2W", "P2W"), ("P1M", "P1M"), ("P2M", "P2M"),
        ("P3M", "P3M"), ("P6M", "P6M"), ("P1Y", "P1Y"), ("P999D", "P999D"),
    ])
    func periodsParse(_ text: String, _ iso: String) throws {
        #expect(try SubscriptionPeriod(text).iso8601 == iso)
    }

    @Test(arguments: [
        ("", "an ISO 8601 period starts with 'P', such as P1M or P1Y"),
        ("1M", "an ISO 8601 period starts with 'P', such as P1M or P1Y"),
        ("P", "expected a count and a unit after 'P', such as P1M"),
        ("PM", "expected a count and a unit after 'P', such as P1M"),
        ("p1m", "an ISO 8601 period starts with 'P', such as P1M or P1Y"),
        ("P1m", "the unit must be D, W, M or Y, in upper case; times such as PT1H are not periods"),
        ("PT1H", "the unit must be D, W, M or Y, in upper case; times such as PT1H are not periods"),
        ("P1Y2M", "expected one count and one unit, such as P3M; combined periods such as P1Y2M are not store periods"),
        ("P-1M", "expected one count and one unit, such as P3M; combined periods such as P1Y2M are not store periods"),
        ("P0M", "the count must be 1 to 999, without leading zeros"),
        ("P01M", "the count must be 1 to 999, without leading zeros"),
        ("P1000D", "the count must be 1 to 999, without leading zeros"),
        (" P1M", "an ISO 8601 period starts with 'P', such as P1M or P1Y"),
        ("P1M ", "the unit must be D, W, M or Y, in upper case; times such as PT1H are not periods"),
        ("P１M", "expected one count and one unit, such as P3M; combined periods such as P1Y2M are not store periods"),
    ])
    func badPeriodsAreRefusedQuotingTheText(_ text: String, _ reason: String) {
        #expect(throws: StorePriceError.invalidPeriod(text, reason: reason)) { try SubscriptionPeriod(text) }
    }

    // MARK: Approximations

    @Test(arguments: [
        // (billed, currency, every, per, rounding, expected, exact)
        ("59.99", "USD", "P1Y", "P1M", ApproximatePrice.Rounding.down, "4.99", false),
        ("59.99", "USD", "P1Y", "P1M", .halfEven, "5.00", false),
        ("83.99", "USD", "P1Y", "P1M", .down, "6.99", false),
        ("83.99", "USD", "P1Y", "P1M", .up, "7.00", false),
        ("1.99", "USD", "P1M", "P1W", .down, "0.45", false),
        ("1.99", "USD", "P1M", "P1W", .halfUp, "0.46", false),
        ("120", "USD", "P1Y", "P1M", .down, "10.00", true),
        ("9800", "JPY", "P1Y", "P1M", .down, "816", false),
        ("9800", "JPY", "P1Y", "P1M", .halfEven, "817", false),
        ("12000", "KRW", "P1Y", "P1W", .down, "230", false),
        ("19.990", "KWD", "P1Y", "P1M", .down, "1.665", false),
        ("3.5", "KWD", "P1W", "P1D", .down, "0.500", true),
        ("4.99", "USD", "P1M", "P1Y", .down, "59.88", true),
        ("0.06", "USD", "P1Y", "P1M", .halfEven, "0.00", false),
        ("0.18", "USD", "P1Y", "P1M", .halfEven, "0.02", false),
        ("0.30", "USD", "P1Y", "P1M", .halfEven, "0.02", false),
        ("0.30", "USD", "P1Y", "P1M", .halfUp, "0.03", false),
        ("0.90", "USD", "P1Y", "P1M", .halfEven, "0.08", false),
        ("0", "USD", "P1Y", "P1M", .up, "0.00", true),
        ("-59.99", "USD", "P1Y", "P1M", .down, "-4.99", false),
        ("-0.01", "USD", "P1Y", "P1M", .down, "0.00", false),
        ("123456789012345678901234567890", "JPY", "P1Y", "P1M", .down, "10288065751028806575102880657", false),
        ("29.99", "USD", "P6M", "P1M", .down, "4.99", false),
        ("49.99", "USD", "P3M", "P1W", .down, "3.83", false),  // 49.99 × 84 / 1095 = 3.8348…
    ] as [(String, String, String, String, ApproximatePrice.Rounding, String, Bool)])
    func approximationsAreExactDecimalsRoundedInTheCurrencysDigits(
        _ billed: String, _ currency: String, _ every: String, _ per: String, _ rounding: ApproximatePrice.Rounding,
        _ expected: String, _ exact: Bool
    ) throws {
        let price = try Price(billed, currency: CurrencyCode(currency))
        let approximate = try price.approximately(
            per: SubscriptionPeriod(per), billedEvery: SubscriptionPeriod(every), rounding: rounding)
        let want = try Price(expected, currency: CurrencyCode(currency))
        #expect(approximate.price == want, "\(approximate)")
        #expect(approximate.isExact == exact)
    }

    @Test func approximationsFormatPerPeriod() throws {
        let usa = try PriceFormatter(locale: Storefront("USA").priceLocale)
        let yearly = try Price("59.99", currency: CurrencyCode("USD"))
        let monthly = try yearly.approximately(per: SubscriptionPeriod("P1M"), billedEvery: SubscriptionPeriod("P1Y"))
        expectBytes(try usa.format(monthly), "$4.99 per month")
        #expect(monthly.description == "≈ 4.99 USD per P1M (59.99 USD every P1Y, rounded down)")
        let japan = try PriceFormatter(locale: Storefront("JPN").priceLocale)
        let weekly = try Price("9800", currency: CurrencyCode("JPY"))
            .approximately(per: SubscriptionPeriod("P1W"), billedEvery: SubscriptionPeriod("P1Y"))
        expectBytes(escaped(try japan.format(weekly)), #"\u{FFE5}187/\u{9031}"#)
    }

    // MARK: Offers

    @Test(arguments: [
        ("en_US@currency=USD", "free:P1W", "0", "1 week free"),
        ("en_US@currency=USD", "payAsYouGo:P1Mx3", "0.99", "$0.99 per month for 3 months"),
        ("en_US@currency=USD", "payUpFront:P2M", "1.99", "$1.99 for 2 months"),
        ("ja_JP@currency=JPY", "free:P1W", "0", #"1 \u{9031}\u{9593}\u{7121}\u{6599}"#),
        ("ja_JP@currency=JPY", "payAsYouGo:P1Mx3", "160", #"\u{FFE5}160/\u{6708}\u{FF08}3 \u{304B}\u{6708}\u{FF09}"#),
        ("ja_JP@currency=JPY", "payUpFront:P2M", "300", #"\u{FFE5}300\u{FF08}2 \u{304B}\u{6708}\u{FF09}"#),
        ("de_DE@currency=EUR", "free:P3D", "0", "3 Tage gratis"),
        ("de_DE@currency=EUR", "payAsYouGo:P1Wx4", "0.99", #"0,99\u{00A0}\u{20AC} pro Woche f\u{00FC}r 4 Wochen"#),
        ("de_DE@currency=EUR", "payUpFront:P6M", "19.99", #"19,99\u{00A0}\u{20AC} f\u{00FC}r 6 Monate"#),
        ("ar_SA@currency=SAR", "free:P1M", "0", #"\u{062A}\u{062C}\u{0631}\u{0628}\u{0629} \u{0645}\u{062C}\u{0627}\u{0646}\u{064A}\u{0629} \u{0644}\u{0645}\u{062F}\u{0629} \u{0634}\u{0647}\u{0631}"#),
        ("zh_Hant_TW@currency=TWD", "payUpFront:P1Y", "990", #"$990.00\u{FF0C}\u{70BA}\u{671F}1 \u{5E74}"#),
        ("ko_KR@currency=KRW", "payAsYouGo:P1Mx2", "1100", #"2\u{AC1C}\u{C6D4} \u{B3D9}\u{C548} \u{C6D4}\u{B2F9} \u{20A9}1,100"#),
        ("ar_KW@currency=KWD", "payUpFront:P1M", "0.990", #"\u{200F}\u{0660}\u{066B}\u{0669}\u{0669}\u{0660}\u{00A0}\u{062F}.\u{0643}.\u{200F} \u{0644}\u{0645}\u{062F}\u{0629} \u{0634}\u{0647}\u{0631}"#),
    ])
    func everyOfferKindInThePriceLocale(_ locale: String, _ terms: String, _ amount: String, _ expected: String) throws {
        let priceLocale = try PriceLocale(locale)
        let offer = try SubscriptionOffer(terms: terms, price: Price(amount, currency: priceLocale.currency))
        expectBytes(escaped(try offer.text(in: priceLocale)), expected)
    }

    @Test(arguments: [
        ("free:P1W", "1", "invalid offer 'free:P1W': a free trial has no price, but 1 was given; its price is 0"),
        ("free:P1Wx2", "0", "invalid offer 'free:P1Wx2 at 0': a free trial lasts one period; write its length as the period, such as P2W"),
        ("payUpFront:P1Mx2", "1.99", "invalid offer 'payUpFront:P1Mx2 at 1.99': pay up front is one payment; write the whole length as the period, such as P2M"),
        ("trial:P1W", "0", "invalid offer 'trial:P1W': the mode must be free, payAsYouGo or payUpFront"),
        ("free", "0", "invalid offer 'free': expected MODE:PERIOD, such as free:P1W, payAsYouGo:P1Mx3 or payUpFront:P2M"),
        ("payAsYouGo:P1Mx0", "0.99", "invalid offer 'payAsYouGo:P1Mx0': the number of periods after 'x' must be 1 to 999"),
        ("payAsYouGo:P999Mx2", "0.99", "invalid offer 'payAsYouGo:P999Mx2:0.99': it lasts longer than 999 months"),
        ("free:P1Q", "0", "invalid period 'P1Q': the unit must be D, W, M or Y, in upper case; times such as PT1H are not periods"),
    ])
    func badOffersAreRefusedWithTheirTerms(_ terms: String, _ amount: String, _ message: String) throws {
        let price = try Price(amount, currency: CurrencyCode("USD"))
        do {
            _ = try SubscriptionOffer(terms: terms, price: price)
            Issue.record("accepted \(terms)")
        } catch {
            expectBytes(error.description, message)
        }
    }

    @Test func aLanguageWithoutWordingNeedsTheAppsOwn() throws {
        let russia = try Storefront("RUS").priceLocale
        let trial = SubscriptionOffer.freeTrial(try SubscriptionPeriod("P1W"))
        #expect(throws: StorePriceError.invalidOffer(
            "free:P1W",
            reason: "StorePrice has no offer wording for ru_RU; pass OfferWording with your app's own (--offer-wording in the CLI)")
        ) { try trial.text(in: russia) }
        let wording = OfferWording(freeTrial: "{duration} бесплатно", payAsYouGo: "{price_per_period}", payUpFront: "{price}")
        expectBytes(try trial.text(in: russia, wording: wording), "1 неделя бесплатно")
        #expect(OfferWording.builtInLanguages == ["ar", "de", "en", "es", "fr", "it", "ja", "ko", "nl", "pt", "zh-Hans", "zh-Hant"])
    }

    // MARK: Catalogs

    @Test func theSampleStoreKitFilesSubscriptionsHavePeriodsAndOffers() throws {
        let products = try Catalog.load(repositoryFile("Data/catalog-sample.storekit").path)
        let subscriptions = products.filter { $0.subscription != nil }
        #expect(subscriptions.map(\.id) == ["com.example.pro.weekly", "com.example.pro.monthly", "com.example.pro.yearly"])
        let usa = try Storefront("USA")
        let shown = try subscriptions.map { product throws -> String in
            let terms = try #require(product.subscription)
            let offer = try #require(terms.introductoryOffer?.offer(inStorefront: usa.numericID))
            let promos = try terms.promotionalOffers.map { promo throws -> String in
                let inUSA = try #require(promo.offer(inStorefront: usa.numericID))
                return "\(promo.id ?? ""): \(try inUSA.text(in: usa.priceLocale))"
            }
            return ([terms.period.iso8601, try offer.text(in: usa.priceLocale)] + promos).joined(separator: " | ")
        }
        #expect(shown == [
            "P1W | 3 days free",
            "P1M | $0.99 per month for 3 months | com.example.pro.winback: $1.99 for 2 months",
            "P1Y | 1 week free",
        ])
    }

    @Test(arguments: [
        (#"{"product":"a","prices":{"USA":"1"},"period":"P1X"}"#, "field 'period': invalid period 'P1X': the unit must be D, W, M or Y, in upper case; times such as PT1H are not periods"),
        (#"{"product":"a","prices":{"USA":"1"},"introductory_offer":{"payment_mode":"free","period":"P1W"}}"#, "field 'period': missing; offers belong to a subscription, which needs a period such as P1M"),
        (#"{"product":"a","prices":{"USA":"1"},"period":"P1M","introductory_offer":{"period":"P1W"}}"#, "field 'introductory_offer.payment_mode': missing; free, payAsYouGo or payUpFront"),
        // StorePrice 0.1.0's camelCase keys are named with their new names, never silently dropped.
        (#"{"product":"a","prices":{"USA":"1"},"period":"P1M","introductoryOffer":{"paymentMode":"free","period":"P1W"}}"#, "field 'introductoryOffer': unknown field; StorePrice now names it 'introductory_offer', as its outputs do"),
        (#"{"product":"a","prices":{"USA":"1"},"period":"P1M","introductory_offer":{"paymentMode":"free","period":"P1W"}}"#, "field 'introductory_offer.paymentMode': unknown field; StorePrice now names it 'payment_mode', as its outputs do"),
        (#"{"product":"a","prices":{"USA":"1"},"period":"P1M","promotional_offers":[{"id":"w","payment_mode":"free","period":"P1W","price":"1"}]}"#, "field 'promotional_offers[0].price': unknown field; an offer has id, payment_mode, period, period_count, prices, storefronts"),
        (#"{"product":"a","prices":{"USA":"1"},"period":"P1M","introductory_offer":{"payment_mode":"payAsYouGo","period":"P1M","period_count":3}}"#, "field 'introductory_offer': invalid offer 'payAsYouGo:P1Mx3': pay as you go needs a price per period"),
        (#"{"product":"a","prices":{"USA":"1"},"period":"P1M","introductory_offer":{"payment_mode":"payUpFront","period":"P1M","prices":{"USA":0.99}}}"#, "field 'introductory_offer.prices.USA': expected decimal text such as \"0.99\""),
        (#"{"product":"a","prices":{"USA":"1"},"period":"P1M","promotional_offers":[{"payment_mode":"free","period":"P1W"}]}"#, "field 'promotional_offers[0].id': missing; a promotional offer needs its ID"),
    ])
    func badSubscriptionLinesNameTheField(_ line: String, _ message: String) throws {
        let url = try temporaryDirectory().appendingPathComponent("catalog.jsonl")
        try (line + "\n").write(to: url, atomically: true, encoding: .utf8)
        do {
            _ = try Catalog.load(url.path)
            Issue.record("accepted \(line)")
        } catch {
            expectBytes(error.description, "catalog '\(url.path)', line 1, \(message)")
        }
    }

    // MARK: Sandbox

    @Test func sandboxRenewalsFollowTheCompressedClock() throws {
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        let expected = [("P1W", 180), ("P1M", 300), ("P2M", 600), ("P3M", 900), ("P6M", 1800), ("P1Y", 3600)]
        #expect(SandboxRenewals.periods.map(\.iso8601) == expected.map(\.0))
        for (period, seconds) in expected {
            let schedule = try SandboxRenewals.schedule(for: SubscriptionPeriod(period), start: start)
            #expect(schedule.interval == seconds)
            #expect(schedule.events.count == 14)
            #expect(schedule.events.first == SandboxRenewals.Event(kind: .purchase, number: 0, date: start))
            #expect(schedule.events[12] == SandboxRenewals.Event(kind: .renewal, number: 12, date: start + TimeInterval(12 * seconds)))
            #expect(schedule.events.last == SandboxRenewals.Event(kind: .expiration, number: 13, date: start + TimeInterval(13 * seconds)))
        }
        #expect(SandboxRenewals.renewalCap == 12)
        #expect(SandboxRenewals.source.contains("https://developer.apple.com/documentation/storekittest/"))
        #expect(throws: StorePriceError.invalidPeriod("P3D", reason: "the App Store's subscriptions renew every P1W, P1M, P2M, P3M, P6M or P1Y")) {
            try SandboxRenewals.schedule(for: SubscriptionPeriod("P3D"), start: start)
        }
        #expect(try SandboxRenewals.schedule(for: SubscriptionPeriod("P1M"), start: start, renewals: 6).events.count == 8)
    }

    @Test(arguments: [
        ("Data/offer-wording.json", EmbeddedData.offerWording),
        ("Data/sandbox-renewals.json", EmbeddedData.sandboxRenewals),
        ("Data/app-store-style.json", EmbeddedData.appStoreStyle),
        ("Data/paywall-templates.json", EmbeddedData.paywallTemplates),
        ("Data/play-regions.json", EmbeddedData.playRegions),
        ("Data/play-style.json", EmbeddedData.playStyle),
        ("Data/play-testers.json", EmbeddedData.playTesters),
    ])
    func embeddedDataIsTheDataFile(_ path: String, _ embedded: String) throws {
        let file = try String(contentsOf: repositoryFile(path), encoding: .utf8)
        // Bytes: String's `==` would let a change between two spellings of a character through.
        #expect(Array(file.utf8) == Array((embedded + "\n").utf8) || Array(file.utf8) == Array(embedded.utf8),
            "\(path) changed: run Scripts/embed-data.sh")
    }
}
