import Foundation
import StorePrice
import TestSupport
import Testing

@Suite struct CatalogTests {
    static let sample = repositoryFile("Data/catalog-sample.jsonl").path

    @Test func readsTheSampleJSONLines() throws {
        let products = try Catalog.load(Self.sample)
        #expect(products.count == 31)
        let level1 = try #require(products.first { $0.id == "com.example.level1" })
        #expect(level1.prices.count == 175)
        #expect(level1.prices[143462]?.amount == "160")
        #expect(level1.prices[143441]?.amount == "0.99")
        #expect(level1.titles["ja"] == "レベル1")
        #expect(level1.titles["zh-Hant"] == "第 1 關")
        let bundle = try #require(products.first { $0.id == "com.example.starter.bundle" })
        #expect(bundle.prices.count == 174)
        #expect(bundle.prices[143465] == nil)
    }

    @Test func readsTheSampleCSV() throws {
        let products = try Catalog.load(repositoryFile("Data/catalog-sample.csv").path)
        #expect(products.count == 10)
        #expect(products.allSatisfy { $0.prices.count == 8 })
        #expect(products[0].id == "com.example.coins.100")
        #expect(products[0].prices[143459] == (try Price("1", currency: CurrencyCode("CHF"))))
    }

    @Test func readsTheSampleStoreKitConfiguration() throws {
        let configuration = try StoreKitConfiguration(contentsOfFile: repositoryFile("Data/catalog-sample.storekit").path)
        #expect(configuration.storefront.alpha3 == "USA")
        let products = try Catalog.load(repositoryFile("Data/catalog-sample.storekit").path)
        #expect(products.count == 17)
        let yearly = try #require(products.first { $0.id == "com.example.pro.yearly" })
        #expect(yearly.prices == [143441: try Price("39.99", currency: CurrencyCode("USD"))])
        #expect(yearly.titles["en-US"] == "Pro Yearly")
        #expect(products.first { $0.id == "com.example.level1" }?.titles["ja"] == "レベル1")
    }

    @Test(arguments: ["Data/products-sample.plist", "Data/products-sample.json"])
    func readsProductIDLists(_ path: String) throws {
        let list = try ProductIDList(contentsOfFile: repositoryFile(path).path)
        #expect(list.ids.count == 7)
        #expect(list.ids.first == "com.example.level1")
        #expect(list.ids.last == (path.hasSuffix("plist") ? "com.example.coins.999" : "com.example.level99"))
    }

    @Test(arguments: [
        ("<plist><dict/></plist>", "product list 'x': expected a property list or JSON array of product ID strings ("),
        ("[1, 2]", "product list 'x': expected a property list or JSON array of product ID strings ("),
        (#"["a", ""]"#, "product list 'x': an empty product ID"),
    ])
    func refusesBadProductIDLists(_ text: String, _ prefix: String) {
        #expect {
            try ProductIDList(data: Array(text.utf8), source: "x")
        } throws: { error in
            String(describing: error).hasPrefix(prefix)
        }
    }

    // MARK: Errors, each naming the file, line and field

