import Foundation
import StorePrice
import TestSupport
import Testing

/// Products a service holds in memory reach the same rows, bytes and snapshots as a catalog file.
@Suite struct InMemoryCatalogTests {
    static let storefronts = "USA,JPN,DEU,SAU,CHE,IND,BRA,CAN,TWN"

    func targets() throws -> [RenderTarget] {
        RenderTarget.storefronts(try Self.storefronts.split(separator: ",").map { try Storefront(String($0)) })
    }

    /// The reviewed output of `storeprice render` for the sample catalogs, from products in memory.
    @Test(arguments: ["jsonl", "storekit", "csv"], [BulkRenderer.Format.jsonLines, .csv, .json])
    func inMemoryBytesAreTheReviewedOutput(_ catalog: String, _ format: BulkRenderer.Format) throws {
        let products = try Catalog.load(repositoryFile("Data/catalog-sample.\(catalog)").path)
        var bytes: [UInt8] = []
        let report = try BulkRenderer(targets: targets(), format: format, workers: 2).render(products) { bytes += $0 }
        let suffix = [BulkRenderer.Format.jsonLines: "jsonl", .csv: "csv", .json: "json"][format] ?? ""
        let expected = try Data(contentsOf: repositoryFile("Tests/Fixtures/expected/catalog-sample.\(catalog).\(suffix)"))
        #expect(firstDifference(Data(bytes), expected) == nil, "catalog-sample.\(catalog) as \(format)")
        #expect(report.products == products.count)
    }

    @Test func productsWrittenInCodeRenderToRows() throws {
        let products = [
            try Product(id: "coins.100", prices: ["USA": "0.99", "JPN": "160", "DEU": "0.99"]),
            try Product(id: "coins.550", prices: ["USA": "4.99", "JP": "800"], titles: ["en": "550 Coins", "ja": "550コイン"]),
        ]
        let renderer = CatalogRenderer(targets: RenderTarget.storefronts([try Storefront("USA"), try Storefront("JPN"), try Storefront("DEU")]))
        let (rows, report) = try renderer.render(products)
        #expect(rows.map(\.formatted) == ["$0.99", "￥160", "0,99\u{00A0}€", "$4.99", "￥800"])
        #expect(rows.map(\.title) == [nil, nil, nil, "550 Coins", "550コイン"])
        #expect(report.invalidProducts == [InvalidProduct(productID: "coins.550", reason: .noPrice(storefronts: ["DEU"]))])
        #expect(products[1].pricesByStorefront.mapValues(\.amount) == ["USA": "4.99", "JPN": "800"])
    }

    @Test func aRepeatedProductIsRefusedAsInAFile() throws {
        let product = try Product(id: "coins.100", prices: ["USA": "0.99"])
        let other = try Product(id: "coins.550", prices: ["USA": "4.99"])
        let renderer = CatalogRenderer(targets: RenderTarget.storefronts([try Storefront("USA")]))
        let error = #expect(throws: StorePriceError.self) { try renderer.render([product, other, product]) }
        expectBytes(
            error?.description ?? "",
            "catalog 'products in memory', field 'products[2]': product 'coins.100' again; products[0] has it")
        let bulk = #expect(throws: StorePriceError.self) {
            try BulkRenderer(targets: RenderTarget.storefronts([try Storefront("USA")])).render([other, product, product]) { _ in }
        }
        expectBytes(
            bulk?.description ?? "",
            "catalog 'products in memory', field 'products[2]': product 'coins.100' again; products[1] has it")
    }

    /// A price the options cannot show is the same error as rows as values and as bytes.
    @Test func aPriceTheOptionsCannotShowIsTheSameErrorOnBothPaths() throws {
        let products = [
            try Product(id: "coins.100", prices: ["USA": "0.99", "JPN": "160"]),
            try Product(id: "coins.half", prices: ["USA": "0.99", "JPN": "160.5"]),
        ]
        let targets = RenderTarget.storefronts([try Storefront("USA"), try Storefront("JPN")])
        let rows = #expect(throws: StorePriceError.self) { try CatalogRenderer(targets: targets).render(products) }
        let bytes = #expect(throws: StorePriceError.self) {
            try BulkRenderer(targets: targets, workers: 2).render(products) { _ in }
        }
        expectBytes(bytes?.description ?? "", rows?.description ?? "-")
        expectBytes(
            rows?.description ?? "",
            "catalog 'products in memory', field 'products[1] in JPN': '160.5' needs 1 fraction digit; JPY prices are whole "
                + "amounts; give a rounding, such as half-even, to round it")
        // Past the first batches, the product's place among all of them.
        var many = try (0..<20).map { try Product(id: "p\($0)", prices: ["USA": "0.99", "JPN": "160"]) }
        many[17] = try Product(id: "p17", prices: ["USA": "0.99", "JPN": "160.5"])
        for workers in [1, 2] {
            let far = #expect(throws: StorePriceError.self) { try CatalogRenderer(targets: targets, workers: workers).render(many) }
            #expect(far?.description.hasPrefix("catalog 'products in memory', field 'products[17] in JPN': '160.5'") == true)
        }
    }

    /// A snapshot of products in memory has the rows of the same catalog's file snapshot.
    @Test func aSnapshotOfProductsInMemoryIsTheFileSnapshot() throws {
        let path = repositoryFile("Data/catalog-sample.jsonl").path
        let fromFile = try PriceSnapshot.record(catalog: path)
        let inMemory = try PriceSnapshot.record(products: Catalog.load(path))
        #expect(inMemory.rows == fromFile.rows)
        #expect(inMemory.rows.count == 5608)
        #expect(inMemory.source.catalog == nil)
        #expect(inMemory.difference(from: fromFile).isEmpty)
    }

    /// A catalog's bytes in memory (a request body) go through the file's pipeline.
    @Test(arguments: ["jsonl", "csv", "storekit"], [BulkRenderer.Format.jsonLines, .csv])
    func catalogBytesInMemoryAreTheReviewedOutput(_ catalog: String, _ format: BulkRenderer.Format) throws {
        let body = try [UInt8](Data(contentsOf: repositoryFile("Data/catalog-sample.\(catalog)")))
        var bytes: [UInt8] = []
        let renderer = BulkRenderer(targets: try targets(), format: format, workers: 2)
        _ = try renderer.render(catalog: body, format: try #require(CatalogFormat(rawValue: catalog)), name: "body") {
            bytes += $0
        }
        let expected = try Data(
            contentsOf: repositoryFile("Tests/Fixtures/expected/catalog-sample.\(catalog).\(format == .csv ? "csv" : "jsonl")"))
        #expect(firstDifference(Data(bytes), expected) == nil, "catalog-sample.\(catalog) as \(format)")
    }

    @Test func aBadLineInMemoryIsNamedAsTheCallerSays() throws {
        let body = Array("{\"product\":\"a\",\"prices\":{\"USA\":\"0.99\"}}\n{\"product\":\"b\",\"prices\":{\"USA\":0.99}}\n".utf8)
        let renderer = BulkRenderer(targets: RenderTarget.storefronts([try Storefront("USA")]))
        let error = #expect(throws: StorePriceError.self) {
            try renderer.render(catalog: body, format: .jsonl, name: "request body") { _ in }
        }
        expectBytes(
            error?.description ?? "",
            "catalog 'request body', line 2, field 'prices.USA': expected decimal text such as \"0.99\"; JSON numbers lose digits in most tools")
    }
}
