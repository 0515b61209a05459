import Foundation
import StorePrice
import TestSupport
import Testing

/// CSV catalogs rendered to bytes by the bulk pipeline, on several workers, against the same
/// catalogs read by the CSV reader (``Catalog/open(_:format:productIDRule:)``, the same parser on
/// one thread) and rendered as rows as values: the same rows, counts and invalid products for
/// valid catalogs, whatever the chunking and the number of workers, and the same error, naming the
/// same line and field, for every kind of bad line, wherever it falls. The readers' messages are
/// pinned in ``CatalogTests``, each row is checked against its price formatted alone in
/// ``CatalogRendererTests``, and the fixtures are reviewed outputs.
@Suite struct BulkRendererTests {
    /// Renders with ``BulkRenderer``, collecting the bytes.
    func bulk(
        _ path: String, targets: [RenderTarget], format: BulkRenderer.Format = .jsonLines, workers: Int,
        productIDs: ProductIDList? = nil, options: PriceFormatter.Options = .init()
    ) throws -> (bytes: [UInt8], report: RenderReport) {
        var bytes: [UInt8] = []
        let report = try BulkRenderer(targets: targets, format: format, options: options, workers: workers, productIDRule: .any)
            .renderCSV(at: path, productIDs: productIDs) { bytes.append(contentsOf: $0) }
        return (bytes, report)
    }

    /// No targets is no rows and no invalid products, as rows as values, with any number of workers.
    @Test(arguments: [1, 2])
    func noTargetsRendersNothing(_ workers: Int) throws {
        let path = try temporaryDirectory().appendingPathComponent("c.csv").path
        try Data("product,storefront,price\na,ARE,3.99\nb,USA,0.99\n".utf8).write(to: URL(fileURLWithPath: path))
        let run = try bulk(path, targets: [], workers: workers)
        #expect(run.bytes.isEmpty && run.report.rows == 0 && run.report.invalidProducts.isEmpty)
        #expect(try reference(path, targets: []).report.rows == 0)
    }

