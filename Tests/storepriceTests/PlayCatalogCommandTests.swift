import Foundation
import TestSupport
import Testing

/// `--catalog-format play`: Google Play catalogs (Tests/Fixtures/google-play) rendered,
/// snapshotted, verified and worded as a paywall, as a user runs them.
@Suite struct PlayCatalogCommandTests {
    static let folder = "Tests/Fixtures/google-play"

    func productList(_ ids: [String], in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("ids.json").path
        try Data(("[" + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func rendersPlayRegionsInThePlayStyle() throws {
        let directory = try temporaryDirectory()
        let ids = try productList(["coins_100", "premium:monthly"], in: directory)
        let run = try runStorePrice(["render", Self.folder, "--catalog-format", "play", "--storefronts", "UA,RU", "--products", ids])
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.output, """
            {"product":"coins_100","storefront":"UA","account":null,"price_locale":"uk_UA@currency=UAH","amount":"44.99","formatted":"44,99\u{00A0}грн","title":"100 Coins","period":null,"price_per_period":null,"offer":null,"offer_terms":null,"offers":null,"billing_plans":null,"paywall":null}
            {"product":"coins_100","storefront":"RU","account":null,"price_locale":"ru_RU@currency=RUB","amount":"109","formatted":"109,00\u{00A0}₽","title":"100 Coins","period":null,"price_per_period":null,"offer":null,"offer_terms":null,"offers":null,"billing_plans":null,"paywall":null}
            {"product":"premium:monthly","storefront":"UA","account":null,"price_locale":"uk_UA@currency=UAH","amount":"199","formatted":"199,00\u{00A0}грн","title":"Premium","period":"P1M","price_per_period":"199,00\u{00A0}грн на місяць","offer":null,"offer_terms":null,"offers":[],"billing_plans":[],"paywall":{"billed_amount_first":"199,00\u{00A0}грн на місяць (45,79\u{00A0}грн на тиждень)"}}

            """)
        expectBytes(run.error, """
            storeprice: invalid product premium:monthly: no price in RU
            storeprice: note: coins_100: not available to buyers in VN; left out there
            storeprice: note: level_pack: shown at the price of its buy option 'buy'; 'rent' (a rent option) left out
            storeprice: note: premium:yearly offer 'switch-to-yearly' is draft, not active; left out
            storeprice: note: coins_100, premium:monthly, premium:yearly and 1 more: Play's dollar and euro prices for regions without a price of their own (otherRegionsConfig, newRegionsConfig) are not shown; StorePrice shows only the regions' own prices
            storeprice: 1 invalid product, with rows only where priced; --strict makes this an error

            """)
    }

    @Test func byDefaultEveryBuiltInPlayTesterIsRenderedFor() throws {
        let run = try runStorePrice(["render", Self.folder, "--catalog-format", "play", "--format", "csv"])
        #expect(run.status == 0, "\(run.error)")
        let lines = run.output.split(separator: "\n")
        // 73 rows: each product in the regions that price it, for their testers (play-ru-en too).
        #expect(lines.count == 74)
        #expect(lines.contains { $0.hasPrefix("coins_100,RU,play-ru-en,en_RU@currency=RUB,109,RUB\u{00A0}109.00,") })
    }

    @Test func aSnapshotOfAPlayCatalogIsVerifiedAndAChangedPriceIsNamed() throws {
        let directory = try temporaryDirectory()
        let catalog = directory.appendingPathComponent("play")
        try FileManager.default.createDirectory(at: catalog, withIntermediateDirectories: true)
        for name in ["onetimeproducts.json", "subscriptions.json", "offers.json"] {
            try FileManager.default.copyItem(
                at: repositoryFile("\(Self.folder)/\(name)"), to: catalog.appendingPathComponent(name))
        }
        let golden = directory.appendingPathComponent("golden.jsonl").path
        let record = try runStorePrice(["snapshot", catalog.path, "--catalog-format", "play", "--output", golden])
        #expect(record.status == 0, "\(record.error)")
        let header = try String(contentsOfFile: golden, encoding: .utf8).split(separator: "\n")[0]
        #expect(header.contains(#""catalog":"play","catalog_format":"play","accounts":null,"display":"symbol","rounding":"reject","style":"play","rows":66}"#))
        let same = try runStorePrice(["verify", golden])
        #expect(same.status == 0, "\(same.output)\(same.error)")
        // Japan's coins go from 160 to 170 yen.
        let file = catalog.appendingPathComponent("onetimeproducts.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        let changed = text.replacingOccurrences(of: #""units": "160""#, with: #""units": "170""#)
        #expect(changed != text)
        try Data(changed.utf8).write(to: file)
        let differs = try runStorePrice(["verify", golden])
        #expect(differs.status == 1)
        #expect(differs.output.contains("coins_100"))
        #expect(differs.output.contains("￥170"))
    }

    @Test func aPlaySubscriptionsPaywallIsWordedWithItsOffer() throws {
        let run = try runStorePrice([
            "paywall", "--catalog", Self.folder, "--catalog-format", "play", "--product", "premium:monthly", "--storefront", "DE",
        ])
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.output, """
            period\t1 Monat
            price_per_period\t5,49\u{00A0}€ pro Monat
            billed_amount_first\t5,49\u{00A0}€ pro Monat (1,26\u{00A0}€ pro Woche)
            offer\t1 Woche gratis
            offer_then_price\t1 Woche gratis, danach 5,49\u{00A0}€ pro Monat

            """)
    }

    @Test(arguments: [
        (["render", folder, "--catalog-format", "play", "--style", "app-store"], 64,
         "Error: --style app-store writes the App Store's prices; a Play catalog (--catalog-format play) is shown in the Play style, the default, or ICU's (--style icu)."),
        (["render", folder, "--catalog-format", "play", "--accounts", "Data/test-accounts.json"], 64,
         "Error: --accounts reads App Store test accounts; a Play catalog is rendered for the built-in Play testers (storeprice accounts --store play) or for --storefronts with Play region codes, such as US,JP,BD."),
        (["render", folder, "--catalog-format", "play", "--storefronts", "JPN"], 65,
         "storeprice: unknown Google Play region 'JPN'; did you mean JP?"),
        (["render", "\(folder)/hostile/currency-not-buyer-currency.json", "--catalog-format", "play", "--storefronts", "JP"], 65,
         "storeprice: catalog 'Tests/Fixtures/google-play/hostile/currency-not-buyer-currency.json', field 'oneTimeProducts[0].purchaseOptions[0].regionalPricingAndAvailabilityConfigs[0].price.currencyCode': JP is priced in USD; Play bills JP in JPY (regionsVersion 2025/03), and StorePrice never converts"),
        (["render", "\(folder)/offers.json"], 65,
         "storeprice: catalog 'Tests/Fixtures/google-play/offers.json': this is a Google Play Developer API document, not an App Store Connect response; read it as a Google Play catalog, format play"),
        (["render", "\(folder)/console/in_app_products.csv"], 65,
         "storeprice: catalog 'Tests/Fixtures/google-play/console/in_app_products.csv', line 1: this is the Play Console's CSV of in-app products; read it as a Google Play catalog, format play"),
        (["render", "-", "--catalog-format", "play"], 65,
         "storeprice: catalog '-': Play documents are read from files; give the file or the folder that holds them"),
        (["snapshot", folder, "--catalog-format", "play", "--accounts", "Data/test-accounts.json"], 64,
         "Error: --accounts reads App Store test accounts; a Play catalog's snapshot is of the built-in Play testers (storeprice accounts --store play)."),
    ] as [([String], Int32, String)])
    func refusedInOneLine(_ arguments: [String], _ status: Int32, _ message: String) throws {
        let run = try runStorePrice(arguments)
        #expect(run.status == status, "\(run.error)")
        #expect(run.output.isEmpty)
        let first = run.error.split(separator: "\n").first.map(String.init) ?? ""
        expectBytes(first, message, arguments.joined(separator: " "))
    }
}
