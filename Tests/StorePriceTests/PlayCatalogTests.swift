import Foundation
import StorePrice
import TestSupport
import Testing

/// Google Play catalogs: the Play Developer API's documents and the Play Console's CSV
/// (Tests/Fixtures/google-play, written from Google's reference), read as catalogs.
@Suite struct PlayCatalogTests {
    static let folder = repositoryFile("Tests/Fixtures/google-play").path

    func catalog(_ names: [String]) throws -> PlayCatalog {
        try PlayCatalog(contentsOf: names.map { "\(Self.folder)/\($0)" })
    }

    func price(_ product: Product, _ region: String) throws -> String? {
        product.price(inStorefront: try PlayRegion(region).numericID)?.amount
    }

    @Test func aFolderOfDocumentsIsOneCatalogInFileOrder() throws {
        let files = try PlayCatalog.documentFiles(in: Self.folder)
        #expect(files.map { URL(fileURLWithPath: $0).lastPathComponent }
            == ["inappproducts.json", "offers.json", "onetimeproducts.json", "subscriptions.json"])
        let catalog = try PlayCatalog(contentsOf: files)
        #expect(catalog.products.products.map(\.id)
            == ["gems_small", "coins_100", "level_pack", "premium:monthly", "premium:yearly", "premium:month-pass"])
        #expect(catalog.notes == [
            "coins_100: not available to buyers in VN; left out there",
            "level_pack: shown at the price of its buy option 'buy'; 'rent' (a rent option) left out",
            "premium:yearly offer 'switch-to-yearly' is draft, not active; left out",
            "coins_100, premium:monthly, premium:yearly and 1 more: Play's dollar and euro prices for regions without a price of their own (otherRegionsConfig, newRegionsConfig) are not shown; StorePrice shows only the regions' own prices",
        ])
    }

    @Test func moneyIsReadExactlyInEachRegionsBuyerCurrency() throws {
        let products = try catalog(["onetimeproducts.json"]).products.products
        let coins = try #require(products.first)
        #expect(try price(coins, "US") == "0.99")
        #expect(try price(coins, "JP") == "160")
        #expect(try price(coins, "AR") == "0.99")
        #expect(coins.price(inStorefront: try PlayRegion("AR").numericID)?.currency.code == "USD")
        #expect(try price(coins, "UA") == "44.99")
        // NO_LONGER_AVAILABLE: not sold there.
        #expect(try price(coins, "VN") == nil)
        #expect(coins.titles["ja-JP"] == "コイン100枚")
    }

    @Test func eachBasePlanIsAProductWithItsPeriodAndOffers() throws {
        let products = try catalog(["subscriptions.json", "offers.json"]).products.products
        let monthly = try #require(products.first { $0.id == "premium:monthly" })
        let terms = try #require(monthly.subscription)
        #expect(terms.period == (try SubscriptionPeriod("P1M")))
        #expect(terms.introductoryOffers.map(\.id) == ["free-week", "intro-3-months"])
        let trial = terms.introductoryOffers[0]
        #expect(trial.paymentMode == .freeTrial)
        #expect(trial.storefronts == Set(try ["DE", "JP", "US"].map { try PlayRegion($0).numericID }))
        // A price, half off 800 yen, and 2 euros off 5.49, each exactly.
        let discounted = terms.introductoryOffers[1]
        #expect(discounted.paymentMode == .payAsYouGo)
        #expect(discounted.periodCount == 3)
        #expect(discounted.prices[try PlayRegion("US").numericID]?.amount == "1.99")
        #expect(discounted.prices[try PlayRegion("JP").numericID]?.amount == "400")
        #expect(discounted.prices[try PlayRegion("DE").numericID]?.amount == "3.49")
        let prepaid = try #require(products.first { $0.id == "premium:month-pass" })
        #expect(prepaid.subscription?.period == (try SubscriptionPeriod("P1M")))
    }

    @Test func theLegacyInAppProductsAndTheConsolesCSVAreRead() throws {
        let legacy = try catalog(["inappproducts.json"]).products.products
        #expect(legacy.map(\.id) == ["gems_small"])
        #expect(try price(legacy[0], "RU") == "109")
        let console = try PlayCatalog(contentsOf: ["\(Self.folder)/console/in_app_products.csv"])
        #expect(console.products.products.map(\.id) == ["gems_bundle", "gems_small"])
        // A quoted field keeps its comma; `\;` is a semicolon.
        #expect(console.products.products[0].titles["en-US"] == "Gems, Gold ; Glory")
        #expect(try price(console.products.products[0], "JP") == "480")
        #expect(console.notes == [
            "gems_large (line 3): Auto Fill Prices is true, so Play converts its prices from the default price, and the file gives none of its own per region; left out",
        ])
    }

    /// Google's own examples (the reference of `RegionalSubscriptionOfferPhaseConfig`): a base plan
    /// of $12 a year; $1 off over a phase of 3 months is $2, and 50% off is $1.50.
    @Test func aDiscountIsOfTheBasePlansPriceProratedOverThePhase() throws {
        let plan = #"""
            {"productId":"premium","basePlans":[{"basePlanId":"yearly","state":"ACTIVE",
             "autoRenewingBasePlanType":{"billingPeriodDuration":"P1Y"},
             "regionalConfigs":[{"regionCode":"US","newSubscriberAvailability":true,"price":{"currencyCode":"USD","units":"12"}}]}]}
            """#
        func offer(_ id: String, _ discount: String) -> String {
            #"""
            {"productId":"premium","basePlanId":"yearly","offerId":"\#(id)","state":"ACTIVE","targeting":{"acquisitionRule":{}},
             "phases":[{"recurrenceCount":1,"duration":"P3M","regionalConfigs":[{"regionCode":"US",\#(discount)}]}]}
            """#
        }
        let catalog = try PlayCatalog(documents: [
            ("plan.json", Array(plan.utf8)),
            ("absolute.json", Array(offer("dollar-off", #""absoluteDiscount":{"currencyCode":"USD","units":"1"}"#).utf8)),
            ("relative.json", Array(offer("half-off", #""relativeDiscount":0.5"#).utf8)),
        ])
        let offers = try #require(catalog.products.products.first?.subscription?.introductoryOffers)
        let us = try PlayRegion("US").numericID
        #expect(offers.map { $0.prices[us]?.amount } == ["2", "1.5"])
        #expect(offers.map(\.paymentMode) == [.payUpFront, .payUpFront])
    }

    @Test func aRelativeDiscountIsExactAndThePlayStyleRoundsIt() throws {
        let offer = #"""
            {"productId":"premium","basePlanId":"monthly","offerId":"third-off","state":"ACTIVE",
             "phases":[{"recurrenceCount":2,"duration":"P1M","regionalConfigs":[{"regionCode":"US","relativeDiscount":0.3}]}]}
            """#
        let plan = #"""
            {"productId":"premium","basePlans":[{"basePlanId":"monthly","state":"ACTIVE",
             "autoRenewingBasePlanType":{"billingPeriodDuration":"P1M"},
             "regionalConfigs":[{"regionCode":"US","newSubscriberAvailability":true,"price":{"currencyCode":"USD","units":"4","nanos":990000000}}]}]}
            """#
        let catalog = try PlayCatalog(documents: [("plan.json", Array(plan.utf8)), ("offer.json", Array(offer.utf8))])
        let product = try #require(catalog.products.products.first)
        let us = try PlayRegion("US")
        // Without an acquisition rule, an offer is the developer's to give: a promotional offer.
        let offerPrice = try #require(product.subscription?.promotionalOffers.first?.prices[us.numericID])
        #expect(offerPrice.amount == "3.493")
        let formatter = try PriceFormatter(locale: us.priceLocale(language: "en"), options: .init(style: .play))
        expectBytes(try formatter.format(offerPrice), "$3.49")
    }

    @Test(arguments: [
        ("base-plan-id-underscore.json",
         ", field 'subscriptions[0].basePlans[0].basePlanId': 'month_pass' is not a Google Play base plan ID: 1 to 63 lower-case letters, digits or '-', starting with a letter or digit"),
        ("currency-not-buyer-currency.json",
         ", field 'oneTimeProducts[0].purchaseOptions[0].regionalPricingAndAvailabilityConfigs[0].price.currencyCode': JP is priced in USD; Play bills JP in JPY (regionsVersion 2025/03), and StorePrice never converts"),
        ("duplicate-region-code.json",
         ", field 'oneTimeProducts[0].purchaseOptions[0].regionalPricingAndAvailabilityConfigs[1].regionCode': US again in one purchase option"),
        ("money-nanos-out-of-range.json",
         ", field 'oneTimeProducts[0].purchaseOptions[0].regionalPricingAndAvailabilityConfigs[0].price': invalid amount 'units 4, nanos 1000000000': nanos is from -999999999 to 999999999"),
        ("money-sign-mismatch.json",
         ", field 'oneTimeProducts[0].purchaseOptions[0].regionalPricingAndAvailabilityConfigs[0].price': invalid amount 'units -1, nanos 990000000': nanos has the sign of units (-1.5 is units \"-1\", nanos -500000000)"),
        ("product-id-uppercase.json",
         ", field 'oneTimeProducts[0].productId': 'Coins_100' is not a Google Play product ID: a lower-case letter or digit, then lower-case letters, digits, '_' or '.'"),
        ("units-as-number.json",
         ": not a Play Developer API document (oneTimeProducts[0].purchaseOptions[0].regionalPricingAndAvailabilityConfigs[0].price.units: expected text in quotes; got a number)"),
        ("unknown-region-xx.json",
         ", field 'oneTimeProducts[0].purchaseOptions[0].regionalPricingAndAvailabilityConfigs[0].regionCode': unknown Google Play region 'XX'; did you mean MX?"),
    ])
    func whatPlayWouldNotWriteIsNamedByFileAndField(_ name: String, _ message: String) throws {
        let path = "\(Self.folder)/hostile/\(name)"
        let error = #expect(throws: StorePriceError.self) { try PlayCatalog(contentsOf: [path]) }
        expectBytes(error?.description ?? "", "catalog '\(path)'\(message)", name)
    }

    /// A Console export saved on Windows (CRLF), its default price first under the home country
    /// and that country again among the regions, as the Console writes it.
    @Test func aConsoleExportSavedOnWindowsWithItsDefaultPriceIsRead() throws {
        let csv = "Product ID,Published State,Purchase Type,Auto Translate,Locale; Title; Description,Auto Fill Prices,Price,Pricing Template ID\r\n"
            + "coins,published,managed_by_android,false,en-US; Coins; A bag; iw-IL; מטבעות; שקית,false,US; 1000000; DE; 1090000; US; 990000,\r\n"
            + "old,unpublished,managed_by_android,false,en-US; Old; Gone,false,US; 990000,\r\n"
        let catalog = try PlayCatalog(documents: [("in_app_products.csv", Array(csv.utf8))])
        let coins = try #require(catalog.products.products.first)
        #expect(catalog.products.products.count == 1)
        #expect(try price(coins, "US") == "0.99")
        #expect(try price(coins, "DE") == "1.09")
        // Play's code for Hebrew, iw, is today's he.
        #expect(coins.titles["he-IL"] == "מטבעות")
        #expect(catalog.notes == ["'in_app_products.csv': 1 unpublished product left out; Play sells only published ones"])
    }

    @Test(arguments: [
        ([], "catalog 'p.json': empty; a Play Developer API document is a JSON object"),
        (Array(#"{"sku":"caf"#.utf8) + [0xE9] + Array(#""}"#.utf8), "catalog 'p.json': not UTF-8 text; the Play Developer API writes JSON in UTF-8"),
        (Array(#"{"kind":"androidpublisher#inappproductsListResponse"}"#.utf8), nil),
        (Array("{}".utf8), nil),
    ] as [([UInt8], String?)])
    func anEmptyOrForeignFileIsSaidInWords(_ bytes: [UInt8], _ message: String?) throws {
        do {
            let catalog = try PlayCatalog(documents: [("p.json", bytes)])
            #expect(message == nil)
            #expect(catalog.products.products.isEmpty)
        } catch {
            expectBytes(error.description, message ?? "no error")
        }
    }

    @Test func aOneTimeProductIDHasNoColon() throws {
        let product = #"{"productId":"coins:100","purchaseOptions":[{"purchaseOptionId":"buy","buyOption":{}}]}"#
        let error = #expect(throws: StorePriceError.self) { try PlayCatalog(documents: [("p.json", Array(product.utf8))]) }
        expectBytes(
            error?.description ?? "",
            "catalog 'p.json', field 'productId': 'coins:100' is not a Google Play product ID: a lower-case letter or digit, then lower-case letters, digits, '_' or '.'")
    }

    @Test(arguments: [
        ("coins_100", nil), ("premium:monthly", nil), ("1up.pack", nil),
        ("Coins", "'Coins' is not a Google Play product ID: a lower-case letter or digit, then lower-case letters, digits, '_' or '.'"),
        ("_coins", "'_coins' is not a Google Play product ID: a lower-case letter or digit, then lower-case letters, digits, '_' or '.'"),
        ("premium:month_pass", "'month_pass' is not a Google Play base plan ID: 1 to 63 lower-case letters, digits or '-', starting with a letter or digit"),
        ("premium:", "'' is not a Google Play base plan ID: 1 to 63 lower-case letters, digits or '-', starting with a letter or digit"),
    ] as [(String, String?)])
    func productIDsAreThosePlayAllows(_ id: String, _ problem: String?) {
        #expect(ProductIDRule.googlePlay.problem(with: id) == problem)
    }

    @Test func aPlayRegionStandsAsAStorefrontApartFromTheAppStores() throws {
        let bangladesh = try PlayRegion("BD")
        let storefront = bangladesh.storefront
        #expect(storefront.isPlayRegion)
        #expect(storefront.countryCode == "BD")
        #expect(storefront.numericID == 2_000_000 + 1 * 26 + 3)
        #expect(storefront.priceLocale == bangladesh.priceLocale)
        #expect(!(try Storefront("JPN")).isPlayRegion)
        #expect(Storefront.all.allSatisfy { $0.numericID < PlayRegion.firstNumericID })
        #expect(throws: StorePriceError.self) { try Storefront(String(storefront.numericID)) }
        let tester = try PlayTester.named("play-ru-en").account
        #expect(tester.storefront == (try PlayRegion("RU")).storefront)
        #expect(tester.priceLocale.identifier == "en_RU@currency=RUB")
    }
}
