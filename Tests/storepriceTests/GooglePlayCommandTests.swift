import Foundation
import TestSupport
import Testing

/// `--store play`: Google Play prices and regions from the command line, as a user runs them.
@Suite struct GooglePlayCommandTests {
    @Test(arguments: [
        (["format", "0.99", "--store", "play", "--region", "RU", "--language", "en"], "RUB\u{00A0}0.99\n",
         "storeprice: note: Google Play price locale en_RU@currency=RUB: a device in 'en' in RU\n"),
        (["format", "0.99", "--store", "play", "--region", "ru"], "0,99\u{00A0}\u{20BD}\n",
         "storeprice: note: Google Play price locale ru_RU@currency=RUB: RU's most common language (ru); give --language, the buyer's device language, when you know it\n"),
        (["format", "5517539436", "--micros", "--store", "play", "--region", "IN", "--language", "en", "--style", "play"],
         "\u{20B9}5,517.54\n", "storeprice: note: Google Play price locale en_IN@currency=INR: a device in 'en' in IN\n"),
        (["format", "0", "--store", "play", "--region", "GB", "--language", "en", "--style", "play"], "Free\n",
         "storeprice: note: Google Play price locale en_GB@currency=GBP: a device in 'en' in GB\n"),
        (["format", "1", "--store", "play", "--region", "KR", "--language", "ko", "--currency", "USD"], "US$1.00\n",
         "storeprice: note: Google Play price locale ko_KR@currency=USD: a device in 'ko' in KR; the price is in USD, not KR's buyer currency KRW\n"),
        (["format", "990000..49990000", "--micros", "--store", "play", "--region", "US", "--language", "en", "--style", "play"],
         "$0.99 - $49.99 per item\n", "storeprice: note: Google Play price locale en_US@currency=USD: a device in 'en' in US\n"),
        (["format", "1", "--store", "play", "--region", "AR"], "US$\u{00A0}1,00\n",
         "storeprice: note: Google Play price locale es_AR@currency=USD: AR's most common language (es); give --language, the buyer's device language, when you know it; AR's buyer currency USD is only in a hand-written list of Play's regions\n"),
    ])
    func formatsAPlayPriceAndNamesItsLocale(_ arguments: [String], _ output: String, _ note: String) throws {
        let run = try runStorePrice(arguments)
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.output, output, arguments.joined(separator: " "))
        expectBytes(run.error, note, arguments.joined(separator: " "))
    }

    @Test(arguments: [
        (["format", "1", "--region", "RU"], 64,
         "Error: --region names a Google Play region; add --store play, or give an App Store storefront with --storefront."),
        (["format", "1", "--store", "play", "--storefront", "JPN"], 64,
         "Error: --storefront names the App Store; give a Google Play region with --region, such as --store play --region RU."),
        (["format", "1", "--store", "play"], 64,
         "Error: Give a Google Play region: --store play --region RU, or a Play tester: --store play --account play-ru-en."),
        (["format", "1", "--storefront", "JPN", "--currency", "USD"], 64,
         "Error: --currency goes with --region, such as --store play --region KR --currency USD."),
        (["format", "1..2", "--store", "play", "--region", "US"], 64,
         "Error: '1..2' is a range, which only the Play style writes (--store play --style play)."),
        (["format", "1", "--store", "play", "--region", "RUS"], 65, "storeprice: unknown Google Play region 'RUS'; did you mean RU?"),
        (["format", "1.5", "--micros", "--store", "play", "--region", "US"], 65,
         "storeprice: invalid amount '1.5': micros are a whole number of millionths (an int64, such as 990000 for 0.99)"),
        (["format", "72.407614", "--store", "play", "--region", "IN"], 65,
         "storeprice: '72.407614' needs 6 fraction digits; INR prices show 2 fraction digits; give a rounding, such as half-even, to round it (--rounding half-even)"),
        (["format", "1..2", "--store", "play", "--region", "DE", "--style", "play"], 65,
         "storeprice: unsupported locale 'de_DE@currency=EUR': no evidence of Google Play's wording of in-app price ranges in 'de'; it is known in en, pt, uk"),
        (["format", "1", "--store", "play", "--region", "US", "--style", "play", "--display", "iso"], 64,
         "Error: --display iso goes with the ICU style; the Play style writes the currency as Google Play does."),
        (["render", "Data/catalog-sample.jsonl", "--style", "play"], 64,
         "Error: --style play writes Google Play's prices, which 'storeprice format --store play' and Play catalogs (--catalog-format play) show; 'storeprice render' shows App Store storefronts' prices here: use --style icu or app-store."),
        (["paywall", "--storefront", "UKR", "--price", "99", "--period", "P1M", "--style", "play"], 64,
         "Error: --style play writes Google Play's prices, which 'storeprice format --store play' and Play catalogs (--catalog-format play) show; 'storeprice paywall' shows App Store storefronts' prices here: use --style icu or app-store."),
        (["snapshot", "Data/catalog-sample.jsonl", "--style", "play"], 64,
         "Error: --style play writes Google Play's prices, which 'storeprice format --store play' and Play catalogs (--catalog-format play) show; 'storeprice snapshot' shows App Store storefronts' prices here: use --style icu or app-store."),
        (["format", "--batch", "--micros"], 64,
         "Error: --batch reads PRICE_LOCALE<TAB>AMOUNT lines with decimal amounts; remove --micros."),
        (["format", "0.99..4.99", "--store", "play", "--region", "US", "--style", "play", "--period", "P1M"], 64,
         "Error: A range of in-app prices has no period or offer; remove --period."),
        (["format", "1..", "--store", "play", "--region", "US", "--style", "play"], 64,
         "Error: '1..' is not a range: write LOW..HIGH, such as 0.99..49.99."),
        (["format", "0", "--storefront", "USA", "--style", "play"], 64,
         "Error: --style play writes Google Play's prices; add --store play with a --region or a Play tester's --account, or give a --locale."),
        (["format", "9.99", "--store", "play", "--region", "US", "--period", "P1M"], 64,
         "Error: --period words an App Store subscription's periods; Play's base plans and offers are not read yet, so it does not go with --store play."),
        (["format", "1", "--micros", "--store", "play", "--region", "US"], 65,
         "storeprice: '0.000001' needs 6 fraction digits; USD prices show 2 fraction digits; give a rounding, such as half-even, to round it (--rounding half-even)"),
        (["format", "1", "--account", "play-ru-en"], 65,
         "storeprice: no test account named 'play-ru-en' in 'built-in'; 'play-ru-en' is a Google Play tester: add --store play"),
    ])
    func refusesWhatItCannotShowInOneLine(_ arguments: [String], _ status: Int32, _ message: String) throws {
        let run = try runStorePrice(arguments)
        #expect(run.status == status, "\(arguments)")
        let lines = run.error.split(separator: "\n").filter { !$0.hasPrefix("storeprice: note:") }
        expectBytes(String(lines.first ?? ""), message, arguments.joined(separator: " "))
    }

    @Test func listsPlaysRegions() throws {
        let run = try runStorePrice(["storefronts", "--store", "play", "--format", "csv"])
        #expect(run.status == 0, "\(run.error)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 174)
        expectBytes(lines[0], "region,name,currency,confidence,language,price_locale,regions_version,sources")
        #expect(lines.contains("BG,Bulgaria,EUR,changed,bg,bg_BG@currency=EUR,2025/03,A;B;D"))
        #expect(lines.contains("AR,Argentina,USD,listed,es,es_AR@currency=USD,2025/03,B"))
        #expect(lines.contains("RU,Russia,RUB,confirmed,ru,ru_RU@currency=RUB,2025/03,A;B;D"))
    }

    @Test func listsThePlayTestersAndFormatsAsOneSees() throws {
        let list = try runStorePrice(["accounts", "--store", "play", "--format", "csv"])
        #expect(list.status == 0, "\(list.error)")
        let lines = list.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 183)
        expectBytes(lines[0], "name,email,region,device_language,description,currency,price_locale")
        #expect(lines.contains("play-ru,play+ru@example.com,RU,,,RUB,ru_RU@currency=RUB"))
        let run = try runStorePrice(["format", "0.99", "--store", "play", "--account", "play-ru-en"])
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.output, "RUB\u{00A0}0.99\n")
        expectBytes(run.error, "storeprice: note: Google Play price locale en_RU@currency=RUB: a device in 'en' in RU\n")
    }

    @Test func aBatchOfPlayPriceLocalesIsWrittenInThePlayStyle() throws {
        let input = "uk_UA@currency=UAH\t209.99\nen_US@currency=USD\t0\nen_IN@currency=INR\t5517.539436\n"
        let run = try runStorePrice(["format", "--batch", "--style", "play"], input: Data(input.utf8))
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.output, """
            uk_UA@currency=UAH\t209.99\t209,99\u{00A0}\u{0433}\u{0440}\u{043D}
            en_US@currency=USD\t0\tFree
            en_IN@currency=INR\t5517.539436\t\u{20B9}5,517.54

            """)
    }

    @Test func showsOneRegion() throws {
        let run = try runStorePrice(["storefronts", "ua", "--store", "play"])
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.output, """
            REGION  NAME     CURRENCY  CONFIDENCE  LANGUAGE  PRICE LOCALE        REGIONS VERSION  SOURCES
            UA      Ukraine  UAH       confirmed   uk        uk_UA@currency=UAH  2025/03          A;B;D

            """)
    }
}
