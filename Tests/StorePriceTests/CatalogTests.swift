import Foundation
@testable import StorePrice
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

    /// Lines of the usual shape are read without JSONDecoder: the same products as JSONDecoder
    /// gives for the same lines written with spacing it alone reads (a number, an escape).
    @Test func usualLinesReadAsJSONDecoderReadsThem() throws {
        let usual = """
            { "product" : "a" , "prices" : { "USA" : "0.99" , "jp" : "160" } , "title" : { "en" : "A \u{00E9}" } }
            {"description":{"en":"D"},"prices":{},"product":"b"}
            \t{"product":"c","prices":{"143441":"1"},"title":{},"description":{}}\t
            """
        let decoded = """
            { "product" : "a" , "prices" : { "USA" : "0.99" , "jp" : "160" } , "title" : { "en" : "A \\u00e9" } }
            {"description":{"en":"D"},"prices":{},"product":"b","period":null}
            \t{"product":"c","prices":{"143441":"1"},"title":{},"description":{},"period":null}\t
            """
        let first = try Catalog.load(try temporaryFile(usual, name: "usual.jsonl").path)
        let second = try Catalog.load(try temporaryFile(decoded, name: "decoded.jsonl").path)
        #expect(first.map(\.id) == ["a", "b", "c"])
        #expect(first.map(\.prices) == second.map(\.prices))
        #expect(first.map(\.titles) == second.map(\.titles) && first[0].titles["en"] == "A \u{00E9}")
        #expect(first.map(\.descriptions) == [[:], ["en": "D"], [:]])
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
        #expect(configuration.storefront.countryCode == "USA")
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
        ("<plist><dict/></plist>", "product list 'x': the top level is a dictionary (<dict>), not an array"),
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
        ("product,storefront\na,USA\n", "catalog 'c.csv', line 1: the header has no 'price' column; a catalog's first line is the header product,storefront,price (columns in any order)"),
        ("", "catalog 'c.csv', line 1: empty; expected the header product,storefront,price"),
        ("product,storefront,price\na,USA,0.99\na,XYZ,1\n",
         "catalog 'c.csv', line 3, field 'storefront': unknown storefront 'XYZ'; did you mean XKS, BLZ, CYM?"),
        ("product,storefront,price\na,USA,1,99\n", "catalog 'c.csv', line 2: 4 fields; expected 3"),
        ("product,storefront,price\na,USA,0.99\na,USA\n", "catalog 'c.csv', line 3: 2 fields; expected 3"),
        ("product,storefront,price\na,USA,0.99\n\"a\",\"JPN\"\n", "catalog 'c.csv', line 3: 2 fields; expected 3"),
        ("product,storefront,price\na,USA,\"1,99\"\n",
         "catalog 'c.csv', line 2, field 'price': invalid amount '1,99': use '.' as the decimal separator and no grouping separators, such as 1234.5"),
        ("product,storefront,price\na,USA,0.99\na,US,1.99\n",
         "catalog 'c.csv', line 3, field 'storefront': a second price for 'a' in USA"),
        ("product,storefront,price\na,USA,0.99\nb,USA,0.99\na,JPN,160\n",
         "catalog 'c.csv', line 4: product 'a' again; line 2 has it; keep each product's rows together"),
        ("product,storefront,price\n,USA,0.99\n", "catalog 'c.csv', line 2, field 'product': empty"),
        ("product,storefront,price\n\"a,USA,0.99\n", "catalog 'c.csv', line 2: a quoted field is not closed"),
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

    /// Reading product by product: the products before an error, then the error, then nothing,
    /// whether the error is a bad line or a repeated product; and never a product cut short by a
    /// line too long after it.
    @Test(arguments: [
        ("product,storefront,price\na,USA,1\nb,USA,2\na,JPN,160\nc,USA,3\n", ["a", "b"]),
        ("product,storefront,price\na,USA,1\nb,USA,2\nb,USA,3\nc,USA,3\n", ["a"]),
        ("product,storefront,price\na,USA,1\nb,USA,2\nb," + String(repeating: "9", count: 2 << 20) + "\nc,USA,3\n", ["a"]),
    ])
    func anErrorEndsTheCatalog(_ text: String, _ before: [String]) throws {
        let file = try temporaryFile(text, name: "e.csv")
        defer { try? FileManager.default.removeItem(at: file) }
        var source = try Catalog.open(file.path)
        var read: [String] = []
        while let product = try? source.nextProduct() { read.append(product.id) }
        #expect(read == before)
        #expect(try source.nextProduct() == nil)
        #expect(try source.nextProduct() == nil)
    }

    @Test func readsQuotedFieldsBOMsAndCRLF() throws {
        let text = "\u{FEFF}price,product,storefront\r\n0.99,\"com.example.a,b\",USA\r\n160,\"com.example.a,b\",jp\r\n\r\n2.99,\"say \"\"hi\"\"\",143441\r\n"
        let file = try temporaryFile(text, name: "q.csv")
        defer { try? FileManager.default.removeItem(at: file) }
        let products = try Catalog.load(file.path, productIDRule: .any)
        #expect(products.map(\.id) == ["com.example.a,b", "say \"hi\""])
        #expect(products[0].prices[143462]?.amount == "160")
    }

    @Test func csvFieldsAreSplitOnBytesNotGraphemeClusters() throws {
        // A combining mark after a closing quote forms one grapheme cluster with it; the quote
        // still ends the field, and the mark begins the next one.
        let text = "product,storefront,price\n\"id\",\u{0301}x,USA,1\n"
        let file = try temporaryFile(text, name: "g.csv")
        defer { try? FileManager.default.removeItem(at: file) }
        #expect {
            try Catalog.load(file.path)
        } throws: { error in
            expectBytes(String(describing: error), "catalog '\(file.path)', line 2: 4 fields; expected 3")
            return true
        }
        let good = try temporaryFile("product,storefront,price\n\"\u{0301}a\",USA,1\n\"b\u{0301}\",\"USA\",\"2\"\n", name: "m.csv")
        defer { try? FileManager.default.removeItem(at: good) }
        let products = try Catalog.load(good.path, productIDRule: .any)
        #expect(products.map { Array($0.id.unicodeScalars) } == [["\u{0301}", "a"], ["b", "\u{0301}"]])
        #expect(products.map { $0.prices[143441]?.amount } == ["1", "2"])
    }

    @Test(arguments: [
        (#"{"product":"a","prices":{"USA":0.99}}"#,
         "catalog 'c.jsonl', line 1, field 'prices.USA': expected decimal text such as \"0.99\"; JSON numbers lose digits in most tools"),
        (#"{"prices":{"USA":"0.99"}}"#, "catalog 'c.jsonl', line 1, field 'product': missing; expected a product ID string"),
        (#"{"product":"a"}"#, "catalog 'c.jsonl', line 1, field 'prices': missing; expected {\"USA\": \"0.99\", …}"),
        ("{\"product\":\"a\",\"prices\":{\"USA\":\"0.99\"}}\n{\"product\":\"a\",\"prices\":{}}",
         "catalog 'c.jsonl', line 2: product 'a' again; line 1 has it"),
        (#"{"product":"a","prices":{"USA":"0.99","US":"1.99"}}"#, "catalog 'c.jsonl', line 1, field 'prices.USA': a second price for USA"),
        (#"{"product":"a","prices":{"USA":"0.99"},"title":{"en":5}}"#, "catalog 'c.jsonl', line 1, field 'title.en': expected a string"),
        (#"{"product":"a","prices":{"Mars":"0.99"}}"#,
         "catalog 'c.jsonl', line 1, field 'prices.Mars': unknown storefront 'Mars'; did you mean MAR?"),
        // Of several bad prices, the first by code is named, whatever the order in the line.
        (#"{"product":"a","prices":{"USA":"1","ZZZ":"1","JPN":"1.5","AAQ":"2"}}"#,
         "catalog 'c.jsonl', line 1, field 'prices.AAQ': unknown storefront 'AAQ'; did you mean AFG, AGO, AIA?"),
        // A key given twice is one value to a JSON reader: refused rather than silently one price.
        (#"{"product":"a","prices":{"USA":"1","USA":"2"}}"#,
         "catalog 'c.jsonl', line 1, field 'prices.USA': appears twice in one object; JSON readers keep only one of the two"),
        (#"{"product":"a","product":"b","prices":{"USA":"1"}}"#,
         "catalog 'c.jsonl', line 1, field 'product': appears twice in one object; JSON readers keep only one of the two"),
        (#"{"product":"a","prices":{"USA":"1"},"title":{"en":"A","en":"B"}}"#,
         "catalog 'c.jsonl', line 1, field 'title.en': appears twice in one object; JSON readers keep only one of the two"),
        // Quotes, braces and backslashes inside a value are not structure.
        (#"{"product":"a\"{\"prices\":[\\","prices":{"USA":"1"},"prices":{"JPN":"1"}}"#,
         "catalog 'c.jsonl', line 1, field 'prices': appears twice in one object; JSON readers keep only one of the two"),
        (#"{"product":"a","prices":{"USA":"1"},"period":"P1M","promotional_offers":[{"id":"w","payment_mode":"free","period":"P1W","\u0069d":"x"}]}"#,
         "catalog 'c.jsonl', line 1, field 'promotional_offers[0].id': appears twice in one object; JSON readers keep only one of the two"),
        // A misspelt or unknown field would drop its data without a word.
        (#"{"id":"a","prices":{"USA":"1"}}"#,
         "catalog 'c.jsonl', line 1, field 'id': unknown field; StorePrice now names it 'product', as its outputs do"),
        (#"{"product":"a","prices":{"USA":"1"},"period":"P1M","winback_offers":[]}"#,
         "catalog 'c.jsonl', line 1, field 'winback_offers': unknown field; a line has product, prices, title, description, period, introductory_offer, introductory_offers, promotional_offers, offer_codes, win_back_offers"),
        (#"{"product":"a","prices":{"USA":"1"},"title":{"en_us":"A","en-US":"B"}}"#,
         "catalog 'c.jsonl', line 1, field 'title': 'en-US' and 'en_us' are the same language (en-US); keep one"),
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
        let truncated = try temporaryFile(#"{"product":"a","prices":{"USA":"0.9"#, name: "t.jsonl")
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

    /// The XML is read, not scanned for tags: a tag in a comment is no tag; references, CDATA,
    /// attributes and whitespace are XML's; an element nested in the array is refused, however
    /// its tag is spaced.
    @Test func readsXMLPropertyListsAsXML() throws {
        let flat = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <!-- <array><dict> in a comment -->
            <array>
              <string>com.example.a&amp;b</string>
              <string><![CDATA[com.example.<c>]]></string>
              <string>com.example.&#x64;</string>
              <string
                >com.example.e</string>
            </array>
            </plist>
            """
        let ids = try ProductIDList(data: Array(flat.utf8), source: "flat.plist").ids
        #expect(ids == ["com.example.a&b", "com.example.<c>", "com.example.d", "com.example.e"])

        for (text, reason) in [
            ("<plist><array\n><array\n></array\n></array></plist>",
             "expected a flat array of product ID strings; found a container inside the array"),
            ("<plist><dict><key>Products</key></dict></plist>", PropertyListShape.dictionary),
            ("<plist><array><string>a</string><integer>1</integer></array></plist>",
             "expected product ID strings in the array; found <integer>"),
            ("<plist><array><string>a</array></plist>", "not a valid XML property list: </array> does not close <string> (line 1)"),
            ("<plist><array><string>a &bogus; b</string></array></plist>",
             "not a valid XML property list: an unknown reference '&bogus;' (line 1)"),
        ] {
            #expect {
                try ProductIDList(data: Array(text.utf8), source: "bad.plist")
            } throws: { error in
                expectBytes(String(describing: error), "product list 'bad.plist': \(reason)", text)
                return true
            }
        }
    }

    /// A JSON Lines product line padded to exactly `length` bytes before its line ending.
    static func productLine(length: Int) -> String {
        let frame = #"{"product":"","prices":{"USA":"0.99"}}"#
        return #"{"product":""# + String(repeating: "x", count: length - frame.utf8.count) + #"","prices":{"USA":"0.99"}}"#
    }

    @Test(arguments: [("\n", false), ("\r\n", false), ("", false), ("\n", true), ("\r\n", true)])
    func aLineOfExactlyOneMiBIsReadAndOneByteMoreIsNot(_ ending: String, _ withBOM: Bool) throws {
        let limit = 1 << 20
        let bom = withBOM ? "\u{FEFF}" : ""
        let fits = try temporaryFile(bom + Self.productLine(length: limit) + ending, name: "fits.jsonl")
        #expect(try Catalog.load(fits.path, productIDRule: .any).first?.id.utf8.count == limit - #"{"product":"","prices":{"USA":"0.99"}}"#.utf8.count)

        let over = try temporaryFile(
            #"{"product":"a","prices":{"USA":"1"}}"# + "\n" + bom + Self.productLine(length: limit + 1) + ending, name: "over.jsonl")
        #expect {
            try Catalog.load(over.path)
        } throws: { error in
            expectBytes(String(describing: error), "catalog '\(over.path)', line 2: longer than 1 MiB; a line holds one product or price")
            return true
        }
    }

    @Test func aSnapshotLineOverOneMiBIsRefused() throws {
        let header = #"{"storeprice_snapshot":2,"storeprice":"0.1.0","icu":"72.1","cldr":"42.0","catalog":null,"#
            + #""catalog_format":null,"accounts":null,"display":"symbol","rounding":"reject","rows":1}"#
        let frame = #"{"product":"","account":"usa","storefront":"USA","price_locale":"en_US@currency=USD","#
            + #""amount":"1","formatted":"$1.00","escaped":"$1.00"}"#
        let row = { (length: Int) -> String in
            #"{"product":""# + String(repeating: "p", count: length - frame.utf8.count) + #"","account":"usa","storefront":"USA","#
                + #""price_locale":"en_US@currency=USD","amount":"1","formatted":"$1.00","escaped":"$1.00"}"#
        }
        let fits = try temporaryFile(header + "\n" + row(1 << 20) + "\n", name: "fits.jsonl")
        #expect(try PriceSnapshot(contentsOfFile: fits.path).rows.first?.product.utf8.count == (1 << 20) - frame.utf8.count)
        let over = try temporaryFile(header + "\n" + row((1 << 20) + 1) + "\n", name: "over.jsonl")
        #expect {
            try PriceSnapshot(contentsOfFile: over.path)
        } throws: { error in
            expectBytes(String(describing: error), "snapshot '\(over.path)', line 2: longer than 1 MiB; a line holds one product or price")
            return true
        }
    }

    /// A tag written canonically is kept as it is, without being rebuilt: exactly the tags that
    /// rebuilding leaves the same.
    @Test func aCanonicalLanguageTagIsKeptAsItIs() {
        var tags = [
            "en", "en-US", "zh-Hant", "zh-Hant-TW", "es-419", "en_US", "en-us", "EN", "zh-hant", "zh-HANT", "en-", "-en", "en--US",
            "", "-", "_", "sr-Latn", "de-CH-1996", "x", "ja-JP-u-ca-japanese", "caf\u{E9}", "\u{E9}-\u{C9}", "en-U5", "a-Bcde-F",
        ]
        // Every tag of up to three characters from a small alphabet.
        let alphabet = ["a", "B", "-", "_", "1"]
        for first in alphabet {
            for second in [""] + alphabet {
                for third in [""] + alphabet { tags.append(first + second + third) }
            }
        }
        for tag in tags {
            // Kept only when rebuilding would keep it too; the empty tag is rebuilt, to itself.
            #expect(Product.isNormalizedTag(tag) == (Product.rebuiltTag(tag) == tag && !tag.isEmpty), "\(escaped(tag))")
            #expect(Product.normalizedTag(tag) == Product.rebuiltTag(tag), "\(escaped(tag))")
        }
    }

    @Test func namesTheFormatItCannotTell() {
        #expect {
            try Catalog.load(repositoryFile("LICENSE.txt").path)
        } throws: { error in
            String(describing: error)
                == "catalog '\(repositoryFile("LICENSE.txt").path)': cannot tell the format from the name; name it .csv, .jsonl, .storekit or .json (App Store Connect), or give the format"
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
        #expect(configuration.storefront.countryCode == "JPN")
        // 0.99 yen parses (it is a decimal) but cannot be shown without rounding:
        let renderer = CatalogRenderer(targets: RenderTarget.storefronts([try Storefront("JPN")]))
        var source = configuration.products
        #expect {
            _ = try renderer.render(&source) { _ in }
        } throws: { error in
            String(describing: error) == "catalog 's.storekit', field 'a.displayPrice for JPN': '0.99' needs 2 fraction digits; JPY prices are whole amounts; give a rounding, such as half-even, to round it"
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
