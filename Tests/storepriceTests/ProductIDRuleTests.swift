import Foundation
import StorePrice
import TestSupport
import Testing

/// Product IDs as the stores define them: App Store Connect's by default, any text on request.
@Suite struct ProductIDRuleTests {
    static let rule = "is not an App Store product ID: 1 to 100 letters, digits, '.', '-' or '_'; --any-product-id keeps any text"

    func catalog(_ name: String, _ text: String) throws -> URL {
        let file = try temporaryDirectory().appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    /// Refused in one line naming the file, the line and the ID escaped, in every catalog format
    /// and output (a table takes rows as values, read by the catalog readers).
    @Test(arguments: [
        ("c.csv", "product,storefront,price\ncoins.100,USA,0.99\ncoins 550,USA,4.99\n", "line 3, field 'product': 'coins 550'", "jsonl"),
        ("c.csv", "product,storefront,price\ncoins.100,USA,0.99\ncoins 550,USA,4.99\n", "line 3, field 'product': 'coins 550'", "table"),
        ("c.jsonl", #"{"product":"coins.100","prices":{"USA":"0.99"}}"# + "\n" + #"{"product":"münzen\u0301","prices":{"USA":"4.99"}}"# + "\n",
         "line 2, field 'product': 'mu\\u{0308}nzen\\u{0301}'", "jsonl"),
        ("c.jsonl", #"{"product":"coins.100","prices":{"USA":"0.99"}}"# + "\n" + #"{"product":"=HYPERLINK(1)","prices":{"USA":"4.99"}}"# + "\n",
         "line 2, field 'product': '=HYPERLINK(1)'", "table"),
        ("c.csv", "product,storefront,price\n" + String(repeating: "x", count: 101) + ",USA,0.99\n",
         "line 2, field 'product': '" + String(repeating: "x", count: 64) + "…'", "csv"),
    ])
    func aProductIDTheStoreWouldRefuseIsRefused(_ name: String, _ text: String, _ place: String, _ format: String) throws {
        let file = try catalog(name, text.replacingOccurrences(of: "münzen", with: "mu\u{0308}nzen"))
        let run = try runStorePrice(["render", file.path, "--storefronts", "USA", "--format", format])
        #expect(run.status == 65)
        expectBytes(run.error, "storeprice: catalog '\(file.path)', \(place) \(Self.rule)\n")
        let kept = try runStorePrice(["render", file.path, "--storefronts", "USA", "--format", format, "--any-product-id"])
        #expect(kept.status == 0, "\(kept.error)")
    }

    @Test func aHundredCharactersOfTheStoresAlphabetAreAnID() throws {
        let id = String(repeating: "aZ9.-_", count: 16) + "abcd"
        #expect(id.utf8.count == 100)
        #expect(ProductIDRule.appStore.problem(with: id) == nil)
        #expect(ProductIDRule.appStore.problem(with: id + "e") != nil)
        #expect(ProductIDRule.appStore.problem(with: "coins/100") != nil)
        #expect(ProductIDRule.any.problem(with: "coins/100") == nil)
        let file = try catalog("c.csv", "product,storefront,price\n\(id),USA,0.99\n")
        #expect(try runStorePrice(["render", file.path, "--storefronts", "USA"]).status == 0)
    }

    @Test func aStoreKitFileAndProductsInMemoryAreCheckedToo() throws {
        let storekit = try catalog("c.storekit", #"{"products":[{"productID":"coins 100","type":"Consumable","displayPrice":"0.99","referenceName":"c"}],"settings":{"_storefront":"USA"}}"#)
        let run = try runStorePrice(["render", storekit.path, "--storefronts", "USA"])
        #expect(run.status == 65)
        expectBytes(run.error, "storeprice: catalog '\(storekit.path)', field 'products.productID': 'coins 100' \(Self.rule)\n")

        let products = [try Product(id: "coins.100", prices: ["USA": "0.99"]), try Product(id: "coins 550", prices: ["USA": "4.99"])]
        let targets = RenderTarget.storefronts([try Storefront("USA")])
        // The library names the rule, not the CLI's option.
        let expected = "catalog 'products in memory', field 'products[1]': 'coins 550' is not an App Store product ID: 1 to 100 letters, digits, '.', '-' or '_'"
        let rows = #expect(throws: StorePriceError.self) { try CatalogRenderer(targets: targets).render(products) }
        expectBytes(rows?.description ?? "", expected)
        let bytes = #expect(throws: StorePriceError.self) { try BulkRenderer(targets: targets).render(products) { _ in } }
        expectBytes(bytes?.description ?? "", expected)
        #expect(try CatalogRenderer(targets: targets).render(products, productIDRule: .any).rows.count == 2)
        var written = 0
        _ = try BulkRenderer(targets: targets, productIDRule: .any).render(products) { written += $0.count }
        #expect(written > 0)
    }

    /// A snapshot of any text records the rule, and verify renders by it again.
    @Test func aSnapshotOfAnyTextSaysSoAndVerifies() throws {
        let file = try catalog("c.jsonl", #"{"product":"coins 100","prices":{"USA":"0.99"}}"# + "\n")
        let golden = file.deletingLastPathComponent().appendingPathComponent("golden.jsonl")
        #expect(try runStorePrice(["snapshot", file.path, "--output", golden.path]).status == 65)
        let record = try runStorePrice(["snapshot", file.path, "--any-product-id", "--output", golden.path])
        #expect(record.status == 0, "\(record.error)")
        let header = try String(contentsOf: golden, encoding: .utf8).prefix { $0 != "\n" }
        #expect(header.contains(#""product_ids":"any""#), "\(header)")
        let verify = try runStorePrice(["verify", golden.path])
        #expect(verify.status == 0, "\(verify.error)")
    }
}