    /// A catalog rendered for storefronts it does not price has an invalid product per product:
    /// those lacking the same storefronts share one list of codes, in both pipelines: a million of
    /// them held a list of 171 codes each, 2.9 GB.
    @Test(arguments: [1, 2])
    func invalidProductsLackingTheSameStorefrontsShareOneList(_ workers: Int) throws {
        let path = try temporaryDirectory().appendingPathComponent("c.csv").path
        var csv = "product,storefront,price\n"
        for index in 0..<40 { csv += "p\(index),USA,0.99\np\(index),GBR,0.99\n" }
        csv += "q,USA,0.99\n"
        try Data(csv.utf8).write(to: URL(fileURLWithPath: path))
        let targets = RenderTarget.storefronts([try Storefront("USA"), try Storefront("JPN"), try Storefront("GBR"), try Storefront("DEU")])
        let reports = [try bulk(path, targets: targets, workers: workers).report, try reference(path, targets: targets).report]
        for report in reports {
            let lists = report.invalidProducts.compactMap { invalid -> [String]? in
                if case .noPrice(let storefronts) = invalid.reason { return storefronts }
                return nil
            }
            try #require(lists.count == 41)
            #expect(lists[0] == ["DEU", "JPN"] && lists[40] == ["DEU", "GBR", "JPN"])
            let storage = lists.map { $0.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
            // The 40 products priced in USA and GBR share a list, or a few: one per worker's slice.
            #expect(Set(storage.prefix(40)).count < 10, "\(Set(storage.prefix(40)).count) lists")
            #expect(!storage.prefix(40).contains(storage[40]))
        }
    }

    /// With an `invalidProduct` closure, the invalid products go to it as their chunks are
    /// written, in the report's order (the catalog's, then the listed IDs it lacks), and the
    /// report keeps none; the rows are the same.
    @Test(arguments: [1, 2])
    func invalidProductsGoToTheClosureAsTheyCome(_ workers: Int) throws {
        let path = try temporaryDirectory().appendingPathComponent("c.csv").path
        var csv = "product,storefront,price\n"
        for index in 0..<3_000 { csv += "p\(index),USA,0.99\n" + (index % 7 == 0 ? "" : "p\(index),JPN,120\n") }
        try Data(csv.utf8).write(to: URL(fileURLWithPath: path))
        let targets = RenderTarget.storefronts([try Storefront("USA"), try Storefront("JPN")])
        let listed = ProductIDList((0..<3_000).filter { $0 % 3 == 0 }.map { "p\($0)" } + ["gone"])
        let kept = try bulk(path, targets: targets, workers: workers, productIDs: listed)

        var received: [InvalidProduct] = []
        var receivedAtWrites: [Int] = []
        var bytes: [UInt8] = []
        let report = try BulkRenderer(targets: targets, workers: workers, productIDRule: .any).renderCSV(
            at: path, productIDs: listed, invalidProduct: { received.append($0) }
        ) { chunk in
            receivedAtWrites.append(received.count)
            bytes.append(contentsOf: chunk)
        }
        #expect(report.invalidProducts.isEmpty)
        #expect(received == kept.report.invalidProducts)
        #expect(received.count == 144 && received.last == InvalidProduct(productID: "gone", reason: .notInCatalog))
        #expect(bytes == kept.bytes && report.rows == kept.report.rows)
        // Several chunks, and products listed before the last one was written.
        #expect(receivedAtWrites.count >= 2 && receivedAtWrites.last.map { $0 > 0 && $0 < 144 } == true, "\(receivedAtWrites)")
    }

    /// The reference: the CSV reader and ``CatalogRenderer``, each row as the values JSON Lines
    /// must hold.
    func reference(
        _ path: String, targets: [RenderTarget], productIDs: ProductIDList? = nil, options: PriceFormatter.Options = .init()
    ) throws -> (rows: [[String: String?]], report: RenderReport) {
        var source = try Catalog.open(path, productIDRule: .any)
        var rows: [[String: String?]] = []
        let report = try CatalogRenderer(targets: targets, options: options, workers: 1).render(&source, productIDs: productIDs) { batch in
            for row in batch {
                rows.append([
                    "product": row.productID, "storefront": row.storefront.countryCode,
                    "account": row.account, "price_locale": row.priceLocale.identifier,
                    "amount": row.price.amount, "formatted": row.formatted, "title": row.title,
                ])
            }
        }
        return (rows, report)
    }

    /// JSON Lines parsed back with Foundation, an encoder StorePrice does not share.
    func parsed(_ bytes: [UInt8]) throws -> [[String: String?]] {
        // Each line starts with the product and ends with the fields a CSV catalog has no value
        // for, in the schema's order; then the lines are read as one JSON array, by Foundation.
        let start = Array(#"{"product":"#.utf8)
        let end = Array(#","title":null,"period":null,"price_per_period":null,"offer":null,"offer_terms":null,"offers":null,"billing_plans":null,"paywall":null}"#.utf8)
        var array: [UInt8] = [UInt8(ascii: "[")]
        array.reserveCapacity(bytes.count + 2)
        var unexpected: [String] = []
        bytes.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            var lineStart = 0
            while lineStart < all.count {
                let lineEnd = memchr(base + lineStart, Int32(UInt8(ascii: "\n")), all.count - lineStart)
                    .map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? all.count
                let line = UnsafeBufferPointer(start: base + lineStart, count: lineEnd - lineStart)
                if line.count >= start.count + end.count,
                    memcmp(base + lineStart, start, start.count) == 0,
                    memcmp(base + lineEnd - end.count, end, end.count) == 0
                {
                    if array.count > 1 { array.append(UInt8(ascii: ",")) }
                    array.append(contentsOf: line)
                } else if !line.isEmpty, unexpected.count < 3 {
                    unexpected.append(escaped(String(decoding: line, as: UTF8.self)))
                }
                lineStart = lineEnd + 1
            }
        }
        array.append(UInt8(ascii: "]"))
        #expect(unexpected.isEmpty, "lines not in the CSV rows' shape: \(unexpected)")
        let objects = try #require(JSONSerialization.jsonObject(with: Data(array)) as? [[String: Any]])
        return objects.map { object in
            var row: [String: String?] = [:]
            for key in ["product", "storefront", "account", "price_locale", "amount", "formatted", "title"] {
                row[key] = object[key] as? String
            }
            return row
        }
    }

    /// A catalog of `products` products over every storefront, with the quirks real files have:
    /// CRLF, empty lines, quoted IDs with commas and quotes, non-ASCII and formula-like IDs,
    /// lower-case, alpha-2 and numeric codes, trailing zeros, and products missing storefronts.
    static func quirkyCatalog(products: Int) -> String {
        let storefronts = Storefront.all
        var text = "\u{FEFF}product,storefront,price\r\n"
        for index in 0..<products {
            let id: String
            switch index % 7 {
            case 0: id = "\"com.example.\(index),with comma\""
            case 1: id = "\"say \"\"hi\"\" \(index)\""
            case 2: id = "caf\u{E9}.\(index).\u{65E5}\u{672C}"
            case 3: id = "=HYPERLINK(\(index))"
            case 4: id = "back\\slash.\(index)"
            default: id = "com.example.product\(index)"
            }
            for (offset, storefront) in storefronts.enumerated() {
                // Every ninth product lacks its last storefronts: an invalid product.
                if index % 9 == 4, offset > storefronts.count - 3 { continue }
                let code: String
                switch (index + offset) % 5 {
                case 0: code = storefront.countryCode.lowercased()
                case 1: code = storefront.alpha2
                case 2: code = String(storefront.id)
                default: code = storefront.countryCode
                }
                let amount = storefront.currency.fractionDigits == 0
                    ? String(100 * (1 + (index + offset) % 40))
                    : "\((index * 7 + offset) % 50).\((index + offset) % 2 == 0 ? "99" : "50")"
                text += "\(id),\(code),\(amount)" + (offset % 3 == 0 ? "\r\n" : "\n")
                if offset % 50 == 7 { text += "\n" }
            }
        }
        return text
    }

    @Test(arguments: [1, 2, 3, 8])
    func manyChunksGiveTheRowsOfTheRowByRowPipeline(_ workers: Int) throws {
        // About 1.3 MB: products cross chunk boundaries.
        let file = try temporaryFile(Self.quirkyCatalog(products: 240), name: "q.csv")
        let targets = RenderTarget.storefronts(Storefront.all)
        let expected = try reference(file.path, targets: targets)
        let got = try bulk(file.path, targets: targets, workers: workers)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0 > 1 << 20)
        let rows = try parsed(got.bytes)
        #expect(rows.count == expected.rows.count)
        for (index, (row, want)) in zip(rows, expected.rows).enumerated() where row != want {
            Issue.record("row \(index): \(row) != \(want)")
            break
        }
        #expect(got.report.rows == expected.report.rows)
        #expect(got.report.products == expected.report.products)
        #expect(got.report.invalidProducts == expected.report.invalidProducts)
        #expect(!got.report.invalidProducts.isEmpty)
    }

    /// Rows as bytes: `[String: String?]` compares canonically equivalent text as equal.
    static func rowBytes(_ rows: [[String: String?]]) -> [[UInt8]] {
        rows.map { row in
            Array(row.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value ?? "<null>")" }.joined(separator: "\u{1F}").utf8)
        }
    }

    /// Catalogs made to break a chunk cutter or a reader: quoted IDs with commas that start with
    /// another product's ID (`com.x.p48` then `"com.x.p48,USA"`), the same text precomposed and
    /// decomposed next to each other and far apart, CRLF, a BOM, and IDs with NUL and bidi
    /// characters. Both pipelines read every row, the same, byte for byte.
    static func adversarialCatalog(_ kind: Int) -> String {
        var text = kind == 1 ? "\u{FEFF}product,storefront,price\r\n" : "product,storefront,price\n"
        let end = kind == 1 ? "\r\n" : "\n"
        for index in 0..<6_000 {
            switch kind {
            case 0:
                text += "com.x.p\(index),JPN,160\ncom.x.p\(index),USA,0.99\n"
                text += "\"com.x.p\(index),USA\",JPN,160\n\"com.x.p\(index),USA\",USA,1.99\n"
            case 1:
                // Precomposed, then decomposed: two products; and far apart, every 1,000 lines.
                text += "caf\u{E9}.\(index),USA,0.99\(end)cafe\u{301}.\(index),USA,1.99\(end)"
                // ñ precomposed here, decomposed (n and U+0303) 1,000 products later: not a repeat.
                if index % 1_000 == 0 { text += "\u{F1}.\(index),USA,0.99\(end)" }
                if index % 1_000 == 999 { text += "n\u{303}.\(index - 999),JPN,160\(end)" }
            default:
                text += "\"nul\u{0}.\(index)\",USA,0.99\(end)bidi\u{202E}.\(index),USA,0.99\(end)\"q\"\",\"\"\(index)\",USA,0.99\(end)"
            }
        }
        return text
    }

    @Test(arguments: [0, 1, 2])
    func adversarialCatalogsGiveTheSameRowsInBothPipelines(_ kind: Int) throws {
        let file = try temporaryFile(Self.adversarialCatalog(kind), name: "adversarial.csv")
        let targets = RenderTarget.storefronts([try Storefront("USA"), try Storefront("JPN")])
        let expected = try reference(file.path, targets: targets)
        #expect(expected.report.rows == [24_000, 12_012, 18_000][kind])
        for workers in [1, 2] {
            let got = try bulk(file.path, targets: targets, workers: workers)
            let rows = try parsed(got.bytes)
            #expect(rows.count == expected.rows.count)
            let (mine, theirs) = (Self.rowBytes(rows), Self.rowBytes(expected.rows))
            if let index = mine.indices.first(where: { $0 < theirs.count && mine[$0] != theirs[$0] }) {
                Issue.record("row \(index): \(escaped(String(decoding: mine[index], as: UTF8.self))) != \(escaped(String(decoding: theirs[index], as: UTF8.self)))")
            }
        }
    }

    /// More distinct amounts than the shared tables keep (12,288): the workers move to fresh
    /// tables between products, and the rows stay those of the reference (the CSV reader, rows as values).
    @Test(arguments: [1, 2, 3])
    func moreAmountsThanTheTablesKeepGiveTheSameRows(_ workers: Int) throws {
        let storefronts = Storefront.all
        var text = "product,storefront,price\n"
        // 110 × 175 = 19,250 prices, each amount its own, then 10 products priced as the first 10.
        for index in 0..<120 {
            for (offset, storefront) in storefronts.enumerated() {
                text += "p\(index),\(storefront.countryCode),\(index % 110 * storefronts.count + offset + 1)\n"
            }
        }
        let file = try temporaryFile(text, name: "amounts.csv")
        let targets = RenderTarget.storefronts(storefronts)
        let expected = try reference(file.path, targets: targets)
        let got = try bulk(file.path, targets: targets, workers: workers)
        let rows = try parsed(got.bytes)
        #expect(rows.count == 120 * storefronts.count)
        #expect(rows.count == expected.rows.count)
        for (index, (row, want)) in zip(rows, expected.rows).enumerated() where row != want {
            Issue.record("row \(index): \(row) != \(want)")
            break
        }
        // The first 12,288 amounts fill the tables; the last 10 products' prices were left with
        // them and are formatted again.
        #expect(workers > 1 || got.report.distinctPrices == 21_000)
    }

    @Test func accountsAProductListAndOptionsAreHonoured() throws {
        let file = try temporaryFile(Self.quirkyCatalog(products: 20), name: "a.csv")
        let accounts = RenderTarget.accounts(TestAccountFile.builtIn.accounts)
        let list = try ProductIDList(data: Array("[\"com.example.product5\", \"caf\u{E9}.9.\u{65E5}\u{672C}\", \"missing\"]".utf8), source: "list")
        let options = PriceFormatter.Options(display: .isoCode, rounding: .halfEven)
        let expected = try reference(file.path, targets: accounts, productIDs: list, options: options)
        let got = try bulk(file.path, targets: accounts, workers: 2, productIDs: list, options: options)
        #expect(try parsed(got.bytes) == expected.rows)
        #expect(got.report.products == 2)
        #expect(got.report.invalidProducts == expected.report.invalidProducts)
        #expect(got.report.invalidProducts.last == InvalidProduct(productID: "missing", reason: .notInCatalog))
    }

    @Test func csvOutputStartsWithItsHeader() throws {
        let file = try temporaryFile("product,storefront,price\n-2,USA,1\n", name: "h.csv")
        let got = try bulk(file.path, targets: RenderTarget.storefronts([try Storefront("USA")]), format: .csv, workers: 1)
        expectBytes(
            String(decoding: got.bytes, as: UTF8.self),
            "product,storefront,account,price_locale,amount,formatted,title,period,price_per_period,offer,offer_terms,offers,billing_plans,paywall\n"
                + "'-2,USA,,en_US@currency=USD,1,$1.00,,,,,,,,\n")
    }

    /// Valid filler lines, 100 storefronts a product: 30,000 are about 1.2 MB, past the first
    /// chunks and past 1 MiB; 6,000 are about 230 KB, seven 32 KiB chunks.
    static func filler(lines: Int) -> String {
        (0..<lines).map { "com.example.filler\($0 / 100),\(Storefront.all[$0 % 100].countryCode),1\n" }.joined()
    }
    static let filler = filler(lines: 30_000)
    static let shortFiller = filler(lines: 6_000)

    /// Bad lines: the error must be the reference's, whether the line is the first or
    /// falls after about 230 KB of good lines, in a later chunk.
    @Test(arguments: [
        "a,USA\n", "a,USA,1,2\n", ",USA,1\n", "a,XYZ,1\n", "a,USA,1.2.3\n", "a,USA,1\na,US,2\n",
        "a,USA,1\nb,USA,1\na,JPN,1\n", "\"a,USA,1\n", "a,USA,\u{FF}1\n", "a,\u{212A}OR,1\n", "a,USA,-\n",
        "a,USA,1,\n", "a,USA," + String(repeating: "9", count: 200) + "\n",
        // Later lines of one product, read in place (`pricesOfSameProduct`); a repeated storefront
        // with an amount already seen, and with CRLF.
        "a,USA,1\na,USA,1\n", "a,USA,1\r\na,DEU,1\r\na,DEU,1\r\n", "a,USA,1\na,USA,2\n", "a,USA,1\na,usa,2\n", "a,USA,1\na,JPN,1,2\n", "a,USA,1\na,JPN,1.2.3\n", "a,USA,1\na,XYZ,1\n",
        "a,USA,1\na,JPN,\n", "a,USA,1\na,JPN,0.5\n", "a,USA,1\r\na,DEU,1\r\na,DEU,2\r\n",
        "a,USA,1\na,JPN," + String(repeating: "9", count: 40) + ".5\n",
        // Three-byte codes with a byte below `A`: read by table, they must not trap.
        "a,U1A,1\n", "a,N/A,1\n", "a,U-S,1\n", "a,USA,1\na,U1A,2\n", "a,USA,1\na,N/A,1\n",
    ])
    func badLinesGiveTheRowByRowError(_ bad: String) throws {
        for prefix in ["", Self.shortFiller] {
            var data = Data("product,storefront,price\n\(prefix)".utf8)
            // Invalid UTF-8 is written as bytes.
            data.append(contentsOf: bad == "a,USA,\u{FF}1\n" ? Array("a,USA,".utf8) + [0xFF] + Array("1\n".utf8) : Array(bad.utf8))
            let file = try temporaryFile(data, name: "bad.csv")
            let targets = RenderTarget.storefronts(Storefront.all)
            var expected = "no error"
            do { _ = try reference(file.path, targets: targets) } catch { expected = String(describing: error) }
            for workers in [1, 2] {
                var got = "no error"
                do { _ = try bulk(file.path, targets: targets, workers: workers) } catch { got = String(describing: error) }
                expectBytes(got, expected)
            }
            #expect(expected != "no error", "\(escaped(bad))")
        }
    }

    /// A code with a byte below `A` (`U1A`, `N/A`) after the first product's 175 lines, where the
    /// calling thread once formatted ahead, ended the run with a trap (status 132) where the bad
    /// line's error was due.
    @Test(arguments: [",U1A,1\n", "c,N/A,1\n", "c,XXX,1\nc,U1A,1\n"])
    func aBadLineAmongLinesFormattedAheadGivesTheRowByRowError(_ bad: String) throws {
        var csv = "product,storefront,price\n"
        for storefront in Storefront.all { csv += "A,\(storefront.countryCode),1\n" }
        csv += "B,USA,1\n" + bad
        let file = try temporaryFile(csv, name: "ahead.csv")
        let targets = RenderTarget.storefronts(Storefront.all)
        var expected = "no error"
        do { _ = try reference(file.path, targets: targets) } catch { expected = String(describing: error) }
        #expect(expected != "no error")
        for workers in [1, 2, 8] {
            var got = "no error"
            do { _ = try bulk(file.path, targets: targets, workers: workers) } catch { got = String(describing: error) }
            expectBytes(got, expected)
        }
    }

    /// Before an error, what is written is whole rows of products before the bad line, and the
    /// same bytes with any number of workers, run after run: chunks are cut where the catalog
    /// says, not where a reused buffer happens to end.
    @Test func whatIsWrittenBeforeAnErrorIsTheSameWithAnyNumberOfWorkers() throws {
        let products = (0..<15_000).map { "com.example.p\($0),USA,0.99\ncom.example.p\($0),JPN,160\n" }.joined()
        let file = try temporaryFile("product,storefront,price\n" + products + "com.example.bad,JPN,1.5\n", name: "late.csv")
        let targets = RenderTarget.storefronts([try Storefront("USA"), try Storefront("JPN")])
        var first: [UInt8]?
        for workers in [1, 2, 3, 8, 2, 2, 1] {
            var bytes: [UInt8] = []
            var got = "no error"
            do {
                _ = try BulkRenderer(targets: targets, workers: workers, productIDRule: .any).renderCSV(at: file.path) { bytes.append(contentsOf: $0) }
            } catch { got = String(describing: error) }
            #expect(got.contains("line 30002, field 'price for JPN'"), "\(got)")
            #expect(bytes.last == UInt8(ascii: "\n") && bytes.count > 1_000_000, "\(workers) workers: \(bytes.count) bytes")
            if let first {
                let same = bytes == first
                #expect(same, "\(workers) workers: \(bytes.count) bytes written, 1 worker: \(first.count)")
            }
            first = first ?? bytes
        }
    }

    @Test func aPriceTheOptionsCannotShowNamesItsLineAndTarget() throws {
        let file = try temporaryFile("product,storefront,price\n" + Self.filler + "a,JPN,160.50\n", name: "p.csv")
        let targets = RenderTarget.storefronts([try Storefront("JPN"), try Storefront("USA")])
        var expected = "no error"
        do { _ = try reference(file.path, targets: targets) } catch { expected = String(describing: error) }
        var got = "no error"
        do { _ = try bulk(file.path, targets: targets, workers: 2) } catch { got = String(describing: error) }
        expectBytes(got, expected)
        #expect(got.contains("line 30002, field 'price for JPN'") && got.contains("'160.50' needs 1 fraction digit"), "\(got)")
    }

    @Test func headerProblemsAreTheReadersToo() throws {
        for text in ["", "\n", "id,storefront,price\n", "\u{FEFF}price,PRODUCT_ID,storefront\r\na,USA,1\n", "product,storefront,price"] {
            let file = try temporaryFile(text, name: "h.csv")
            var expected = "no error"
            do { _ = try reference(file.path, targets: RenderTarget.storefronts(Storefront.all)) } catch { expected = String(describing: error) }
            var got = "no error"
            do { _ = try bulk(file.path, targets: RenderTarget.storefronts(Storefront.all), workers: 2) } catch { got = String(describing: error) }
            expectBytes(got, expected)
        }
    }

    @Test func aLineOfOneMiBPassesAndOneByteMoreIsRefusedAfterTheLinesBefore() throws {
        let prefix = "product,storefront,price\n" + Self.filler
        let id = String(repeating: "x", count: (1 << 20) - ",USA,1".utf8.count)
        let fits = try temporaryFile(prefix + id + ",USA,1\n", name: "fits.csv")
        let report = try bulk(fits.path, targets: RenderTarget.storefronts([try Storefront("USA")]), workers: 2).report
        // The filler's products have no USA price; the long line's has.
        #expect(report.rows == 1 && report.products == 301 && report.invalidProducts.count == 300)
        let over = try temporaryFile(prefix + id + "x,USA,1\n", name: "over.csv")
        var got = "no error"
        do { _ = try bulk(over.path, targets: RenderTarget.storefronts([try Storefront("USA")]), workers: 2) } catch { got = String(describing: error) }
        expectBytes(got, "catalog '\(shownInMessage(path: over.path))', line 30002: longer than 1 MiB; a line holds one product or price")
    }
}
