import Foundation
@testable import StorePrice
import TestSupport
import Testing

/// `.storekit` files as Xcode writes them: the keys it uses, the values it leaves behind, and the
/// localization StoreKit would pick.
@Suite struct StoreKitConfigurationTests {
    /// A one-subscription file for `storefront`, with the subscription's JSON fields spliced in.
    static func subscriptionFile(storefront: String = "USA", _ fields: String) -> String {
        #"{"settings":{"_storefront":"\#(storefront)"},"subscriptionGroups":[{"subscriptions":[{"productID":"pro","#
            + #""displayPrice":"4.99","recurringSubscriptionPeriod":"P1M",\#(fields)}]}]}"#
    }

    static func terms(_ json: String) throws -> SubscriptionTerms {
        let configuration = try StoreKitConfiguration(data: Array(json.utf8), source: "t.storekit")
        var source = configuration.products
        return try #require(try source.nextProduct()?.subscription)
    }

    /// Each offer as `kind id mode period×count price-in-USA`.
    static func shown(_ offers: [CatalogOffer]) throws -> [String] {
        let usa = try Storefront("USA").numericID
        return offers.map {
            "\($0.kind.outputName) \($0.id ?? "-") \($0.paymentMode) \($0.period)x\($0.periodCount) \($0.prices[usa]?.amount ?? "-")"
        }
    }

