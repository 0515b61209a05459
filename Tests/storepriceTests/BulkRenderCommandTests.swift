import Foundation
import TestSupport
import Testing

/// `render` reads CSV and JSON Lines catalogs on their bytes and `.storekit` catalogs as products:
/// the same products written as CSV and as JSON Lines must give the same bytes, on standard output
/// and standard error, in every output format and with any number of workers.
@Suite struct BulkRenderCommandTests {
    /// The same catalog twice: CSV (with CRLF, empty lines, quoting and other codes for the same
    /// storefronts) and JSON Lines.
    static func catalogs(products: Int) throws -> (csv: URL, jsonl: URL) {
        let codes = ["USA", "us", "143441", "JPN", "jp", "DEU", "GBR", "SAU", "IND", "BRA", "CAN", "che", "TWN", "CPV"]
        var csv = "product,storefront,price\r\n"
        var jsonl = ""
        for index in 0..<products {
            let id: String
            switch index % 6 {
            case 0: id = "com.example.\(index),\"quoted\""
            case 1: id = "=cmd|' /C calc'!A\(index)"
            case 2: id = "caf\u{E9}.\(index).\u{65E5}\u{672C}\u{202E}"
            case 3: id = "tab\there.\(index)"
            default: id = "com.example.product\(index)"
            }
            let quoted = "\"" + id.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            var prices: [String: String] = [:]
            // Each product has one of the USA codes and one of the JPN codes; every fifth lacks TWN.
            let chosen = [codes[index % 3], codes[3 + index % 2]] + codes[5...].filter { !($0 == "TWN" && index % 5 == 0) }
            for (offset, code) in chosen.enumerated() {
                let zeroDigits = ["JPN", "jp", "TWN"].contains(code)
                let amount = zeroDigits ? String(100 + (index * 13 + offset) % 900) : "\((index + offset) % 30).\(offset % 2 == 0 ? "99" : "50")"
                csv += "\(quoted),\(code),\(amount)" + (offset % 2 == 0 ? "\n" : "\r\n")
                if offset == 4 { csv += "\n" }
                prices[code] = amount
            }
            let object: [String: Any] = ["product": id, "prices": prices]
            jsonl += String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self) + "\n"
        }
        let directory = try temporaryDirectory()
        let csvURL = directory.appendingPathComponent("c.csv")
        let jsonlURL = directory.appendingPathComponent("c.jsonl")
        try Data(csv.utf8).write(to: csvURL)
        try Data(jsonl.utf8).write(to: jsonlURL)
        return (csvURL, jsonlURL)
    }

    @Test func aCSVCatalogOnStandardInput() throws {
        let (csv, jsonl) = try Self.catalogs(products: 300)
        let fromStandardInput = try runStorePrice(
            ["render", "-", "--any-product-id", "--catalog-format", "csv", "--storefronts", "all"], input: try Data(contentsOf: csv))
        let fromJSONL = try runStorePrice(["render", "--any-product-id", jsonl.path, "--storefronts", "all"])
        #expect(fromStandardInput.status == 0, "\(fromStandardInput.error)")
        #expect(firstDifference(fromStandardInput.standardOutput, fromJSONL.standardOutput) == nil)
    }

}

/// The bulk pipeline on catalogs of hundreds of thousands of rows, through the CLI: slow, so run
/// apart (see `loadTest`).
@Suite(.loadTest) struct BulkRenderLoadTests {
    @Test(arguments: ["jsonl", "json", "csv", "table"], ["1", "2", "3", "8"])
    func csvAndJSONLinesCatalogsRenderTheSame(_ format: String, _ workers: String) throws {
        // About 800 KB of CSV: more than one chunk.
        let (csv, jsonl) = try BulkRenderCommandTests.catalogs(products: 1_500)
        for targets in [["--storefronts", "USA,JPN,TWN,SAU,CPV"], []] {
            let arguments = ["--format", format, "--workers", workers] + targets
            let fromCSV = try runStorePrice(["render", "--any-product-id", csv.path] + arguments)
            let fromJSONL = try runStorePrice(["render", "--any-product-id", jsonl.path] + arguments)
            #expect(fromCSV.status == 0, "\(fromCSV.error)")
            #expect(fromCSV.standardOutput.count > 100_000)
            if let difference = firstDifference(fromCSV.standardOutput, fromJSONL.standardOutput) {
                Issue.record("\(arguments): \(difference)")
            }
            expectBytes(fromCSV.error, fromJSONL.error)
        }
    }

