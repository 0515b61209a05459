import Foundation
import StorePrice
import TestSupport
import Testing

/// A service's rows are the CLI's rows: `JSONEncoder().encode(row)` gives the keys and values of
/// the line `storeprice render` writes for the same product and target, read back by Foundation's
/// JSON parser, which neither side shares.
@Suite struct RowSchemaTests {
    static let catalogs = ["Data/catalog-sample.jsonl", "Data/catalog-sample.storekit", "Data/catalog-sample.csv"]

    /// Each line as a Foundation dictionary, in order.
    func objects(_ jsonLines: some Sequence<Substring>) throws -> [NSDictionary] {
        try jsonLines.map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? NSDictionary, "\(line)")
        }
    }

    func libraryRows(_ catalog: String, targets: [RenderTarget]) throws -> [RenderedRow] {
        try CatalogRenderer(targets: targets).render(Catalog.load(repositoryFile(catalog).path)).rows
    }

    @Test(arguments: catalogs, [false, true])
    func anEncodedRowIsTheCLIRow(catalog: String, forStorefronts: Bool) throws {
        let arguments = ["render", repositoryFile(catalog).path] + (forStorefronts ? ["--storefronts", "all"] : [])
        let run = try runStorePrice(arguments)
        #expect(run.status == 0, "\(run.error)")
        let cli = try objects(run.output.split(separator: "\n"))
        let targets = forStorefronts
            ? RenderTarget.storefronts(Storefront.all) : RenderTarget.accounts(TestAccountFile.builtIn.accounts)
        let rows = try libraryRows(catalog, targets: targets)
        let encoder = JSONEncoder()
        let encoded = try objects(rows.map { Substring(String(decoding: try encoder.encode($0), as: UTF8.self)) })
        try #require(encoded.count == cli.count)
        #expect(cli.count >= 17)
        var differing = 0
        for (index, (library, written)) in zip(encoded, cli).enumerated() where library != written {
            differing += 1
            if differing <= 3 { Issue.record("row \(index): library \(library) CLI \(written)") }
        }
        #expect(differing == 0)
        // The keys are the schema's, all of them on every row, subscription or not.
        let keys = Set(RowField.allCases.map(\.rawValue))
        #expect(encoded.allSatisfy { Set($0.allKeys.compactMap { $0 as? String }) == keys })
        if catalog.hasSuffix(".storekit") {
            #expect(rows.contains { $0.subscription?.offers.isEmpty == false })
        }
    }

    @Test func aRowDecodesToItself() throws {
        let rows = try libraryRows(
            "Data/catalog-sample.storekit", targets: RenderTarget.accounts(TestAccountFile.builtIn.accounts))
        let decoder = JSONDecoder()
        let encoder = JSONEncoder()
        for row in rows {
            #expect(try decoder.decode(RenderedRow.self, from: encoder.encode(row)) == row)
        }
        #expect(rows.contains { $0.account != nil && $0.subscription?.billingPlans.isEmpty == false }
            || rows.contains { $0.subscription?.offers.contains { $0.offer.price != nil } == true })
    }

    @Test func aRowReadsTheCLIRowBack() throws {
        let run = try runStorePrice(["render", repositoryFile("Data/catalog-sample.storekit").path, "--storefronts", "USA"])
        let line = try #require(run.output.split(separator: "\n").last { $0.contains(#""period":"P1Y""#) })
        let row = try JSONDecoder().decode(RenderedRow.self, from: Data(line.utf8))
        #expect(row.storefront == (try Storefront("USA")))
        #expect(row.account == nil)
        #expect(row.subscription?.period == (try SubscriptionPeriod("P1Y")))
        #expect(row.price.currency.code == "USD")
    }

    @Test func theCSVHeaderIsTheSchema() throws {
        let run = try runStorePrice(["render", repositoryFile("Data/catalog-sample.jsonl").path, "--format", "csv"])
        expectBytes(
            String(run.output.prefix { $0 != "\n" }), RowField.allCases.map(\.rawValue).joined(separator: ","))
    }

    @Test func invalidProductsAndReportsEncodeInTheirSchema() throws {
        var report = RenderReport()
        report.rows = 2
        report.products = 3
        report.distinctPrices = 2
        report.invalidProducts = [
            InvalidProduct(productID: "com.example.gone", reason: .notInCatalog),
            InvalidProduct(productID: "com.example.level1", reason: .noPrice(storefronts: ["BLR", "RUS"])),
        ]
        report.localesWithoutOfferWording = ["sw_KE@currency=KES", "am_ET@currency=ETB"]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        expectBytes(
            String(decoding: try encoder.encode(report), as: UTF8.self),
            #"{"distinct_prices":2,"invalid_products":[{"product":"com.example.gone","reason":"not_in_catalog"},"#
                + #"{"product":"com.example.level1","reason":"no_price","storefronts":["BLR","RUS"]}],"#
                + #""locales_without_offer_wording":["am_ET@currency=ETB","sw_KE@currency=KES"],"products":3,"rows":2}"#)
        #expect(try JSONDecoder().decode(RenderReport.self, from: encoder.encode(report)) == report)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(InvalidProduct.self, from: Data(#"{"product":"a","reason":"gone"}"#.utf8))
        }
    }

    @Test func storefrontsEncodeAsTheirCodeAndTheirDetailsAsTheTable() throws {
        let japan = try Storefront("JP")
        expectBytes(String(decoding: try JSONEncoder().encode(["storefront": japan]), as: UTF8.self), #"{"storefront":"JPN"}"#)
        #expect(japan.id == "143462")
        #expect(japan.numericID == 143462)
        #expect(japan.countryCode == "JPN")
        let run = try runStorePrice(["storefronts", "--format", "json"])
        let cli = try #require(JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [NSDictionary])
        let details = try #require(
            JSONSerialization.jsonObject(with: JSONEncoder().encode(Storefront.all.map(\.details))) as? [NSDictionary])
        #expect(details == cli)
        #expect(details.count == 175)
    }

    /// Rows, storefronts and products that contradict themselves are refused, naming what is wrong.
    @Test(arguments: [
        (#"{"product":"a","storefront":"JPN","account":null,"price_locale":"en_US@currency=USD","amount":"1","formatted":"$1.00","title":null}"#,
         "JPN charges JPY, not USD"),
        (#"{"product":"a","storefront":"USA","account":null,"price_locale":"en_US@currency=USD","amount":"1","formatted":"$1.00","title":null,"period":null,"offers":[]}"#,
         "offers without a period"),
        (#"{"product":"a","storefront":"USA","account":null,"price_locale":"en_US@currency=USD","amount":"1","formatted":"$1.00","title":null,"period":"P1M","price_per_period":"x","offers":[{"type":"introductory","terms":"payUpFront:P2M:100","price":"50"}]}"#,
         "the terms' amount and the price (50) differ"),
        (#"{"product":"a","storefront":"USA","account":null,"price_locale":"en_US@currency=USD","amount":"1","formatted":"$1.00","title":null,"period":"P1M","price_per_period":"x","offers":[{"type":"introductory","terms":"free:P1W","price":"50"}]}"#,
         "the terms' amount and the price (50) differ"),
    ])
    func aRowThatContradictsItselfIsRefused(_ json: String, _ message: String) throws {
        #expect {
            try JSONDecoder().decode(RenderedRow.self, from: Data(json.utf8))
        } throws: { error in
            String(describing: error).contains(message)
        }
    }

    @Test func aStorefrontObjectMustBeTheAppStoresOwn() throws {
        let japan = #"{"alpha2":"JP","alpha3":"JPN","name":"Japan","currency":"JPY","languages":["ja","en-US"],"price_locale":"ja_JP@currency=JPY","storefront_id":"#
        #expect(try JSONDecoder().decode(Storefront.self, from: Data((japan + "143462}").utf8)) == (try Storefront("JPN")))
        for (id, message) in [("-9223372036854775807", "JPN's storefront_id is 143462"), ("1099511627776", "JPN's storefront_id is 143462")] {
            #expect {
                try JSONDecoder().decode(Storefront.self, from: Data((japan + id + "}").utf8))
            } throws: { error in
                String(describing: error).contains(message)
            }
        }
        let unknown = japan.replacingOccurrences(of: #""alpha3":"JPN""#, with: #""alpha3":"ZZZ""#) + "143462}"
        #expect {
            try JSONDecoder().decode(Storefront.self, from: Data(unknown.utf8))
        } throws: { error in
            String(describing: error).contains("'ZZZ' is not an App Store storefront's alpha-3 code")
        }
    }

    @Test func aProductInCodeIsCheckedAsACatalogLineIs() throws {
        let empty = #expect(throws: StorePriceError.self) { try Product(id: "", prices: ["USA": "0.99"]) }
        expectMessage(empty, "catalog 'product', field 'id': empty; a product has an ID")
        let twice = #expect(throws: StorePriceError.self) {
            try Product(id: "a", prices: ["USA": "0.99"], titles: ["zh-Hant": "A", "ZH-hant": "B"])
        }
        expectMessage(twice, "catalog 'product 'a'', field 'titles': 'ZH-hant' and 'zh-Hant' are the same language (zh-Hant); keep one")
    }

    func expectMessage(_ error: StorePriceError?, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        expectBytes(error?.description ?? "(no error)", expected, sourceLocation: sourceLocation)
    }
}