    /// IDs are compared by their bytes, as the other catalog readers compare them: NFC and NFD
    /// spellings of one text are two products; the same bytes twice are refused, naming both
    /// places.
    @Test func productIDsAreComparedByTheirBytes() throws {
        func file(_ second: String) -> [UInt8] {
            Array(#"{"products":[{"productID":"caf\#u{E9}","displayPrice":"1"}],"#.utf8)
                + Array(#""subscriptionGroups":[{"subscriptions":[{"productID":"\#(second)","displayPrice":"2","recurringSubscriptionPeriod":"P1M"}]}]}"#.utf8)
        }
        let two = try StoreKitConfiguration(data: file("cafe\u{301}"), source: "u.storekit", productIDRule: .any)
        #expect(two.products.products.map { Array($0.id.utf8) } == [Array("caf\u{E9}".utf8), Array("cafe\u{301}".utf8)])
        #expect {
            try StoreKitConfiguration(data: file("caf\u{E9}"), source: "u.storekit", productIDRule: .any)
        } throws: { error in
            expectBytes(
                String(describing: error),
                "catalog 'u.storekit', field 'subscriptionGroups[0].subscriptions[0].productID': product 'caf\u{E9}' again; products[0] has it")
            return true
        }
    }

    @Test func aFreeTrialKeepsNoPriceXcodeLeftBehind() throws {
        let terms = try Self.terms(Self.subscriptionFile(
            #""introductoryOffer":{"paymentMode":"free","subscriptionPeriod":"P2M","displayPrice":"0.99"}"#))
        #expect(try Self.shown(terms.offers) == ["introductory - freeTrial P2Mx1 -"])
    }

    @Test func promotionalOffersAreXcodesAdHocOffersAndEveryOtherKindIsRead() throws {
        let terms = try Self.terms(Self.subscriptionFile(#"""
            "adHocOffers":[{"offerID":"winback","paymentMode":"payUpFront","subscriptionPeriod":"P2M","displayPrice":"1.99","referenceName":"Win back"}],
            "codeOffers":[{"referenceName":"SPRING","paymentMode":"free","subscriptionPeriod":"P1M","eligibility":["new"],"isStackable":true}],
            "winbackOffers":[{"offerID":"come.back","paymentMode":"payAsYouGo","subscriptionPeriod":"P1M","numberOfPeriods":3,"displayPrice":"0.99"}]
            """#))
        let shown = try Self.shown(terms.offers)
        #expect(shown == [
            "promotional winback payUpFront P2Mx1 1.99",
            "offer_code SPRING freeTrial P1Mx1 -",
            "win_back come.back payAsYouGo P1Mx3 0.99",
        ])
    }

    @Test func anOfferWithAnEmptyPriceIsNotShownInTheStorefront() throws {
        let json = Self.subscriptionFile(
            #""introductoryOffer":{"paymentMode":"payAsYouGo","subscriptionPeriod":"P1M","numberOfPeriods":3,"displayPrice":""}"#)
        let terms = try Self.terms(json)
        #expect(try Self.shown(terms.offers) == ["introductory - payAsYouGo P1Mx3 -"])
        #expect(terms.introductoryOffer?.offer(inStorefront: try Storefront("USA").numericID) == nil)

        var source = try StoreKitConfiguration(data: Array(json.utf8), source: "t.storekit").products
        _ = try CatalogRenderer(targets: RenderTarget.storefronts([try Storefront("USA")])).render(&source) { batch in
            let subscription = try #require(try batch.subscriptionText(at: 0))
            #expect(subscription.offers.isEmpty)
            #expect(subscription.introductoryOfferText == nil)
        }
    }

    @Test(arguments: [
        (#""adHocOffers":[{"paymentMode":"free","subscriptionPeriod":"P1W"}]"#,
         "field 'pro.adHocOffers[0].offerID': missing; a promotional offer needs its ID"),
        (#""winbackOffers":[{"paymentMode":"free","subscriptionPeriod":"P1W"}]"#,
         "field 'pro.winbackOffers[0].offerID': missing; a win-back offer needs its ID"),
        (#""codeOffers":[{"referenceName":"X","paymentMode":"payUpFront","subscriptionPeriod":"P1W","displayPrice":"1,99"}]"#,
         "field 'pro.codeOffers[0].displayPrice': invalid amount '1,99': use '.' as the decimal separator and no grouping separators, such as 1234.5"),
        (#""introductoryOffer":{"paymentMode":"payAsYouGo","subscriptionPeriod":"P1M","numberOfPeriods":0,"displayPrice":""}"#,
         "field 'pro.introductoryOffer': invalid offer 'payAsYouGo:P1Mx0': the number of periods must be 1 or more, and the whole offer at most 999 months"),
        (#""introductoryOffer":{"paymentMode":"payAsYouGo","subscriptionPeriod":"P1M","numberOfPeriods":9223372036854775807,"displayPrice":""}"#,
         "field 'pro.introductoryOffer': invalid offer 'payAsYouGo:P1Mx9223372036854775807': the number of periods must be 1 or more, and the whole offer at most 999 months"),
        (#""introductoryOffer":{"paymentMode":"payAsYouGo","subscriptionPeriod":"P1M","numberOfPeriods":9223372036854775807,"displayPrice":"0.99"}"#,
         "field 'pro.introductoryOffer': invalid offer 'payAsYouGo:P1Mx9223372036854775807:0.99': it lasts longer than 999 months"),
        (#""billingPlans":[{"displayPrice":"0.5","isEnabled":true}]"#,
         "field 'pro.billingPlans[0].billingPlanType': missing"),
    ])
    func badOffersNameTheirField(_ fields: String, _ message: String) {
        #expect {
            try Self.terms(Self.subscriptionFile(fields))
        } throws: { error in
            expectBytes(String(describing: error), "catalog 't.storekit', " + message)
            return true
        }
    }

    @Test(arguments: [
        (#""subscriptionOffers":[{"offerID":"a","paymentMode":"free","subscriptionPeriod":"P1W"}]"#,
         "field 'pro.subscriptionOffers': not a key Xcode writes; promotional offers are in 'adHocOffers'"),
        (#""adHocOffers":[{"offerID":"a","paymentMode":"free","subscriptionPeriod":"P1W"},{"offerID":"a","paymentMode":"free","subscriptionPeriod":"P2W"}]"#,
         "field 'pro.adHocOffers[1]': the ID 'a' appears twice among adHocOffers"),
        (#""introductoryOffer":{"paymentMode":"payAsYouGo","subscriptionPeriod":"P1M","numberOfPeriods":2.5,"displayPrice":"0.99"}"#,
         "field 'pro.introductoryOffer.numberOfPeriods': expected a whole number of periods, such as 3"),
        (#""adHocOffers":[{"offerID":"a","paymentMode":"payUpFront","subscriptionPeriod":"P1M","displayPrice":0.99}]"#,
         "field 'pro.adHocOffers[0].displayPrice': expected decimal text such as \"0.99\"; JSON numbers lose digits in most tools"),
        (#""billingPlans":[{"billingPlanType":"MONTHLY","displayPrice":"0.5","isEnabled":true}],"introductoryOffers":[{"billingPlanType":"NOPE","paymentMode":"free","subscriptionPeriod":"P1W"}]"#,
         "field 'pro.introductoryOffers[0].billingPlanType': 'NOPE' is none of this subscription's billingPlans (MONTHLY)"),
        (#""billingPlans":[{"billingPlanType":"WEEKLY\u200B","displayPrice":"0.5","isEnabled":true}]"#,
         "field 'pro.billingPlans[0].billingPlanType': 'WEEKLY\\u{200B}' is not a plan type, such as MONTHLY"),
        (#""billingPlans":[{"billingPlanType":"MONTHLY","isEnabled":true}]"#,
         "field 'pro.billingPlans[0].displayPrice': missing"),
        (#""localizations":[{"locale":"en_us","displayName":"A"},{"locale":"en-US","displayName":"B"}]"#,
         "field 'pro.localizations': 'en_us' and 'en-US' are the same language (en-US); keep one"),
        (#""adHocOffers":[{"offerID":"a","paymentMode":"free","subscriptionPeriod":"P1W","offerID":"b"}]"#,
         "field 'subscriptionGroups[0].subscriptions[0].adHocOffers[0].offerID': appears twice in one object; JSON readers keep only one of the two"),
    ])
    func whatXcodeNeverWritesIsRefusedNamingTheField(_ fields: String, _ message: String) {
        #expect {
            try Self.terms(Self.subscriptionFile(fields))
        } throws: { error in
            expectBytes(String(describing: error), "catalog 't.storekit', " + message)
            return true
        }
    }

    @Test(arguments: [
        (#"{}"#, "catalog 't.storekit': not a StoreKit configuration (no products, nonRenewingSubscriptions or subscriptionGroups)"),
        (#"{"products":[{"productID":"c","displayPrice":"0.99","type":"Consumable","introductoryOffer":{"paymentMode":"free","subscriptionPeriod":"P1W"}}]}"#,
         "catalog 't.storekit', field 'c.introductoryOffer': only an auto-renewable subscription (in subscriptionGroups) has a period and offers"),
        (#"{"products":[{"productID":"c","displayPrice":0.99}]}"#,
         "catalog 't.storekit', field 'c.displayPrice': expected decimal text such as \"0.99\"; JSON numbers lose digits in most tools"),
    ])
    func filesThatAreNotXcodesAreRefused(_ json: String, _ message: String) {
        #expect {
            try StoreKitConfiguration(data: Array(json.utf8), source: "t.storekit")
        } throws: { error in
            expectBytes(String(describing: error), message)
            return true
        }
    }

    @Test func disabledBillingPlansAreLeftOut() throws {
        let terms = try Self.terms(Self.subscriptionFile(#"""
            "billingPlans":[{"billingPlanType":"BILLED_UPFRONT","displayPrice":"4.99","commitmentDisplayPrice":"4.99","isEnabled":true},
                            {"billingPlanType":"MONTHLY","displayPrice":"0.5","commitmentDisplayPrice":"6.00","isEnabled":false}]
            """#))
        #expect(terms.billingPlans.map(\.type) == ["BILLED_UPFRONT"])
    }

    /// A product's title for a storefront, from localizations in file order.
    static func title(
        storefront: String, fileLocale: String?, localizations: [(String, String)], for target: String
    ) throws -> String? {
        let settings = fileLocale.map { #"{"_storefront":"\#(storefront)","_locale":"\#($0)"}"# } ?? #"{"_storefront":"\#(storefront)"}"#
        let list = localizations.map { #"{"locale":"\#($0.0)","displayName":"\#($0.1)","description":""}"# }.joined(separator: ",")
        let json = #"{"settings":\#(settings),"products":[{"productID":"p","displayPrice":"1","localizations":[\#(list)]}]}"#
        var source = try StoreKitConfiguration(data: Array(json.utf8), source: "t.storekit").products
        var title: String?
        let targets = [RenderTarget(account: try TestAccountFile.builtIn.account(named: target))]
        _ = try CatalogRenderer(targets: targets).render(&source) { batch in title = batch.title(at: 0) }
        return title
    }

    @Test(arguments: [
        // The store language itself.
        ("USA", "en_US", [("ja", "日本語"), ("en_US", "English")], "usa", "English"),
        // The same language in another region, before the file's default.
        ("USA", "en_US", [("ja", "日本語"), ("en_GB", "British")], "usa", "British"),
        ("BRA", "en_US", [("en_US", "English"), ("pt_PT", "Português")], "bra", "Português"),
        // Never another script of the language.
        ("TWN", "en_US", [("en_US", "English"), ("zh_Hans", "简体")], "twn", "English"),
        // No localization in the store language: the file's _locale, or its language in a region.
        ("USA", "de", [("ja", "日本語"), ("de", "Deutsch")], "usa", "Deutsch"),
        ("USA", "de", [("fr", "Français"), ("de_DE", "Deutsch")], "usa", "Deutsch"),
        // No localization in the store language or the file's _locale: the first.
        ("USA", "en_US", [("ja", "日本語"), ("ar", "عربي")], "usa", "日本語"),
        ("USA", nil, [("fr", "Français"), ("ja", "日本語")], "usa", "Français"),
        ("DEU", "de", [("en_US", "English")], "deu", "English"),
    ] as [(String, String?, [(String, String)], String, String)])
    func titlesFollowStoreKitsChoiceOfLocalization(
        _ storefront: String, _ fileLocale: String?, _ localizations: [(String, String)], _ account: String,
        _ expected: String
    ) throws {
        let title = try Self.title(storefront: storefront, fileLocale: fileLocale, localizations: localizations, for: account)
        expectBytes(title ?? "(none)", expected, "\(localizations) for \(account)")
    }

    @Test func aPropertyListIsNotAStoreKitConfiguration() throws {
        let xml = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict/></plist>"#
        for (bytes, kind) in [(Array(xml.utf8), "an XML property list"), (Array("bplist00".utf8) + [0, 1, 2], "a binary property list")] {
            #expect {
                try StoreKitConfiguration(data: bytes, source: "p.storekit")
            } throws: { error in
                expectBytes(
                    String(describing: error),
                    "catalog 'p.storekit': this is \(kind), not an Xcode StoreKit configuration; Xcode writes .storekit files as JSON")
                return true
            }
        }
    }
}

/// A price the options cannot show is found while rendering; the error still names the file, the
/// line where the format has lines, the field and the amount as the file writes it.
@Suite struct CatalogPriceErrorTests {
    @Test(arguments: [
        ("c.csv", "product,storefront,price\na,USA,0.99\na,JPN,4.80\n", "line 3, field 'price for JPN'"),
        ("o.jsonl", #"{"product":"a","prices":{"JPN":"480"},"period":"P1M","introductory_offer":{"payment_mode":"payUpFront","period":"P1M","prices":{"JPN":"4.80"}}}"# + "\n",
         "line 1, field 'introductory_offer.prices.JPN for JPN'"),
        ("o.storekit", StoreKitConfigurationTests.subscriptionFile(storefront: "JPN",
            #""adHocOffers":[{"offerID":"w","paymentMode":"payUpFront","subscriptionPeriod":"P2M","displayPrice":"4.80"}]"#)
            .replacingOccurrences(of: #""displayPrice":"4.99""#, with: #""displayPrice":"500""#),
         "field 'pro.adHocOffers[0].displayPrice for JPN'"),
        ("b.storekit", StoreKitConfigurationTests.subscriptionFile(storefront: "JPN",
            #""billingPlans":[{"billingPlanType":"MONTHLY","displayPrice":"4.80","commitmentDisplayPrice":"60","isEnabled":true}]"#)
            .replacingOccurrences(of: #""displayPrice":"4.99""#, with: #""displayPrice":"500""#),
         "field 'pro.billingPlans[0].displayPrice for JPN'"),
        ("c.jsonl", #"{"product":"z","prices":{"USA":"1"}}"# + "\n" + #"{"product":"a","prices":{"USA":"0.99","JPN":"4.80"}}"# + "\n",
         "line 2, field 'prices.JPN for JPN'"),
        ("c.storekit", #"{"settings":{"_storefront":"JPN"},"products":[{"productID":"a","displayPrice":"4.80"}]}"#,
         "field 'a.displayPrice for JPN'"),
    ])
    func namesFileLineFieldAndTheAmountAsWritten(_ name: String, _ text: String, _ place: String) throws {
        let url = try temporaryDirectory().appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        var source = try Catalog.open(url.path)
        #expect {
            // Offer and billing-plan prices are formatted when a row's subscription text is.
            _ = try CatalogRenderer(targets: RenderTarget.storefronts([try Storefront("JPN")])).render(&source) { batch in
                for position in batch.indices { _ = try batch.subscriptionText(at: position) }
            }
        } throws: { error in
            expectBytes(String(describing: error), "catalog '\(url.path)', \(place): '4.80' needs 1 fraction digit; JPY prices are whole amounts; give a rounding, such as half-even, to round it")
            return true
        }
    }
}

/// A JSON Lines product keeps each price in 16 bytes and a place only for a price written
/// otherwise than its code and amount say: the others' places are made again when an error needs
/// one, naming the same line, field and amount.
@Suite struct PackedPriceTests {
    @Test(arguments: [
        (#"{"product":"a","prices":{"USA":"0.99","JPN":"4.8"}}"#, "field 'prices.JPN for JPN': '4.8' needs"),
        (#"{"product":"a","prices":{"USA":"0.99","JP":"4.8"}}"#, "field 'prices.JP for JPN': '4.8' needs"),
        (#"{"product":"a","prices":{"USA":"0.99","143462":"04.80"}}"#, "field 'prices.143462 for JPN': '04.80' needs"),
    ])
    func aPriceWithoutAPlaceOfItsOwnIsStillNamed(_ line: String, _ message: String) throws {
        let url = try temporaryDirectory().appendingPathComponent("p.jsonl")
        try ("{\"product\":\"z\",\"prices\":{\"USA\":\"1\"}}\n" + line + "\n").write(to: url, atomically: true, encoding: .utf8)
        var source = try Catalog.open(url.path)
        #expect {
            _ = try CatalogRenderer(targets: RenderTarget.storefronts([try Storefront("JPN")])).render(&source) { _ in }
        } throws: { error in
            let text = String(describing: error)
            #expect(text.hasPrefix("catalog '\(url.path)', line 2, \(message) 1 fraction digit"), "\(text)")
            return true
        }
    }

    /// Amounts of every length come back exactly, by storefront and all at once.
    @Test func everyAmountComesBackExactly() throws {
        let amounts = ["USA": "0.99", "JPN": "160", "KWD": "1234.567", "IDN": "123456789012", "CHE": "2"]
        let products = try Catalog.load(
            try temporaryFile(
                #"{"product":"a","prices":{"USA":"0.99","JPN":"160","KWT":"1234.567","IDN":"123456789012","CHE":"2.00"}}"# + "\n",
                name: "a.jsonl").path)
        let product = try #require(products.first)
        for (code, amount) in amounts {
            let storefront = try Storefront(code == "KWD" ? "KWT" : code)
            #expect(product.price(inStorefront: storefront.numericID)?.amount == amount, "\(code)")
            #expect(product.prices[storefront.numericID]?.amount == amount, "\(code)")
            #expect(product.price(inStorefront: storefront.numericID)?.currency == storefront.currency, "\(code)")
        }
        #expect(product.prices.count == 5)
        #expect(product.price(inStorefront: try Storefront("DEU").numericID) == nil)
        #expect(try Price("1234.567", currency: CurrencyCode("KWD")).fractionDigits == product.price(inStorefront: try Storefront("KWT").numericID)?.fractionDigits)
        // Read from JSON Lines or made in code, the same prices.
        let made = try Product(id: "a", prices: ["USA": "0.99", "JPN": "160", "KWT": "1234.567", "IDN": "123456789012", "CHE": "2.00"])
        #expect(made.prices == product.prices)
        #expect(made.packedPrices == product.packedPrices)
    }
}
