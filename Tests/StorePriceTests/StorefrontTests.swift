import Foundation
import ICUNumberFormat
import StorePrice
import TestSupport
import Testing

@Suite struct StorefrontTests {
    @Test func theCompiledDataIsDataStorefrontsJSON() throws {
        let file = try String(contentsOf: repositoryFile("Data/storefronts.json"), encoding: .utf8)
        // Decoded from the file, every value is checked against ICU; the library's copy is not.
        let decoded = try JSONDecoder().decode([Storefront].self, from: Data(file.utf8))
        #expect(decoded.count == Storefront.all.count, "Data/storefronts.json changed: run Scripts/embed-data.sh")
        for (fromFile, built) in zip(decoded, Storefront.all) where fromFile != built {
            #expect(Self.fields(built) == Self.fields(fromFile), "Data/storefronts.json changed: run Scripts/embed-data.sh")
        }
    }

    /// Every field of a storefront, for a readable difference.
    static func fields(_ storefront: Storefront) -> String {
        let locale = storefront.priceLocale
        return "\(storefront.id) \(storefront.alpha2) \(storefront.countryCode) \(storefront.name) "
            + "\(storefront.currency) (\(storefront.currency.fractionDigits) digits) \(storefront.languages) "
            + "\(locale.identifier) [\(locale.language) \(locale.script ?? "-") \(locale.region ?? "-") \(locale.currency)] "
            + (storefront.note ?? "")
    }

    @Test func thereAre175StorefrontsAsTheReferenceCounts() {
        let all = Storefront.all
        #expect(all.count == 175)
        #expect(Set(all.map(\.id)).count == 175)
        #expect(Set(all.map(\.alpha2)).count == 175)
        #expect(Set(all.map(\.countryCode)).count == 175)
        #expect(all.filter { $0.currency.code == "USD" }.count == 109)
        #expect(all.filter { $0.currency.code == "EUR" }.count == 25)
        #expect(Set(all.map(\.currency)).count == 43)
    }

    /// The reference table, kept in the repository so that this check runs in every clone.
    @Test func matchesTheReferenceTable() throws {
        let lines = try String(contentsOf: Self.referenceCSV, encoding: .utf8).split(separator: "\n").dropFirst()
        let expected = lines.map { String($0) }
        let actual = Storefront.all.map {
            [$0.alpha2, $0.countryCode, String($0.id), $0.name, $0.currency.code, $0.languages.joined(separator: ";")]
                .joined(separator: ",")
        }
        #expect(actual == expected)
    }

    static let referenceCSV = repositoryFile("Tests/Fixtures/reference/storefronts.csv")
    static let sharedReferenceCSV = repositoryFile("../shared/reference/storefronts.csv")

    /// The repository's copy of the reference table is the shared one, where that is beside the
    /// repository (as in CI), so that a change to the shared facts is noticed.
    @Test(.enabled(
        if: FileManager.default.fileExists(atPath: sharedReferenceCSV.path),
        "../shared/reference/storefronts.csv is not beside the repository"))
    func theRepositoryCopyOfTheReferenceIsTheSharedOne() throws {
        expectBytes(
            try String(contentsOf: Self.referenceCSV, encoding: .utf8),
            try String(contentsOf: Self.sharedReferenceCSV, encoding: .utf8))
    }

    @Test func everyDefaultPriceLocaleFormatsZeroACentAndThousands() throws {
        for storefront in Storefront.all {
            let formatter = try PriceFormatter(locale: storefront.priceLocale)
            #expect(storefront.priceLocale.currency == storefront.currency)
            #expect(storefront.priceLocale.region == storefront.alpha2, "\(storefront)")
            var amounts = ["0", "1234"]
            if storefront.currency.fractionDigits >= 2 { amounts.append("0.99") }
            for amount in amounts {
                // Against ICU's older API, which reads the currency from the locale's keyword itself.
                let expected = ICULegacyFormat.currency(amount, locale: storefront.priceLocale.identifier) ?? "(no result)"
                expectBytes(try formatter.format(amount: amount), expected, "\(storefront) \(amount)")
            }
        }
    }

