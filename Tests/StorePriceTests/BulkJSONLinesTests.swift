import Foundation
import StorePrice
import TestSupport
import Testing

/// JSON Lines catalogs read on their bytes by the bulk pipeline against the same catalogs read by
/// the JSON Lines reader, made into rows as values (``CatalogRenderer``) and encoded by
/// ``RowEncoder``: the same bytes for lines of every shape,
/// whatever the chunking and the number of workers, and the same error for every bad line,
/// wherever it falls.
@Suite struct BulkJSONLinesTests {
    static let targets = RenderTarget.storefronts(Storefront.all)

    /// Renders with ``BulkRenderer/renderJSONLines(at:productIDs:progress:invalidProduct:write:)``.
    func bulk(
        _ path: String, targets: [RenderTarget] = Self.targets, format: BulkRenderer.Format = .jsonLines,
        workers: Int, productIDs: ProductIDList? = nil, options: PriceFormatter.Options = .init()
    ) throws -> (bytes: [UInt8], report: RenderReport) {
        var bytes: [UInt8] = []
        let report = try BulkRenderer(targets: targets, format: format, options: options, workers: workers, productIDRule: .any)
            .renderJSONLines(at: path, productIDs: productIDs) { bytes.append(contentsOf: $0) }
        return (bytes, report)
    }

    /// The reference: the JSON Lines reader, rows as values (``CatalogRenderer``) and ``RowEncoder``.
    func reference(
        _ path: String, targets: [RenderTarget] = Self.targets, format: BulkRenderer.Format = .jsonLines,
        productIDs: ProductIDList? = nil, options: PriceFormatter.Options = .init()
    ) throws -> (bytes: [UInt8], report: RenderReport) {
        var source = try Catalog.open(path, format: .jsonl, productIDRule: .any)
        var encoder = RowEncoder(format: format, escapeNonASCII: false, options: options, rawCSV: false)
        var output = ByteBuffer(capacity: 1 << 16)
        if format == .csv { output.append(RowLayout.csvHeader) }
        let report = try CatalogRenderer(targets: targets, options: options, workers: 1).render(&source, productIDs: productIDs) {
            try encoder.encode($0, into: &output)
        }
        guard format == .json else { return (Array(output.bytes), report) }
        // A JSON array frames the JSON Lines objects.
        var array = JSONArrayFraming()
        return (array.frame(output.bytes) + Array(array.end.utf8), report)
    }

    /// Lines of every shape a real catalog has: the usual shape with and without titles (tags in
    /// any case and separator), escapes, non-ASCII, a formula-like ID, subscriptions with offers,
    /// blank lines, CRLF, a byte order mark, and products missing storefronts.
    static func catalog(products: Int) -> String {
        var text = "\u{FEFF}"
        for index in 0..<products {
            var prices: [String] = []
            for (offset, storefront) in Storefront.all.enumerated() {
                if index % 9 == 4, offset > Storefront.all.count - 3 { continue }
                let code = [storefront.countryCode, storefront.alpha2, String(storefront.id), storefront.countryCode.lowercased()][(index + offset) % 4]
                let amount = storefront.currency.fractionDigits == 0
                    ? String(100 * (1 + (index + offset) % 40))
                    : "\((index * 7 + offset) % 50).\((index + offset) % 2 == 0 ? "99" : "50")"
                prices.append("\"\(code)\":\"\(amount)\"")
            }
            let priceObject = "{" + prices.joined(separator: ",") + "}"
            let line: String
            switch index % 8 {
            case 0: line = #"{"product":"com.example.p\#(index)","prices":\#(priceObject)}"#
            case 1: line = #"{"product":"com.example.p\#(index)","prices":\#(priceObject),"title":{"en":"Level \#(index)","ja":"レベル\#(index)","en_gb":"Level \#(index) (GB)","zh-hant":"關卡","pt-BR":"Nível"}}"#
            case 2: line = #" { "title" : {"de":"Stufe"} , "prices" : \#(priceObject) , "product" : "caf\#u{E9}.\#(index).\#u{202E}" , "description":{"en":"d"} } "#
            case 3: line = #"{"product":"say \"hi\" \#(index)","prices":\#(priceObject),"title":{"en":"tab\there"}}"#
            case 4: line = #"{"product":"=HYPERLINK(\#(index))","prices":\#(priceObject),"title":{}}"#
            case 5 where index % 40 == 5:
                // Subscriptions, one line in 40: each row builds its paywall lines, the slowest kind of row.
                line = #"{"product":"com.example.sub\#(index)","prices":\#(priceObject),"period":"P1M","title":{"en":"Pro"},"#
                    + #""introductory_offer":{"payment_mode":"free","period":"P1W"},"promotional_offers":[{"id":"back","payment_mode":"payUpFront","period":"P2M","prices":{"USA":"1.99","JPN":"300"}}]}"#
            case 5, 6: line = #"{"product":"com.example.p\#(index)","prices":\#(priceObject),"title":{"en":"back\\slash"}}"#
            default: line = #"{"prices":\#(priceObject),"product":"com.example.p\#(index)"}"#
            }
            text += line + (index % 3 == 0 ? "\r\n" : "\n")
            if index % 10 == 7 { text += "\n  \t\n" }
        }
        return text
    }