    /// 300 products × 175 storefronts written as the benchmark writes them, as CSV and as JSON
    /// Lines: every output format's bytes are pinned by checksum (taken before the bulk pipeline
    /// was rewritten, and again when rows gained their null or empty `paywall` field), with 1, 2,
    /// 3 and 8 workers.
    @Test(arguments: [("jsonl", "215f88e548653121"), ("csv", "739bc2f68c4bd420"), ("json", "4ade29a778fc8fe9"), ("table", "adda3c02938dac0e")])
    func theBenchmarkShapedCatalogMatchesItsPinnedChecksums(_ format: String, _ pinned: String) throws {
        var csv = "product,storefront,price\n"
        var jsonl = ""
        let storefronts = try runStorePrice(["storefronts", "--format", "csv"]).output
            .split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        for product in 0..<300 {
            var prices: [String] = []
            for fields in storefronts {
                let zero = ["JPY", "KRW", "CLP", "VND", "ISK", "UGX", "PYG", "XAF", "XOF", "HUF", "TWD", "IDR", "COP", "KZT", "NGN", "PKR", "TZS"]
                    .contains(String(fields[4]))
                let amount = zero ? String((product % 200 + 1) * 100) : "\(product % 200).99"
                csv += "com.example.product\(product),\(fields[1]),\(amount)\n"
                prices.append("\"\(fields[1])\":\"\(amount)\"")
            }
            jsonl += #"{"product":"com.example.product\#(product)","prices":{"# + prices.joined(separator: ",") + "}}\n"
        }
        let directory = try temporaryDirectory()
        for (name, text) in [("b.csv", csv), ("b.jsonl", jsonl)] {
            let file = directory.appendingPathComponent(name)
            try Data(text.utf8).write(to: file)
            for workers in ["1", "2", "3", "8"] {
                let run = try runStorePrice(["render", file.path, "--storefronts", "all", "--workers", workers, "--format", format])
                #expect(run.status == 0, "\(run.error)")
                #expect(checksum(run.standardOutput) == pinned, "\(name) as \(format) with \(workers) workers")
            }
        }
    }
}

@Suite struct JSONArrayOutputTests {
    /// `--format json` is the JSON Lines rows in an array, one per line, whichever path renders them.
    @Test(arguments: ["c.csv", "c.jsonl"])
    func isTheJSONLinesRowsInAnArray(_ name: String) throws {
        let (csv, jsonl) = try BulkRenderCommandTests.catalogs(products: 1_500)
        let catalog = name == "c.csv" ? csv : jsonl
        let lines = try runStorePrice(["render", "--any-product-id", catalog.path, "--workers", "2"]).output
        let array = try runStorePrice(["render", "--any-product-id", catalog.path, "--workers", "2", "--format", "json"])
        #expect(array.status == 0, "\(array.error)")
        let rows = lines.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(rows.count > 10_000)
        expectBytes(array.output, "[\n" + rows.joined(separator: ",\n") + "\n]\n")
        #expect(try JSONSerialization.jsonObject(with: array.standardOutput) is [Any])
    }

    @Test(arguments: ["product,storefront,price\n", ""])
    func anEmptyCatalogIsAnEmptyArray(_ contents: String) throws {
        let directory = try temporaryDirectory()
        let catalog = directory.appendingPathComponent(contents.isEmpty ? "empty.jsonl" : "empty.csv")
        try Data(contents.utf8).write(to: catalog)
        let run = try runStorePrice(["render", catalog.path, "--format", "json"])
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.output, "[]\n")
    }
}

/// A catalog of many products.
@Suite struct ManyProductsCommandTests {
    /// 200,000 products render, and a repeat of the third at the end stops the run at its line,
    /// naming both.
    @Test func aRepeatAfter200000ProductsNamesBothLines() throws {
        let directory = try temporaryDirectory()
        var csv = "product,storefront,price\n"
        for index in 0..<200_000 { csv += "p\(index),USA,0.99\n" }
        let valid = directory.appendingPathComponent("valid.csv")
        try Data(csv.utf8).write(to: valid)
        let repeated = directory.appendingPathComponent("repeated.csv")
        try Data((csv + "p3,USA,1.99\n").utf8).write(to: repeated)

        let run = try runStorePrice(["render", valid.path, "--storefronts", "USA", "--format", "csv"])
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.error, "")
        let last = "\np199999,USA,,en_US@currency=USD,0.99,$0.99,,,,,,,,\n"
        expectBytes(String(run.output.suffix(last.count)), last)
        #expect(run.output.utf8.count(where: { $0 == 10 }) == 200_001)

        let failed = try runStorePrice(["render", repeated.path, "--storefronts", "USA"])
        #expect(failed.status == 65)
        expectBytes(
            failed.error,
            "storeprice: catalog '\(repeated.path)', line 200002: product 'p3' again; line 5 has it; keep each product's rows together\n")
    }
}

/// Invalid products are listed on standard error as they are found, not kept until the end.
@Suite struct InvalidProductListingTests {
    /// When a bad line stops the run, the invalid products listed before its error are those
    /// whose rows were written, in order, none lost in a block not yet written; and no count.
    @Test(arguments: ["1", "2"])
    func theInvalidProductsListedBeforeAnErrorAreThoseWritten(_ workers: String) throws {
        let directory = try temporaryDirectory()
        var csv = "product,storefront,price\n"
        for index in 0..<4_990 { csv += "p\(index),USA,0.99\n" }
        csv += "bad,USA,abc\n"
        for index in 4_990..<5_000 { csv += "p\(index),USA,0.99\n" }
        let catalog = directory.appendingPathComponent("c.csv")
        try Data(csv.utf8).write(to: catalog)
        let run = try runStorePrice(["render", catalog.path, "--storefronts", "USA,JPN", "--workers", workers])
        #expect(run.status == 65)
        let written = run.output.split(separator: "\n").map { line in
            line.split(separator: "\"")[3]
        }
        // More than one chunk of products was written, and not the last ones before the bad line.
        #expect(written.count > 1_000 && written.count < 4_990)
        var expected = ""
        for product in written { expected += "storeprice: invalid product \(product): no price in JPN\n" }
        expected += "storeprice: catalog '\(catalog.path)', line 4992, field 'price': invalid amount 'abc': "
            + "expected ASCII digits with an optional leading '-' and one '.'\n"
        expectBytes(run.error, expected)
    }
}