    @Test(arguments: [
        ("JPN", "1200", "\u{FFE5}1,200"),
        ("USA", "0.99", "$0.99"),
        ("BHS", "0.99", "US$0.99"),
        ("CHE", "1234.5", "CHF\u{00A0}1\u{2019}234.50"),
        ("DNK", "49", "49,00\u{00A0}kr."),
        ("CAN", "1.99", "$1.99"),
        ("ECU", "0.99", "$0,99"),
        ("BGR", "1234.5", "1234,50\u{00A0}€"),
        ("POL", "114.99", "114,99\u{00A0}zł"),
        ("TUR", "12.99", "₺12,99"),
        ("SAU", "9.99", "\u{200F}٩٫٩٩\u{00A0}ر.س.\u{200F}"),
        ("KOR", "1200", "₩1,200"),
        ("CPV", "1234.5", "1234,50\u{00A0}US$"),
    ])
    func defaultPriceLocalesShowPricesAsTheLocalStoreDoes(_ code: String, _ amount: String, _ expected: String) throws {
        let storefront = try Storefront(code)
        expectBytes(try PriceFormatter(locale: storefront.priceLocale).format(amount: amount), expected, code)
    }

    @Test(arguments: [
        ("JPN", "ja_JP@currency=JPY"), ("DNK", "da_DK@currency=DKK"), ("CHE", "de_CH@currency=CHF"),
        ("CAN", "en_CA@currency=CAD"), ("BHS", "en_BS@currency=USD"), ("ECU", "es_EC@currency=USD"),
        ("BGR", "bg_BG@currency=EUR"), ("POL", "pl_PL@currency=PLN"),
    ])
    func defaultPriceLocalesAreTheLocalLanguage(_ code: String, _ identifier: String) throws {
        #expect(try Storefront(code).priceLocale.identifier == identifier)
    }

    @Test func keepsApplesLanguagesBesideTheLocalChoice() throws {
        #expect(try Storefront("DNK").languages == ["en-GB", "da"])
        #expect(try Storefront("POL").languages == ["en-GB", "pl"])
    }

    @Test func looksUpByEveryCodeInAnyCase() throws {
        for storefront in Storefront.all {
            #expect(try Storefront(String(storefront.id)) == storefront)
            #expect(try Storefront(storefront.alpha2) == storefront)
            #expect(try Storefront(storefront.countryCode) == storefront)
            #expect(try Storefront(storefront.countryCode.lowercased()) == storefront)
        }
        #expect(try Storefront("143462").countryCode == "JPN")
        #expect(try Storefront("jp").countryCode == "JPN")
        #expect(try Storefront("XKS").name == "Kosovo")
    }

    @Test(arguments: [
        ("JPX", "unknown storefront 'JPX'; did you mean JPN?"),
        ("UK", "unknown storefront 'UK'; did you mean GB, GBR?"),
        ("JA", "unknown storefront 'JA'; did you mean JM, JO, JP?"),
        ("Japan", "unknown storefront 'Japan'; did you mean JPN?"),
        ("united", "unknown storefront 'united'; did you mean ARE, GBR, USA?"),
        ("143463x", "unknown storefront '143463x'; use a numeric ID (143462), an alpha-3 (JPN) or an alpha-2 (JP) code"),
        ("", "unknown storefront ''; use a numeric ID (143462), an alpha-3 (JPN) or an alpha-2 (JP) code"),
        ("Atlantis", "unknown storefront 'Atlantis'; use a numeric ID (143462), an alpha-3 (JPN) or an alpha-2 (JP) code"),
        ("143999", "unknown storefront '143999'; did you mean 143499, 143599?"),
        ("1434", "unknown storefront '1434'; did you mean 143441, 143442, 143443?"),
    ])
    func anUnknownCodeSuggestsTheClosest(_ code: String, _ message: String) {
        #expect {
            try Storefront(code)
        } throws: { error in
            expectBytes(String(describing: error), message, code)
            return true
        }
    }

    @Test(arguments: [
        ("CAN", "fr", "fr_CA@currency=CAD"),
        ("CAN", "fr-CA", "fr_CA@currency=CAD"),
        ("HKG", "en-GB", "en_HK@currency=HKD"),
        ("HKG", "zh-Hant-TW", "zh_Hant_HK@currency=HKD"),
        ("CHE", "it", "it_CH@currency=CHF"),
        ("USA", "es-MX", "es_US@currency=USD"),
        ("SAU", "en-GB", "en_SA@currency=SAR"),
    ])
    func otherStoreLanguagesKeepTheRegionAndCurrency(_ code: String, _ language: String, _ identifier: String) throws {
        #expect(try Storefront(code).priceLocale(language: language).identifier == identifier)
    }

    @Test func anUnknownStoreLanguageIsAnError() {
        #expect {
            try Storefront("CAN").priceLocale(language: "xx")
        } throws: { error in
            expectBytes(
                String(describing: error), "unsupported locale 'xx': ICU has no locale data for language 'xx'")
            return true
        }
    }
}
