import StorePrice
import TestSupport
import Testing

@Suite struct PriceLocaleTests {
    @Test(arguments: [
        ("ja_JP@currency=JPY", "ja_JP@currency=JPY", "ja", nil, "JP", "JPY"),
        ("ja-JP-u-cu-jpy", "ja_JP@currency=JPY", "ja", nil, "JP", "JPY"),
        ("ja_JP@currency=jpy", "ja_JP@currency=JPY", "ja", nil, "JP", "JPY"),
        ("zh_CN@currency=CNY", "zh_CN@currency=CNY", "zh", nil, "CN", "CNY"),
        ("zh_Hant_TW@currency=TWD", "zh_Hant_TW@currency=TWD", "zh", "Hant", "TW", "TWD"),
        ("zh-Hant-TW-u-cu-twd", "zh_Hant_TW@currency=TWD", "zh", "Hant", "TW", "TWD"),
        ("es_419@currency=USD", "es_419@currency=USD", "es", nil, "419", "USD"),
        ("en_150@currency=EUR", "en_150@currency=EUR", "en", nil, "150", "EUR"),
        ("fr@currency=EUR", "fr@currency=EUR", "fr", nil, nil, "EUR"),
        ("EN_gb@currency=usd", "en_GB@currency=USD", "en", nil, "GB", "USD"),
    ] as [(String, String, String, String?, String?, String)])
    func parsesICUAndBCP47Identifiers(
        _ input: String, _ identifier: String, _ language: String, _ script: String?, _ region: String?,
        _ currency: String
    ) throws {
        let locale = try PriceLocale(input)
        expectBytes(locale.identifier, identifier, input)
        #expect(locale.language == language)
        #expect(locale.script == script)
        #expect(locale.region == region)
        #expect(locale.currency.code == currency)
    }

    @Test func buildsFromParts() throws {
        let locale = try PriceLocale(language: "fr", region: "CA", currency: CurrencyCode("CAD"))
        #expect(locale.identifier == "fr_CA@currency=CAD")
        #expect(locale == (try PriceLocale("fr_CA@currency=CAD")))
        #expect(locale.languageIdentifier == "fr_CA")
    }

    @Test(arguments: [
        ("xx_YY@currency=USD", "unsupported locale 'xx_YY@currency=USD': ICU has no locale data for language 'xx'"),
        ("en_QQ@currency=USD", "unsupported locale 'en_QQ@currency=USD': ICU does not know region 'QQ'"),
        ("tn_BW@currency=BWP", "unsupported locale 'tn_BW@currency=BWP': ICU has no locale data for language 'tn'"),
        ("ja_JP", "unsupported locale 'ja_JP': a price locale names its currency, such as 'ja_JP@currency=JPY'"),
        ("ja-JP", "unsupported locale 'ja-JP': a price locale names its currency, such as 'ja_JP@currency=JPY'"),
        ("en_US_POSIX@currency=USD", "unsupported locale 'en_US_POSIX@currency=USD': variants such as 'POSIX' are not accepted"),
        ("ja_JP@numbers=arab;currency=JPY",
         "unsupported locale 'ja_JP@numbers=arab;currency=JPY': only the 'currency' keyword is accepted, such as ja_JP@currency=JPY"),
        ("zh_Cyrl_CN@currency=CNY",
         "unsupported locale 'zh_Cyrl_CN@currency=CNY': ICU has no locale data for language 'zh' in script 'Cyrl'"),
        ("@currency=USD", "unsupported locale '@currency=USD': no language, such as 'ja' in ja_JP@currency=JPY"),
        ("", "unsupported locale '': no language, such as 'ja' in ja_JP@currency=JPY"),
        ("english_US@currency=USD", "unsupported locale 'english_US@currency=USD': 'english' is not an ISO 639 language code"),
        ("en_999@currency=USD", "unsupported locale 'en_999@currency=USD': ICU does not know region '999'"),
        ("ja_JP@currency=ZZZ", "unknown currency 'ZZZ'"),
        ("ja-JP-u-cu-zzz", "unknown currency 'zzz'"),
        ("not a locale-", "unsupported locale 'not a locale-': not a well-formed BCP 47 language tag"),
    ])
    func refusesWhatICUWouldSilentlyFallBackFor(_ input: String, _ message: String) {
        #expect {
            try PriceLocale(input)
        } throws: { error in
            expectBytes(String(describing: error), message, input)
            return true
        }
    }
}
