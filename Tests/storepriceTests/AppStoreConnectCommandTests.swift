import Foundation
import TestSupport
import Testing

/// `storeprice render` of a folder of App Store Connect responses (Tests/Fixtures/app-store-connect):
/// products named by the lists, each price its price point's customerPrice, the one in effect on
/// `--date`.
@Suite struct AppStoreConnectCommandTests {
    static let folder = repositoryFile("Tests/Fixtures/app-store-connect").path
    static let header = "product,storefront,account,price_locale,amount,formatted,title,period,price_per_period,offer,offer_terms,offers,billing_plans,paywall\n"

    /// Before Japan's automatic price changed (2026-05-01) and the subscription's raise in the USA
    /// (2026-03-03); between them and the coins' manual raise (2027-01-01); and on the raise's day.
    /// The app's own price (manual in the USA, automatic in Japan) comes first, as the app lists
    /// first; the subscription's offers are those in effect on the day: a free week in both, a
    /// promotional offer and an offer code in both, and from 2026-06-01 a win-back offer in the USA.
    @Test(arguments: [
        ("2026-01-15",
         "com.example.app,USA,,en_US@currency=USD,2.99,$2.99,,,,,,,,\n"
            + "com.example.app,JPN,,ja_JP@currency=JPY,500,￥500,,,,,,,,\n"
            + "com.example.coins,USA,,en_US@currency=USD,0.99,$0.99,,,,,,,,\n"
            + "com.example.coins,JPN,,ja_JP@currency=JPY,160,￥160,,,,,,,,\n"
            + "com.example.pro.monthly,USA,,en_US@currency=USD,3.99,$3.99,Pro,P1M,$3.99 per month,1 week free,free:P1W,"
            + "introductory: 1 week free; promotional pro_2m_upfront: $4.99 for 2 months; offer_code Newsletter 3 months: $2.99 per month for 3 months,,"
            + "\"billed_amount_first: $3.99 per month ($0.91 per week); offer_then_price: 1 week free, then $3.99 per month\"\n"
            + "com.example.pro.monthly,JPN,,ja_JP@currency=JPY,800,￥800,プロ,P1M,￥800/月,1 週間無料,free:P1W,"
            + "\"introductory: 1 週間無料; promotional pro_2m_upfront: ￥1,000（2 か月）; offer_code Newsletter 3 months: ￥400/月（3 か月）\",,"
            + "billed_amount_first: ￥800/月 (￥184/週); offer_then_price: 1 週間無料、その後￥800/月\n"),
        ("2026-11-28",
         "com.example.app,USA,,en_US@currency=USD,2.99,$2.99,,,,,,,,\n"
            + "com.example.app,JPN,,ja_JP@currency=JPY,500,￥500,,,,,,,,\n"
            + "com.example.coins,USA,,en_US@currency=USD,0.99,$0.99,,,,,,,,\n"
            + "com.example.coins,JPN,,ja_JP@currency=JPY,150,￥150,,,,,,,,\n"
            + "com.example.pro.monthly,USA,,en_US@currency=USD,4.99,$4.99,Pro,P1M,$4.99 per month,1 week free,free:P1W,"
            + "introductory: 1 week free; promotional pro_2m_upfront: $4.99 for 2 months; offer_code Newsletter 3 months: $2.99 per month for 3 months; "
            + "win_back pro_winback_3m: $1.99 per month for 3 months,,"
            + "\"billed_amount_first: $4.99 per month ($1.14 per week); offer_then_price: 1 week free, then $4.99 per month\"\n"
            + "com.example.pro.monthly,JPN,,ja_JP@currency=JPY,800,￥800,プロ,P1M,￥800/月,1 週間無料,free:P1W,"
            + "\"introductory: 1 週間無料; promotional pro_2m_upfront: ￥1,000（2 か月）; offer_code Newsletter 3 months: ￥400/月（3 か月）\",,"
            + "billed_amount_first: ￥800/月 (￥184/週); offer_then_price: 1 週間無料、その後￥800/月\n"),
        ("2027-01-01",
         "com.example.app,USA,,en_US@currency=USD,2.99,$2.99,,,,,,,,\n"
            + "com.example.app,JPN,,ja_JP@currency=JPY,500,￥500,,,,,,,,\n"
            + "com.example.coins,USA,,en_US@currency=USD,1.99,$1.99,,,,,,,,\n"
            + "com.example.coins,JPN,,ja_JP@currency=JPY,150,￥150,,,,,,,,\n"
            + "com.example.pro.monthly,USA,,en_US@currency=USD,4.99,$4.99,Pro,P1M,$4.99 per month,1 week free,free:P1W,"
            + "introductory: 1 week free; promotional pro_2m_upfront: $4.99 for 2 months; offer_code Newsletter 3 months: $2.99 per month for 3 months; "
            + "win_back pro_winback_3m: $1.99 per month for 3 months,,"
            + "\"billed_amount_first: $4.99 per month ($1.14 per week); offer_then_price: 1 week free, then $4.99 per month\"\n"
            + "com.example.pro.monthly,JPN,,ja_JP@currency=JPY,800,￥800,プロ,P1M,￥800/月,1 週間無料,free:P1W,"
            + "\"introductory: 1 週間無料; promotional pro_2m_upfront: ￥1,000（2 か月）; offer_code Newsletter 3 months: ￥400/月（3 か月）\",,"
            + "billed_amount_first: ￥800/月 (￥184/週); offer_then_price: 1 週間無料、その後￥800/月\n"),
    ])
    func thePriceInEffectOnTheDay(_ day: String, _ rows: String) throws {
        let run = try runStorePrice(["render", Self.folder, "--storefronts", "USA,JPN", "--date", day, "--format", "csv"])
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.output, Self.header + rows)
    }

    /// What was left out is said once, after the rows: a later price, a listed product without
    /// prices.
    @Test func whatIsLeftOutIsNoted() throws {
        let run = try runStorePrice(["render", Self.folder, "--storefronts", "IDN,IND", "--date", "2026-11-28", "--format", "csv"])
        #expect(run.status == 0)
        expectBytes(
            run.output,
            Self.header + "com.example.coins,IDN,,id_ID@currency=IDR,16000,\"Rp\u{00A0}16.000,00\",,,,,,,,\n"
                + "com.example.coins,IND,,hi_IN@currency=INR,149,₹149.00,,,,,,,,\n")
        expectBytes(
            run.error,
            "storeprice: invalid product com.example.app: no price in IDN, IND\n"
                + "storeprice: invalid product com.example.pro.monthly: no price in IDN, IND\n"
                + "storeprice: note: com.example.gems (in-app purchase 6444000002): no price in the responses; left out\n"
                + "storeprice: note: 1 price starts after 2026-11-28 and is not shown (the first: com.example.coins in USA "
                + "from 2027-01-01); a later date shows them\n"
                + "storeprice: 2 invalid products, with rows only where priced; --strict makes this an error\n")
    }

    /// A price that ends with none after it: the product is not sold there from its end date.
    @Test func aPriceThatEndsLeavesNoPrice() throws {
        let before = try runStorePrice(["render", Self.folder, "--storefronts", "GBR", "--date", "2026-08-31", "--format", "csv"])
        expectBytes(before.output, Self.header + "com.example.coins,GBR,,en_GB@currency=GBP,0.99,£0.99,,,,,,,,\n")
        let after = try runStorePrice(["render", Self.folder, "--storefronts", "GBR", "--date", "2026-09-01", "--format", "csv"])
        expectBytes(after.output, Self.header)
        #expect(after.error.hasPrefix("storeprice: invalid product com.example.app: no price in GBR\nstoreprice: invalid product com.example.coins: no price in GBR\n"), "\(after.error)")
    }

    /// A snapshot of responses records its day, and verify renders that day's prices again on any
    /// later day; a changed customerPrice is a change in the snapshot.
    @Test func aSnapshotVerifiesTheDayItRecorded() throws {
        let directory = try temporaryDirectory()
        let responses = directory.appendingPathComponent("asc")
        try FileManager.default.copyItem(atPath: Self.folder, toPath: responses.path)
        let golden = directory.appendingPathComponent("golden.jsonl").path
        let recorded = try runStorePrice(["snapshot", responses.path, "--date", "2026-04-01", "--output", golden])
        #expect(recorded.status == 0, "\(recorded.error)")
        let header = try String(contentsOfFile: golden, encoding: .utf8).prefix { $0 != "\n" }
        #expect(header.contains(#""catalog":"asc","catalog_format":null,"catalog_date":"2026-04-01","#), "\(header)")
        let verified = try runStorePrice(["verify", golden])
        #expect(verified.status == 0, "\(verified.error)")
        // Japan's price on 2026-04-01, 160 yen, becomes 170 in the responses.
        let page = responses.appendingPathComponent("coins-automatic-prices-1.json")
        let text = try String(contentsOf: page, encoding: .utf8)
        try text.replacingOccurrences(of: #""customerPrice": "160""#, with: #""customerPrice": "170""#)
            .write(to: page, atomically: true, encoding: .utf8)
        let changed = try runStorePrice(["verify", golden])
        #expect(changed.status == 1, "\(changed.error)")
        #expect(changed.output.contains("com.example.coins  ￥160 → ￥170"), "\(changed.output)")
    }

    /// A subscription price of another billing plan than UPFRONT is not the subscription's price,
    /// and says so.
    @Test func anotherBillingPlansPriceIsNotThePrice() throws {
        let folder = try temporaryDirectory()
        try FileManager.default.copyItem(
            atPath: Self.folder + "/subscriptions.json", toPath: folder.appendingPathComponent("subscriptions.json").path)
        let prices = folder.appendingPathComponent("prices.json")
        try Data(#"""
            {"data":[{"type":"subscriptionPrices","id":"a","attributes":{"startDate":null,"preserved":false,"planType":"UPFRONT"},
            "relationships":{"territory":{"data":{"type":"territories","id":"USA"}},"subscriptionPricePoint":{"data":{"type":"subscriptionPricePoints","id":"p1"}}}},
            {"type":"subscriptionPrices","id":"b","attributes":{"startDate":null,"preserved":false,"planType":"MONTHLY"},
            "relationships":{"territory":{"data":{"type":"territories","id":"USA"}},"subscriptionPricePoint":{"data":{"type":"subscriptionPricePoints","id":"p2"}}}}],
            "included":[{"type":"territories","id":"USA","attributes":{"currency":"USD"}},
            {"type":"subscriptionPricePoints","id":"p1","attributes":{"customerPrice":"59.99","proceeds":"42","proceedsYear2":"51"}},
            {"type":"subscriptionPricePoints","id":"p2","attributes":{"customerPrice":"5.99","proceeds":"4.2"}}],
            "links":{"self":"https://api.appstoreconnect.apple.com/v1/subscriptions/6444000010/prices"}}
            """#.utf8).write(to: prices)
        let run = try runStorePrice(["render", folder.path, "--storefronts", "USA", "--date", "2026-11-28", "--format", "csv"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("com.example.pro.monthly,USA,,en_US@currency=USD,59.99,$59.99,"), "\(run.output)")
        expectBytes(
            run.error,
            "storeprice: note: '\(prices.path)' has 1 price of the billing plan 'MONTHLY', which is not read; a subscription's "
                + "price is its UPFRONT plan's\n")
    }

    /// A manual price and an automatic one that start on the same day in one territory: the
    /// manual one is the price, whichever file is read first.
    @Test(arguments: [("a-manual.json", "b-automatic.json"), ("b-manual.json", "a-automatic.json")])
    func aManualPriceWinsOverAnAutomaticOneOfItsDay(_ manualName: String, _ automaticName: String) throws {
        let folder = try temporaryDirectory()
        try FileManager.default.copyItem(
            atPath: Self.folder + "/in-app-purchases.json", toPath: folder.appendingPathComponent("in-app-purchases.json").path)
        func prices(_ list: String, manual: Bool, _ amount: String) -> Data {
            Data("""
                {"data":[{"type":"inAppPurchasePrices","id":"\(list)","attributes":{"startDate":"2026-06-01","endDate":null,"manual":\(manual)},
                "relationships":{"inAppPurchasePricePoint":{"data":{"type":"inAppPurchasePricePoints","id":"\(list)-pp"}},
                "territory":{"data":{"type":"territories","id":"USA"}}}}],
                "included":[{"type":"inAppPurchasePricePoints","id":"\(list)-pp","attributes":{"customerPrice":"\(amount)"}},
                {"type":"territories","id":"USA","attributes":{"currency":"USD"}}],
                "links":{"self":"https://api.appstoreconnect.apple.com/v1/inAppPurchasePriceSchedules/6444000001/\(list)?include=inAppPurchasePricePoint,territory"}}
                """.utf8)
        }
        try prices("manualPrices", manual: true, "1.49").write(to: folder.appendingPathComponent(manualName))
        try prices("automaticPrices", manual: false, "1.29").write(to: folder.appendingPathComponent(automaticName))
        let run = try runStorePrice(["render", folder.path, "--storefronts", "USA", "--date", "2026-06-01", "--format", "csv"])
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.output, Self.header + "com.example.coins,USA,,en_US@currency=USD,1.49,$1.49,,,,,,,,\n")
    }

    /// A page whose `links.next` no file gives is noted, not taken for the whole list.
    @Test func aMissingPageIsNoted() throws {
        let folder = try temporaryDirectory()
        for name in ["in-app-purchases.json", "coins-manual-prices.json", "coins-automatic-prices-1.json"] {
            try FileManager.default.copyItem(
                atPath: Self.folder + "/" + name, toPath: folder.appendingPathComponent(name).path)
        }
        let run = try runStorePrice(["render", folder.path, "--storefronts", "USA", "--date", "2026-11-28", "--format", "csv"])
        #expect(run.status == 0)
        #expect(
            run.error.contains(
                "note: '\(folder.path)/coins-automatic-prices-1.json' has a next page (links.next) that no file gives; "
                    + "the products and prices on it are missing\n"), "\(run.error)")
    }

    /// A response App Store Connect would not have written is one line naming the file and the JSON
    /// path, status 65; the list beside it is fine.
    @Test(arguments: [
        (#"{"data":[{"type":"inAppPurchasePrice","id":"1"}]}"#, "data[0].type",
         "'inAppPurchasePrice' is no resource StorePrice reads; it reads in-app purchases, subscriptions, apps, their prices, price points, territories, localizations, and subscriptions' offers and their prices"),
        (#"{"data":[{"type":"inAppPurchasePrices","id":"1","attributes":{"startDate":null},"relationships":{"inAppPurchasePricePoint":{"data":{"type":"inAppPurchasePricePoints","id":"p"}},"territory":{}}}],"included":[{"type":"inAppPurchasePricePoints","id":"p","attributes":{"customerPrice":"0.99"},"relationships":{"territory":{}}}],"links":{"self":"https://api.appstoreconnect.apple.com/v1/inAppPurchasePriceSchedules/6444000001/manualPrices"}}"#,
         "data[0].relationships.territory", "missing; neither the price nor its price point names a territory"),
        (#"{"data":[{"type":"inAppPurchasePrices","id":"1","relationships":{"inAppPurchasePricePoint":{"data":{"type":"inAppPurchasePricePoints","id":"p"}},"territory":{"data":{"type":"territories","id":"ATL"}}}}],"included":[{"type":"inAppPurchasePricePoints","id":"p","attributes":{"customerPrice":"0.99"}}],"links":{"self":"https://api.appstoreconnect.apple.com/v1/inAppPurchasePriceSchedules/6444000001/manualPrices"}}"#,
         "data[0].relationships.territory", "unknown storefront 'ATL'; did you mean ATG?"),
        (#"{"data":[{"type":"inAppPurchasePrices","id":"1","attributes":{"startDate":"2026-13-01"},"relationships":{"inAppPurchasePricePoint":{"data":{"type":"inAppPurchasePricePoints","id":"p"}},"territory":{"data":{"type":"territories","id":"USA"}}}}],"included":[{"type":"inAppPurchasePricePoints","id":"p","attributes":{"customerPrice":"0.99"}}],"links":{"self":"https://api.appstoreconnect.apple.com/v1/inAppPurchasePriceSchedules/6444000001/manualPrices"}}"#,
         "data[0].attributes.startDate", "'2026-13-01' is not a day written YYYY-MM-DD, as the API writes them"),
        (#"{"data":[{"type":"inAppPurchasePrices","id":"1","relationships":{"inAppPurchasePricePoint":{"data":{"type":"inAppPurchasePricePoints","id":"p"}},"territory":{"data":{"type":"territories","id":"USA"}}}}],"included":[{"type":"inAppPurchasePricePoints","id":"p","attributes":{"customerPrice":0.99}}],"links":{"self":"https://api.appstoreconnect.apple.com/v1/inAppPurchasePriceSchedules/6444000001/manualPrices"}}"#,
         nil, "not an App Store Connect response (included[0].attributes.customerPrice: expected text in quotes; got a number)"),
        (#"{"data":[{"type":"subscriptionPrices","id":"1","relationships":{"subscriptionPricePoint":{"data":{"type":"subscriptionPricePoints","id":"p"}},"territory":{"data":{"type":"territories","id":"USA"}}}}],"included":[{"type":"subscriptionPricePoints","id":"p","attributes":{"customerPrice":"4.99"}}],"links":{"self":"https://api.appstoreconnect.apple.com/v1/subscriptions/999/prices"}}"#,
         "links.self", "prices of subscription 999, which no response lists; add the list that gives its product ID (GET /v1/subscriptionGroups/{id}/subscriptions)"),
        (#"{"products":[]}"#, nil, "not an App Store Connect response (missing field 'data')"),
        // A second price point of the same ID would decide the price.
        (#"{"data":[{"type":"inAppPurchasePrices","id":"1","relationships":{"inAppPurchasePricePoint":{"data":{"type":"inAppPurchasePricePoints","id":"p"}},"territory":{"data":{"type":"territories","id":"USA"}}}}],"included":[{"type":"inAppPurchasePricePoints","id":"p","attributes":{"customerPrice":"0.99"}},{"type":"inAppPurchasePricePoints","id":"p","attributes":{"customerPrice":"9.99"}}],"links":{"self":"https://api.appstoreconnect.apple.com/v1/inAppPurchasePriceSchedules/6444000001/manualPrices"}}"#,
         "included[1].id", "inAppPurchasePricePoints 'p' again; included[0] is it"),
        // Apple writes territories as alpha-3 codes in capitals, and nothing else.
        (#"{"data":[{"type":"inAppPurchasePrices","id":"1","relationships":{"inAppPurchasePricePoint":{"data":{"type":"inAppPurchasePricePoints","id":"p"}},"territory":{"data":{"type":"territories","id":"usa"}}}}],"included":[{"type":"inAppPurchasePricePoints","id":"p","attributes":{"customerPrice":"0.99"}}],"links":{"self":"https://api.appstoreconnect.apple.com/v1/inAppPurchasePriceSchedules/6444000001/manualPrices"}}"#,
         "data[0].relationships.territory", "'usa' is not a territory ID as the API writes them; it writes USA"),
        (#"{"data":[{"type":"inAppPurchasePrices","id":"1","attributes":{"startDate":"2026-12-01","endDate":"2026-01-01"},"relationships":{"inAppPurchasePricePoint":{"data":{"type":"inAppPurchasePricePoints","id":"p"}},"territory":{"data":{"type":"territories","id":"USA"}}}}],"included":[{"type":"inAppPurchasePricePoints","id":"p","attributes":{"customerPrice":"0.99"}}],"links":{"self":"https://api.appstoreconnect.apple.com/v1/inAppPurchasePriceSchedules/6444000001/manualPrices"}}"#,
         "data[0].attributes.endDate", "2026-01-01 is not after the startDate, 2026-12-01"),
        (#"{"data":[{"type":"inAppPurchasePrices","id":"1","relationships":{"inAppPurchasePricePoint":{"data":{"type":"inAppPurchasePricePoints","id":"p"}},"territory":{"data":{"type":"territories","id":"USA"}}}}],"included":[{"type":"inAppPurchasePricePoints","id":"p","attributes":{"customerPrice":"-0.99"}}],"links":{"self":"https://api.appstoreconnect.apple.com/v1/inAppPurchasePriceSchedules/6444000001/manualPrices"}}"#,
         "included[0].attributes.customerPrice", "'-0.99' is below 0; a price is 0 or more"),
        // One in-app purchase with two product IDs.
        (#"{"data":[{"type":"inAppPurchases","id":"6444000001","attributes":{"productId":"com.example.other"}}]}"#,
         "data[0].attributes.productId", "in-app purchase 6444000001 is 'com.example.other' here but 'com.example.coins' in 'FOLDER/in-app-purchases.json', data[0].attributes.productId"),
        // A price point is one territory's: one that names another would price the wrong storefront.
        (#"{"data":[{"type":"inAppPurchasePrices","id":"1","relationships":{"inAppPurchasePricePoint":{"data":{"type":"inAppPurchasePricePoints","id":"p"}},"territory":{"data":{"type":"territories","id":"USA"}}}}],"included":[{"type":"inAppPurchasePricePoints","id":"p","attributes":{"customerPrice":"0.99"},"relationships":{"territory":{"data":{"type":"territories","id":"JPN"}}}}],"links":{"self":"https://api.appstoreconnect.apple.com/v1/inAppPurchasePriceSchedules/6444000001/manualPrices"}}"#,
         "included[0].relationships.territory", "the price point is for JPN, its price for USA (data[0]); a price point is one territory's"),
        // A relationship names the type of resource the API writes there.
        (#"{"data":[{"type":"inAppPurchasePrices","id":"1","relationships":{"inAppPurchasePricePoint":{"data":{"type":"inAppPurchasePricePoints","id":"p"}},"territory":{"data":{"type":"apps","id":"USA"}}}}],"included":[{"type":"inAppPurchasePricePoints","id":"p","attributes":{"customerPrice":"0.99"}}],"links":{"self":"https://api.appstoreconnect.apple.com/v1/inAppPurchasePriceSchedules/6444000001/manualPrices"}}"#,
         "data[0].relationships.territory.data.type", "'apps' where the API writes territories"),
        // A localization's locale is a language tag.
        (#"{"data":[{"type":"subscriptionLocalizations","id":"1","attributes":{"locale":"English","name":"Pro"}}],"links":{"self":"https://api.appstoreconnect.apple.com/v1/subscriptions/6444000010/subscriptionLocalizations"}}"#,
         "data[0].attributes.locale", "'English' is not a language tag, such as en, en-US or zh-Hans"),
        // An offer in a mode or for a duration the API has none of.
        (#"{"data":[{"type":"subscriptionIntroductoryOffers","id":"1","attributes":{"duration":"FIVE_WEEKS","offerMode":"FREE_TRIAL","numberOfPeriods":1},"relationships":{"territory":{"data":{"type":"territories","id":"USA"}}}}],"links":{"self":"https://api.appstoreconnect.apple.com/v1/subscriptions/6444000010/introductoryOffers"}}"#,
         "data[0].attributes.duration", "'FIVE_WEEKS' is no offer duration the API writes; it writes ONE_MONTH, ONE_WEEK, ONE_YEAR, SIX_MONTHS, THREE_DAYS, THREE_MONTHS, TWO_MONTHS, TWO_WEEKS"),
    ] as [(String, String?, String)])
    func aResponseTheAPIWouldNotWriteIsRefused(_ document: String, _ field: String?, _ reason: String) throws {
        let folder = try temporaryDirectory()
        try FileManager.default.copyItem(
            atPath: Self.folder + "/in-app-purchases.json", toPath: folder.appendingPathComponent("in-app-purchases.json").path)
        let file = folder.appendingPathComponent("prices.json")
        try Data(document.utf8).write(to: file)
        let run = try runStorePrice(["render", folder.path, "--storefronts", "USA", "--date", "2026-11-28"])
        #expect(run.status == 65)
        expectBytes(run.output, "")
        let place = field.map { ", field '\($0)'" } ?? ""
        expectBytes(run.error, "storeprice: catalog '\(file.path)'\(place): \(reason.replacingOccurrences(of: "FOLDER", with: folder.path))\n")
    }

    /// Two in-app purchases with one product ID, both priced: the second is named by its file and
    /// JSON path, beside the first.
    @Test func aProductIDListedTwiceIsNamedWhereItIs() throws {
        let folder = try temporaryDirectory()
        for name in ["in-app-purchases.json", "coins-manual-prices.json"] {
            try FileManager.default.copyItem(atPath: Self.folder + "/" + name, toPath: folder.appendingPathComponent(name).path)
        }
        try Data(#"{"data":[{"type":"inAppPurchases","id":"6444000003","attributes":{"productId":"com.example.coins"}}]}"#.utf8)
            .write(to: folder.appendingPathComponent("z-list.json"))
        try Data(
            #"{"data":[{"type":"inAppPurchasePrices","id":"1","relationships":{"inAppPurchasePricePoint":{"data":{"type":"inAppPurchasePricePoints","id":"p"}},"territory":{"data":{"type":"territories","id":"USA"}}}}],"included":[{"type":"inAppPurchasePricePoints","id":"p","attributes":{"customerPrice":"9.99"}}],"links":{"self":"https://api.appstoreconnect.apple.com/v1/inAppPurchasePriceSchedules/6444000003/manualPrices"}}"#
                .utf8).write(to: folder.appendingPathComponent("z-prices.json"))
        let run = try runStorePrice(["render", folder.path, "--storefronts", "USA", "--date", "2026-11-28"])
        #expect(run.status == 65)
        expectBytes(
            run.error,
            "storeprice: catalog '\(folder.path)/z-list.json', field 'data[0].attributes.productId': product 'com.example.coins' "
                + "again; '\(folder.path)/in-app-purchases.json', data[0].attributes.productId, has it\n")
    }

    /// A FIFO among the responses is refused by name, never waited on.
    @Test func aFIFOAmongTheResponsesIsRefused() throws {
        let folder = try temporaryDirectory()
        try FileManager.default.copyItem(
            atPath: Self.folder + "/in-app-purchases.json", toPath: folder.appendingPathComponent("in-app-purchases.json").path)
        let fifo = folder.appendingPathComponent("prices.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let run = try runStorePrice(["render", folder.path, "--storefronts", "USA", "--date", "2026-11-28"])
        #expect(run.status == 65)
        expectBytes(run.error, "storeprice: cannot read '\(fifo)': not a regular file; a folder catalog holds response files\n")
    }

    /// `--date` is a day, and only for App Store Connect responses.
    @Test func theDateIsADayForResponses() throws {
        let badDay = try runStorePrice(["render", Self.folder, "--date", "2026-02-30"])
        #expect(badDay.status == 64)
        #expect(badDay.error.hasPrefix("Error: --date '2026-02-30' is not a day; write it YYYY-MM-DD, such as 2026-11-28.\n"))
        let notResponses = try runStorePrice(["render", repositoryFile("Data/catalog-sample.jsonl").path, "--date", "2026-11-28"])
        #expect(notResponses.status == 64)
        #expect(
            notResponses.error.hasPrefix(
                "Error: --date chooses among App Store Connect's dated prices; give it with a folder or .json file of responses.\n"))
    }

    /// A .json file of JSON Lines is not taken for a broken response: the message says which
    /// format it is, and the CLI names the option that reads it so.
    @Test func aJSONFileOfJSONLinesSaysSo() throws {
        let file = try temporaryDirectory().appendingPathComponent("catalog.json")
        try (#"{"product":"a","prices":{"USA":"1"}}"# + "\n" + #"{"product":"b","prices":{"USA":"2"}}"# + "\n")
            .write(to: file, atomically: true, encoding: .utf8)
        let run = try runStorePrice(["render", file.path, "--storefronts", "USA"])
        #expect(run.status == 65)
        expectBytes(
            run.error,
            "storeprice: catalog '\(file.path)': this is JSON Lines (an object a line), not an App Store Connect response; "
                + "read it as a JSON Lines catalog, format jsonl (--catalog-format jsonl)\n")
        let read = try runStorePrice(["render", file.path, "--storefronts", "USA", "--catalog-format", "jsonl", "--format", "csv"])
        #expect(read.status == 0)
    }

    /// A golden of App Store Connect responses records the day its prices were in effect; one
    /// whose header lost it is refused, never verified against today's prices.
    @Test func aGoldenThatLostItsDayIsRefused() throws {
        let directory = try temporaryDirectory()
        let responses = directory.appendingPathComponent("asc")
        try FileManager.default.copyItem(atPath: Self.folder, toPath: responses.path)
        let golden = directory.appendingPathComponent("golden.jsonl").path
        #expect(try runStorePrice(["snapshot", responses.path, "--date", "2026-04-01", "--output", golden]).status == 0)
        let text = try String(contentsOfFile: golden, encoding: .utf8)
        try text.replacingOccurrences(of: #""catalog_date":"2026-04-01","#, with: "").write(toFile: golden, atomically: true, encoding: .utf8)
        let verify = try runStorePrice(["verify", golden])
        #expect(verify.status == 65)
        expectBytes(
            verify.error,
            "storeprice: snapshot '\(golden)', line 1: the header has no catalog_date, the day whose App Store Connect prices were "
                + "recorded; record the snapshot again (storeprice snapshot) rather than verify it against today's prices\n")
    }
}