    @Test func everyShapeOfLineGivesTheRowByRowBytes() throws {
        // About 400 KB: a dozen 32 KiB chunks, lines crossing their boundaries. The reference is
        // made once per format, and each number of workers is checked against it.
        let file = try temporaryFile(Self.catalog(products: 160), name: "c.jsonl")
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0 > 12 << 15)
        for format in BulkRenderer.Format.allCases {
            let expected = try reference(file.path, format: format)
            for workers in [1, 2, 3, 8] {
                let got = try bulk(file.path, format: format, workers: workers)
                if let difference = firstDifference(Data(got.bytes), Data(expected.bytes)) {
                    Issue.record("\(format), \(workers) workers: \(difference)")
                }
                #expect(got.report.rows == expected.report.rows)
                #expect(got.report.products == expected.report.products)
                #expect(got.report.invalidProducts == expected.report.invalidProducts)
                #expect(!got.report.invalidProducts.isEmpty)
            }
        }
    }

    /// More distinct amounts than the shared tables keep (12,288): the workers move to fresh
    /// tables between lines, and the bytes stay the reference's.
    @Test(arguments: [1, 2, 3])
    func moreAmountsThanTheTablesKeepGiveTheRowByRowBytes(_ workers: Int) throws {
        var text = ""
        // 110 × 175 = 19,250 prices, each amount its own, then 10 products priced as the first 10.
        for index in 0..<120 {
            let prices = Storefront.all.enumerated().map { offset, storefront in
                "\"\(storefront.countryCode)\":\"\(index % 110 * Storefront.all.count + offset + 1)\""
            }
            text += #"{"product":"p\#(index)","prices":{"# + prices.joined(separator: ",") + "}}\n"
        }
        let file = try temporaryFile(text, name: "amounts.jsonl")
        let expected = try reference(file.path)
        let got = try bulk(file.path, workers: workers)
        if let difference = firstDifference(Data(got.bytes), Data(expected.bytes)) {
            Issue.record("\(workers) workers: \(difference)")
        }
        #expect(got.report.rows == 120 * Storefront.all.count)
        #expect(got.report.rows == expected.report.rows)
        // The first 12,288 amounts fill the tables; the last 10 products' prices were left with
        // them and are formatted again.
        #expect(workers > 1 || got.report.distinctPrices == 21_000)
    }

    @Test func accountsAProductListAndOptionsAreHonoured() throws {
        let file = try temporaryFile(Self.catalog(products: 50), name: "a.jsonl")
        let accounts = RenderTarget.accounts(TestAccountFile.builtIn.accounts)
        let list = try ProductIDList(
            data: Array("[\"com.example.p9\", \"com.example.sub45\", \"caf\u{E9}.10.\u{202E}\", \"missing\"]".utf8), source: "list")
        let options = PriceFormatter.Options(display: .isoCode, rounding: .halfEven)
        for format in BulkRenderer.Format.allCases {
            let expected = try reference(file.path, targets: accounts, format: format, productIDs: list, options: options)
            let got = try bulk(file.path, targets: accounts, format: format, workers: 2, productIDs: list, options: options)
            expectBytes(String(decoding: got.bytes, as: UTF8.self), String(decoding: expected.bytes, as: UTF8.self))
            #expect(got.report.products == 3)
            #expect(got.report.invalidProducts == expected.report.invalidProducts)
        }
    }

    /// About 70 KB of good lines (more than two chunks), to push a bad line into a later chunk.
    static let filler = (0..<1_000).map { #"{"product":"filler\#($0)","prices":{"USA":"0.99","JPN":"160","DEU":"1.99"}}"# + "\n" }
        .joined()
        + String(repeating: #"{"product":"wide","prices":{"USA":"0.99"},"title":{"en":"\#(String(repeating: "x", count: 2_000))"}}"# + "\n", count: 1)

    /// Prices in storefronts no target shows are read as the reader reads them: a plain amount
    /// is taken without being numbered, and anything else is checked in full, so the bytes or
    /// the error are the reference's.
    @Test(arguments: [
        "1", "0.99", "0001.50", "1234567890123456", "12345678901234567", "1.2.3", ".5", "5.", "-1", "", "1e3", " 1",
        "\u{FF}", "0.123456789",
    ])
    func pricesInStorefrontsNoTargetShowsAreReadAsTheReaderReadsThem(_ amount: String) throws {
        let targets = RenderTarget.storefronts([try Storefront("USA"), try Storefront("JPN")])
        let line = #"{"product":"a","prices":{"USA":"0.99","DEU":"\#(amount)","JPN":"160","FRA":"1.99"}}"#
        let file = try temporaryFile(line + "\n", name: "d.jsonl")
        var expected = "no error"
        var expectedBytes: [UInt8] = []
        do { expectedBytes = try reference(file.path, targets: targets).bytes } catch { expected = String(describing: error) }
        for workers in [1, 2] {
            var got = "no error"
            var gotBytes: [UInt8] = []
            do { gotBytes = try bulk(file.path, targets: targets, workers: workers).bytes } catch { got = String(describing: error) }
            expectBytes(got, expected)
            #expect(gotBytes == expectedBytes)
        }
        if ["1", "0.99", "0001.50", "1234567890123456", "12345678901234567", "0.123456789"].contains(amount) {
            #expect(expected == "no error" && expectedBytes.count > 100)
        } else if amount != "-1" {
            #expect(expected.contains("field 'prices.DEU'"), "\(expected)")
        }
    }

    /// A storefront named twice is refused though no target shows it.
    @Test func aStorefrontNoTargetShowsNamedTwiceIsRefused() throws {
        let targets = RenderTarget.storefronts([try Storefront("USA")])
        let file = try temporaryFile(#"{"product":"b","prices":{"DEU":"1","USA":"1","DEU":"1"}}"# + "\n", name: "d.jsonl")
        var expected = "no error"
        do { _ = try reference(file.path, targets: targets) } catch { expected = String(describing: error) }
        var got = "no error"
        do { _ = try bulk(file.path, targets: targets, workers: 1) } catch { got = String(describing: error) }
        expectBytes(got, expected)
        #expect(expected != "no error")
    }

    /// Bad lines: the error must be the JSON Lines reader's, naming the same line and field,
    /// whether the line is the first or falls after the filler, in a later chunk.
    @Test(arguments: [
        #"{"prices":{"USA":"1"}}"#, #"{"product":"a"}"#, #"{"product":"","prices":{}}"#, #"{"product":"a","prices":{"USA":1}}"#,
        #"{"product":"a","prices":{"XYZ":"1"}}"#, #"{"product":"a","prices":{"USA":"1.2.3"}}"#,
        #"{"product":"a","prices":{"USA":"1","U1A":"2"}}"#, #"{"product":"a","prices":{"N/A":"1"}}"#,
        #"{"product":"a","prices":{"JPN":"0.5"}}"#, #"{"product":"a","prices":{"USA":"1","US":"2"}}"#,
        #"{"product":"a","prices":{"USA":"1","USA":"1"}}"#, #"{"product":"a","product":"b","prices":{}}"#,
        #"{"product":"a","prices":{},"colour":"red"}"#, #"{"product":"a","prices":{},"title":{"en_us":"x","en-US":"y"}}"#,
        #"{"product":"a","prices":{},"description":{"EN":"x","en":"y"}}"#, #"{"product":"a","prices":{"USA":"1"}"#,
        #"{"product":"a","prices":{"USA":"1"}}{"#, "[1]", #"{"product":"a","prices":{"\u{212A}OR":"1"}}"#,
        #"{"product":"filler3","prices":{"USA":"1"}}"#, #"{"product":"filler3","prices":{"USA":"x"}}"#,
        #"{"product":"a","prices":{"USA":"0.99"},"period":"P1X"}"#, "{\"product\":\"a\",\"prices\":{\"USA\":\"\u{FF}\"}}",
    ])
    func badLinesGiveTheRowByRowError(_ bad: String) throws {
        for prefix in ["", Self.filler] {
            var data = Data(prefix.utf8)
            // Invalid UTF-8 is written as bytes.
            if bad.contains("\u{FF}") {
                data.append(contentsOf: Array(#"{"product":"a","prices":{"USA":""#.utf8) + [0xFF] + Array("\"}}\n".utf8))
            } else {
                data.append(contentsOf: Array((bad + "\n").utf8))
            }
            data.append(contentsOf: Array(#"{"product":"after","prices":{"USA":"1"}}"#.utf8))
            let file = try temporaryFile(data, name: "bad.jsonl")
            var expected = "no error"
            do { _ = try reference(file.path) } catch { expected = String(describing: error) }
            for workers in [1, 2] {
                var got = "no error"
                do { _ = try bulk(file.path, workers: workers) } catch { got = String(describing: error) }
                expectBytes(got, expected)
            }
            // Without the filler, filler3 is no repeat.
            let fine = prefix.isEmpty && bad == #"{"product":"filler3","prices":{"USA":"1"}}"#
            #expect((expected != "no error") != fine, "\(escaped(bad))")
        }
    }

    @Test func aLineOfOneMiBPassesAndOneByteMoreIsRefusedAfterTheLinesBefore() throws {
        let head = #"{"product":"a","prices":{"USA":"1"},"title":{"en":""#
        let tail = #""}}"#
        let fits = head + String(repeating: "x", count: LineReader.maximumLineLength - head.utf8.count - tail.utf8.count) + tail
        for (line, fails) in [(fits, false), (fits + " ", true)] {
            let file = try temporaryFile(Self.filler + line + "\n", name: "long.jsonl")
            var expected = "no error"
            do { _ = try reference(file.path) } catch { expected = String(describing: error) }
            var got = "no error"
            do { _ = try bulk(file.path, workers: 2) } catch { got = String(describing: error) }
            expectBytes(got, expected)
            #expect((expected != "no error") == fails)
        }
    }
}
