import Foundation
@testable import StorePrice
import TestSupport
import Testing

/// The bulk pipeline's record of products, which keeps a window of them in memory and the rest on
/// disk: it finds the same first repeat as a dictionary of every ID would, wherever the repeat
/// falls against the windows.
@Suite struct ProductRegistryTests {
    /// The first repeat the way a bulk run looks for it: each product as it comes, then, for a
    /// repeat in memory or at the end, the earlier repeats on disk.
    func firstRepeat(_ ids: [String], slots: Int) throws -> ProductRegistry.Repeat? {
        let registry = ProductRegistry(maximumSlots: slots)
        for (index, id) in ids.enumerated() {
            let line = index + 1
            if let first = try registry.insert(id, line: line) {
                return try registry.earliestRepeat(before: line) ?? .init(id: id, line: line, first: first)
            }
        }
        return try registry.earliestRepeat(before: .max)
    }

    /// The first repeat by a dictionary of every ID.
    func expectedRepeat(_ ids: [String]) -> ProductRegistry.Repeat? {
        var seen: [String: Int] = [:]
        for (index, id) in ids.enumerated() {
            if let first = seen[id] { return .init(id: id, line: index + 1, first: first) }
            seen[id] = index + 1
        }
        return nil
    }

    @Test func distinctProductsHaveNoRepeatAcrossManyWindows() throws {
        let ids = (0..<1_000).map { "p\($0)" }
        #expect(try firstRepeat(ids, slots: 8) == nil)
        #expect(try firstRepeat(ids, slots: 1 << 18) == nil)
    }

    /// A repeat of a product from the first window, found only by merging: the earliest second
    /// appearance wins, and a product seen three times is reported at its second.
    @Test func aRepeatFromAnEarlierWindowIsFoundByMerging() throws {
        var ids = (1...50).map { "p\($0)" }
        ids += ["p20", "p3", "p20"]
        ids += (51...80).map { "p\($0)" }
        let found = try firstRepeat(ids, slots: 8)
        #expect(found == .init(id: "p20", line: 51, first: 20))
        #expect(found == expectedRepeat(ids))
    }

    /// Random catalogs, some with repeats near and far, windows of 3 to 96 products (100 slots round up to 128): the same
    /// repeat as the dictionary, or none.
    @Test(arguments: [4, 8, 32, 100, 128])
    func theSameRepeatAsADictionaryOfEveryID(_ slots: Int) throws {
        var generator = SplitMix64(seed: UInt64(slots))
        var withRepeats = 0
        for _ in 0..<200 {
            let count = Int(generator.next() % 400) + 1
            let pool = Int(generator.next() % 3) == 0 ? count / 2 + 1 : count * 50
            let ids = (0..<count).map { _ in "id-\(generator.next() % UInt64(pool))" }
            let expected = expectedRepeat(ids)
            if expected != nil { withRepeats += 1 }
            #expect(try firstRepeat(ids, slots: slots) == expected, "\(ids)")
        }
        #expect(withRepeats > 40)
    }

    /// However many products went to disk, a repeat of any of the last `recent` products is
    /// found as it is inserted (and not inserted).
    @Test(arguments: [8, 64, 1 << 18])
    func aRepeatOfARecentProductIsFoundAtOnce(_ slots: Int) throws {
        let registry = ProductRegistry(maximumSlots: slots)
        let count = slots == 1 << 18 ? 400_000 : 300
        let checks = slots == 1 << 18 ? Set(stride(from: 150_000, to: count, by: 49_999)) : Set(1...count)
        #expect(registry.recent == registry.window - registry.quarter)
        for line in 1...count {
            #expect(try registry.insert("p\(line)", line: line) == nil)
            guard checks.contains(line) else { continue }
            let back = min(line, registry.recent)
            for earlier in [line - back + 1, line - back / 2, line] {
                #expect(try registry.insert("p\(earlier)", line: count + 1) == earlier, "line \(line): p\(earlier)")
            }
        }
        #expect(try registry.earliestRepeat(before: .max) == nil || count > registry.window)
    }

    /// IDs past the first window go to a file by line, and come back whole: long ones, and ones
    /// with bytes a message escapes.
    @Test func theRepeatedIDComesBackFromDisk() throws {
        let long = String(repeating: "x", count: 100_000)
        let ids = (1...20).map { "p\($0)" } + [long, "a\u{1B}b", "p30", long]
        #expect(try firstRepeat(ids, slots: 4) == .init(id: long, line: 24, first: 21))
        let escape = (1...20).map { "p\($0)" } + ["a\u{1B}b"] + (1...20).map { "q\($0)" } + ["a\u{1B}b"]
        #expect(try firstRepeat(escape, slots: 4) == .init(id: "a\u{1B}b", line: 42, first: 21))
    }

    /// Through ``BulkRenderer``, with a window of 6 products: the rows of a catalog without
    /// repeats, and the error of one with a repeat far apart, are those of the default window,
    /// for CSV and JSON Lines catalogs and 1 or 2 workers.
    @Test(arguments: [1, 2])
    func aSmallWindowRendersAndFailsAsTheDefault(_ workers: Int) throws {
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
        func render(_ name: String, slots: Int) -> (bytes: [UInt8], error: String?) {
            var renderer = BulkRenderer(targets: targets, workers: workers)
            renderer.productSlots = slots
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
        for (name, _) in files {
            let small = render(name, slots: 8)
            let usual = render(name, slots: 1 << 18)
            #expect(small.error == usual.error, "\(name)")
            if usual.error == nil {
                #expect(small.bytes == usual.bytes, "\(name)")
                #expect(!small.bytes.isEmpty)
            }
        }
        #expect(render("r.csv", slots: 8).error?.hasSuffix(
            "r.csv', line 602: product 'p7' again; line 16 has it; keep each product's rows together") == true)
        #expect(render("r.jsonl", slots: 8).error?.hasSuffix("r.jsonl', line 301: product 'p7' again; line 8 has it") == true)
    }

    /// A repeat far back comes before a bad line after it, and after a bad line before it, as
    /// with the default window.
    @Test func theEarliestErrorWinsOverARepeatOnDisk() throws {
        let directory = try temporaryDirectory()
        var csv = "product,storefront,price\n"
        for index in 0..<100 { csv += "p\(index),USA,0.99\n" }
        let repeatThenBad = csv + "p5,USA,0.99\nr,USA,0.99\nq,USA,zero\n"
        let badThenRepeat = csv + "q,USA,zero\np5,USA,0.99\n"
        let targets = RenderTarget.storefronts([try Storefront("USA")])
        func error(_ text: String, slots: Int) throws -> String? {
            let url = directory.appendingPathComponent("c.csv")
            try Data(text.utf8).write(to: url)
            var renderer = BulkRenderer(targets: targets, workers: 1)
            renderer.productSlots = slots
            do {
                _ = try renderer.renderCSV(at: url.path) { _ in }
                return nil
            } catch {
                return "\(error)"
            }
        }
        let repeatFirst = try error(repeatThenBad, slots: 8)
        #expect(repeatFirst?.contains("line 102: product 'p5' again; line 7 has it") == true, "\(repeatFirst ?? "")")
        #expect(try error(repeatThenBad, slots: 1 << 18) == repeatFirst)
        let badFirst = try error(badThenRepeat, slots: 8)
        #expect(badFirst?.contains("line 102, field 'price': invalid amount 'zero'") == true, "\(badFirst ?? "")")
        #expect(try error(badThenRepeat, slots: 1 << 18) == badFirst)
    }
}
