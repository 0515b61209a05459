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
}
