import Foundation
@testable import StorePrice
import TestSupport
import Testing

/// The bulk pipeline's record of products: it finds the same first repeat as a dictionary of
/// every ID would, comparing IDs by their bytes.
@Suite struct ProductRegistryTests {
    struct Repeat: Equatable {
        let id: String
        let line: Int
        let first: Int
    }

    /// The first repeat the way a bulk run looks for it: each product as it comes.
    func firstRepeat(_ ids: [String]) -> Repeat? {
        var registry = ProductRegistry()
        for (index, id) in ids.enumerated() {
            if let first = registry.insert(id, line: index + 1) { return Repeat(id: id, line: index + 1, first: first) }
        }
        return nil
    }

    /// The first repeat by a dictionary of every ID's bytes.
    func expectedRepeat(_ ids: [String]) -> Repeat? {
        var seen: [[UInt8]: Int] = [:]
        for (index, id) in ids.enumerated() {
            if let first = seen[Array(id.utf8)] { return Repeat(id: id, line: index + 1, first: first) }
            seen[Array(id.utf8)] = index + 1
        }
        return nil
    }

    @Test func distinctProductsHaveNoRepeat() {
        #expect(firstRepeat((0..<100_000).map { "p\($0)" }) == nil)
    }

    /// The earliest second appearance wins, and a product seen three times is reported at its second.
    @Test func theFirstRepeatNamesBothLines() {
        let ids = (1...50).map { "p\($0)" } + ["p20", "p3", "p20"]
        #expect(firstRepeat(ids) == Repeat(id: "p20", line: 51, first: 20))
    }

    /// NFC and NFD spellings of one text, equal as Swift strings, are two products, as the stores
    /// compare IDs.
    @Test func twoSpellingsOfOneTextAreTwoProducts() {
        #expect(firstRepeat(["caf\u{E9}", "cafe\u{301}"]) == nil)
    }

    /// Random catalogs, some with repeats near and far: the same repeat as the dictionary, or none.
    @Test func theSameRepeatAsADictionaryOfEveryID() {
        var generator = SplitMix64(seed: 7)
        var withRepeats = 0
        for _ in 0..<200 {
            let count = Int(generator.next() % 400) + 1
            let pool = Int(generator.next() % 3) == 0 ? count / 2 + 1 : count * 50
            let ids = (0..<count).map { _ in "id-\(generator.next() % UInt64(pool))" }
            let expected = expectedRepeat(ids)
            if expected != nil { withRepeats += 1 }
            #expect(firstRepeat(ids) == expected, "\(ids)")
        }
        #expect(withRepeats > 40)
    }

    /// Through ``BulkRenderer``: a repeat 290 products apart stops the run at its line, naming
    /// both, for CSV and JSON Lines catalogs and 1 or 2 workers; the rows before it are those of
    /// the catalog without the repeat.
    @Test(arguments: [1, 2])
    func aRepeatFarApartStopsTheRunAtItsLine(_ workers: Int) throws {
        let directory = try temporaryDirectory()
        var csv = "product,storefront,price\n"
        var jsonl = ""
        for index in 0..<300 {
            csv += "p\(index),USA,\(index).99\np\(index),JPN,\(index + 1)00\n"
            jsonl += #"{"product":"p\#(index)","prices":{"USA":"\#(index).99"}}"# + "\n"
        }
        let repeated = csv + "p7,USA,1.99\np300,USA,2.99\n"
        let repeatedLines = jsonl + #"{"product":"p7","prices":{"USA":"1.99"}}"# + "\n"
        let files = [("c.csv", csv), ("r.csv", repeated), ("c.jsonl", jsonl), ("r.jsonl", repeatedLines)]
        for (name, text) in files {
            try Data(text.utf8).write(to: directory.appendingPathComponent(name))
        }
        let targets = RenderTarget.storefronts([try Storefront("USA"), try Storefront("JPN")])
        func render(_ name: String) -> (bytes: [UInt8], error: String?) {
            let renderer = BulkRenderer(targets: targets, workers: workers)
            var bytes: [UInt8] = []
            let path = directory.appendingPathComponent(name).path
            do {
                if name.hasSuffix(".csv") {
                    _ = try renderer.renderCSV(at: path) { bytes.append(contentsOf: $0) }
                } else {
                    _ = try renderer.renderJSONLines(at: path) { bytes.append(contentsOf: $0) }
                }
                return (bytes, nil)
            } catch {
                return (bytes, "\(error)")
            }
        }
        for (valid, repeated) in [("c.csv", "r.csv"), ("c.jsonl", "r.jsonl")] {
            let whole = render(valid)
            #expect(whole.error == nil, "\(valid)")
            #expect(whole.bytes.count > 10_000)
            let stopped = render(repeated)
            #expect(whole.bytes.starts(with: stopped.bytes), "\(repeated)")
        }
        #expect(render("r.csv").error?.hasSuffix(
            "r.csv', line 602: product 'p7' again; line 16 has it; keep each product's rows together") == true)
        #expect(render("r.jsonl").error?.hasSuffix("r.jsonl', line 301: product 'p7' again; line 8 has it") == true)
    }

    /// A repeat far back comes before a bad line after it, and after a bad line before it.
    @Test func theEarliestErrorWinsOverARepeatOnDisk() throws {
        let directory = try temporaryDirectory()
        var csv = "product,storefront,price\n"
        for index in 0..<100 { csv += "p\(index),USA,0.99\n" }
        let repeatThenBad = csv + "p5,USA,0.99\nr,USA,0.99\nq,USA,zero\n"
        let badThenRepeat = csv + "q,USA,zero\np5,USA,0.99\n"
        let targets = RenderTarget.storefronts([try Storefront("USA")])
        func error(_ text: String) throws -> String? {
            let url = directory.appendingPathComponent("c.csv")
            try Data(text.utf8).write(to: url)
            let renderer = BulkRenderer(targets: targets, workers: 1)
            do {
                _ = try renderer.renderCSV(at: url.path) { _ in }
                return nil
            } catch {
                return "\(error)"
            }
        }
        let repeatFirst = try error(repeatThenBad)
        #expect(repeatFirst?.contains("line 102: product 'p5' again; line 7 has it") == true, "\(repeatFirst ?? "")")
        let badFirst = try error(badThenRepeat)
        #expect(badFirst?.contains("line 102, field 'price': invalid amount 'zero'") == true, "\(badFirst ?? "")")
    }
}