    @Test(arguments: [
        ("product_id,storefront\na,USA\n", "catalog 'c.csv', line 1: header is 'product_id,storefront'; expected product_id,storefront,price"),
        ("", "catalog 'c.csv', line 1: empty; expected the header product_id,storefront,price"),
        ("product_id,storefront,price\na,USA,0.99\na,XYZ,1\n",
         "catalog 'c.csv', line 3, field 'storefront': unknown storefront 'XYZ'; did you mean XKS, BLZ, CYM?"),
        ("product_id,storefront,price\na,USA,1,99\n", "catalog 'c.csv', line 2: 4 fields; expected 3"),
        ("product_id,storefront,price\na,USA,\"1,99\"\n",
         "catalog 'c.csv', line 2, field 'price': invalid amount '1,99': use '.' as the decimal separator and no grouping separators, such as 1234.5"),
        ("product_id,storefront,price\na,USA,0.99\na,US,1.99\n",
         "catalog 'c.csv', line 3, field 'storefront': a second price for 'a' in USA"),
        ("product_id,storefront,price\na,USA,0.99\nb,USA,0.99\na,JPN,160\n",
         "catalog 'c.csv', line 4: product 'a' again; line 2 has it; keep each product's rows together"),
        ("product_id,storefront,price\n,USA,0.99\n", "catalog 'c.csv', line 2, field 'product_id': empty"),
        ("product_id,storefront,price\n\"a,USA,0.99\n", "catalog 'c.csv', line 2: a quoted field is not closed"),
    ])
    func refusesBadCSV(_ text: String, _ message: String) throws {
        let file = try temporaryFile(text, name: "c.csv")
        defer { try? FileManager.default.removeItem(at: file) }
        #expect {
            try Catalog.load(file.path)
        } throws: { error in
            expectBytes(String(describing: error).replacingOccurrences(of: file.path, with: "c.csv"), message)
            return true
        }
    }

    @Test func readsQuotedFieldsBOMsAndCRLF() throws {
        let text = "\u{FEFF}price,product_id,storefront\r\n0.99,\"com.example.a,b\",USA\r\n160,\"com.example.a,b\",jp\r\n\r\n2.99,\"say \"\"hi\"\"\",143441\r\n"
        let file = try temporaryFile(text, name: "q.csv")
        defer { try? FileManager.default.removeItem(at: file) }
        let products = try Catalog.load(file.path)
        #expect(products.map(\.id) == ["com.example.a,b", "say \"hi\""])
        #expect(products[0].prices[143462]?.amount == "160")
    }

    @Test(arguments: [
        (#"{"id":"a","prices":{"USA":0.99}}"#,
         "catalog 'c.jsonl', line 1, field 'prices.USA': expected decimal text such as \"0.99\"; JSON numbers lose digits in most tools"),
        (#"{"prices":{"USA":"0.99"}}"#, "catalog 'c.jsonl', line 1, field 'id': missing; expected a product ID string"),
        (#"{"id":"a"}"#, "catalog 'c.jsonl', line 1, field 'prices': missing; expected {\"USA\": \"0.99\", …}"),
        ("{\"id\":\"a\",\"prices\":{\"USA\":\"0.99\"}}\n{\"id\":\"a\",\"prices\":{}}",
         "catalog 'c.jsonl', line 2: product 'a' again; line 1 has it"),
        (#"{"id":"a","prices":{"USA":"0.99","US":"1.99"}}"#, "catalog 'c.jsonl', line 1, field 'prices.USA': a second price for USA"),
        (#"{"id":"a","prices":{"USA":"0.99"},"title":{"en":5}}"#, "catalog 'c.jsonl', line 1, field 'title.en': expected a string"),
        (#"{"id":"a","prices":{"Mars":"0.99"}}"#,
         "catalog 'c.jsonl', line 1, field 'prices.Mars': unknown storefront 'Mars'; did you mean MAR?"),
    ])
    func refusesBadJSONLines(_ text: String, _ message: String) throws {
        let file = try temporaryFile(text, name: "c.jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        #expect {
            try Catalog.load(file.path)
        } throws: { error in
            expectBytes(String(describing: error).replacingOccurrences(of: file.path, with: "c.jsonl"), message)
            return true
        }
    }

    @Test func refusesTruncatedJSONAndInvalidUTF8() throws {
        let truncated = try temporaryFile(#"{"id":"a","prices":{"USA":"0.9"#, name: "t.jsonl")
        let invalid = try temporaryFile(Data([0x7B, 0xFF, 0xFE, 0x7D, 0x0A]), name: "u.jsonl")
        defer {
            try? FileManager.default.removeItem(at: truncated)
            try? FileManager.default.removeItem(at: invalid)
        }
        #expect {
            try Catalog.load(truncated.path)
        } throws: { error in
            String(describing: error).hasPrefix("catalog '\(truncated.path)', line 1: not a JSON object (")
        }
        #expect {
            try Catalog.load(invalid.path)
        } throws: { error in
            String(describing: error) == "catalog '\(invalid.path)', line 1: not valid UTF-8"
        }
    }

    @Test func refusesALineLongerThanTheLimit() throws {
        let long = "{\"id\":\"" + String(repeating: "x", count: 2 << 20) + "\"}\n"
        let file = try temporaryFile(long, name: "l.jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        #expect {
            try Catalog.load(file.path)
        } throws: { error in
            String(describing: error) == "catalog '\(file.path)', line 1: longer than 1 MiB; a line holds one product or price"
        }
    }

    @Test func namesTheFormatItCannotTell() {
        #expect {
            try Catalog.load("catalog.txt")
        } throws: { error in
            String(describing: error)
                == "catalog 'catalog.txt': cannot tell the format from the name; name it .csv, .jsonl or .storekit, or give the format"
        }
    }

    @Test func refusesABadStoreKitFile() throws {
        let noPrice = #"{"settings":{"_storefront":"JPN"},"products":[{"productID":"a"}]}"#
        let badPrice = #"{"settings":{"_storefront":"JPN"},"products":[{"productID":"a","displayPrice":"0.99"}]}"#
        #expect {
            try StoreKitConfiguration(data: Array(noPrice.utf8), source: "s.storekit")
        } throws: { error in
            String(describing: error) == "catalog 's.storekit', field 'a.displayPrice': missing"
        }
        let configuration = try StoreKitConfiguration(data: Array(badPrice.utf8), source: "s.storekit")
        #expect(configuration.storefront.alpha3 == "JPN")
        // 0.99 yen parses (it is a decimal) but cannot be shown without rounding:
        let renderer = CatalogRenderer(targets: RenderTarget.storefronts([try Storefront("JPN")]))
        var source = configuration.products
        #expect {
            _ = try renderer.render(&source) { _ in }
        } throws: { error in
            String(describing: error) == "catalog 's.storekit', field 'a.displayPrice for JPN': JPY uses 0 fraction digits; '0.99' has 2"
        }
    }
}

func temporaryFile(_ text: String, name: String) throws -> URL {
    try temporaryFile(Data(text.utf8), name: name)
}

func temporaryFile(_ data: Data, name: String) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storeprice-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent(name)
    try data.write(to: url)
    return url
}
