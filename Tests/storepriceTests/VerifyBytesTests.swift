import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import StorePrice
import TestSupport
import Testing

/// `verify` sees every byte: canonically equivalent text is a change, the order of a row's
/// strings is not, and a field named twice is a bad golden.
@Suite struct VerifyBytesTests {
    /// The golden holds `Kc\u{030C}` (c and a combining caron), with an `escaped` copy that says so;
    /// ICU writes the precomposed `č`. Swift's `String` calls them equal; their bytes differ.
    @Test func decomposedTextIsAChangeInThePrice() throws {
        let golden = try editedSampleGolden { line in
            guard line.hasPrefix(#"{"product":"com.example.coins.100","account":"cze","#) else { return line }
            return line.replacingOccurrences(of: "29,00\u{00A0}K\u{010D}", with: "29,00\u{00A0}Kc\u{030C}")
                .replacingOccurrences(of: #"K\\u{010D}"#, with: #"Kc\\u{030C}"#)
        }
        let run = try runStorePrice(["verify", golden.path, "--format", "json"])
        #expect(run.status == 1, "\(run.output)\(run.error)")
        #expect(run.output.contains(#""product":"com.example.coins.100""#), "\(run.output)")
        #expect(!run.output.contains(#""changed":[]"#), "\(run.output)")
    }

    @Test func decomposedTextIsAChangeInAnyString() throws {
        // A title with a precomposed character, from a catalog, against a golden holding it decomposed.
        let directory = try temporaryDirectory()
        let catalog = directory.appendingPathComponent("catalog.jsonl")
        try Data(#"{"product":"com.example.ga","prices":{"JPN":"160"},"title":{"ja":"ガ"}}"#.utf8 + [0x0A]).write(to: catalog)
        let snapshot = directory.appendingPathComponent("golden.jsonl").path
        let record = try runStorePrice(["snapshot", catalog.path, "--output", snapshot])
        #expect(record.status == 0, "\(record.error)")
        let text = try String(contentsOfFile: snapshot, encoding: .utf8)
        let decomposed = text.replacingOccurrences(of: #""text":"ガ","escaped":"\\u{30AC}""#, with: "\"text\":\"\u{30AB}\u{3099}\",\"escaped\":\"\\\\u{30AB}\\\\u{3099}\"")
        #expect(!decomposed.utf8.elementsEqual(text.utf8), "the edit applies")
        try decomposed.write(toFile: snapshot, atomically: true, encoding: .utf8)
        let run = try runStorePrice(["verify", snapshot])
        #expect(run.status == 1, "\(run.output)\(run.error)")
        #expect(run.output.contains("title"), "\(run.output)")
        #expect(!run.output.contains(" 0 of "), "\(run.output)")
    }

    @Test func theSameStringsInAnotherOrderAreNoChange() throws {
        let golden = try editedSampleGolden { line in
            guard line.hasPrefix(#"{"product":"com.example.pro.monthly","account":"jpn","#),
                let start = line.range(of: #","strings":["#), line.hasSuffix("]}")
            else { return line }
            let list = line[start.upperBound..<line.index(line.endIndex, offsetBy: -2)]
            let fields = list.components(separatedBy: "},{")
            guard fields.count > 1 else { return line }
            let reordered = fields.map { field -> String in
                var field = field
                if !field.hasPrefix("{") { field = "{" + field }
                if !field.hasSuffix("}") { field += "}" }
                return field
            }.reversed().joined(separator: ",")
            return String(line[..<start.upperBound]) + reordered + "]}"
        }
        let text = try String(contentsOf: golden, encoding: .utf8)
        #expect(try !String(contentsOf: sampleGolden, encoding: .utf8).elementsEqual(text), "the edit applies")
        let run = try runStorePrice(["verify", golden.path])
        #expect(run.status == 0, "\(run.output)\(run.error)")
    }

    @Test func aFieldNamedTwiceIsABadGoldenNamingRowAndField() throws {
        let golden = try editedSampleGolden { line in
            guard line.hasPrefix(#"{"product":"com.example.coins.100","account":"jpn","#) else { return line }
            return line.replacingOccurrences(
                of: #"]}"#, with: #",{"field":"title","text":"x","escaped":"x"}]}"#)
        }
        let run = try runStorePrice(["verify", golden.path])
        #expect(run.status == 65)
        #expect(run.error.hasSuffix("field 'title' appears twice in this row; record the snapshot again\n"), "\(run.error)")
        #expect(run.error.contains("line "), "\(run.error)")
    }

    /// Two spellings of one text are two products, sorted by their bytes: a golden recorded from
    /// them verifies.
    @Test func aGoldenOfTwoSpellingsVerifies() throws {
        let directory = try temporaryDirectory()
        let catalog = directory.appendingPathComponent("c.csv")
        try Data("product,storefront,price\ncom.example.\u{E9},USA,0.99\ncom.example.e\u{301},USA,1.99\n".utf8).write(to: catalog)
        let golden = directory.appendingPathComponent("g.jsonl").path
        #expect(try runStorePrice(["snapshot", "--any-product-id", catalog.path, "--output", golden]).status == 0)
        let run = try runStorePrice(["verify", golden])
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.output, "all 6 strings match; snapshot made with ICU 72.1/CLDR 42.0, as now\n")
    }

    @Test func aLoneSurrogateInAGoldenIsNotUnicode() throws {
        let golden = try editedSampleGolden { line in
            guard line.hasPrefix(#"{"product":"com.example.coins.100","account":"usa","#) else { return line }
            return line.replacingOccurrences(of: #""product":"com.example.coins.100""#, with: #""product":"com.example.coins.100\ud800""#)
        }
        let run = try runStorePrice(["verify", golden.path])
        #expect(run.status == 65)
        #expect(run.error.hasSuffix("'\\ud800' is not valid Unicode: a surrogate escape without its pair\n"), "\(run.error)")
    }

    @Test func snapshotMakesTheOutputsMissingFolders() throws {
        let directory = try temporaryDirectory()
        let output = directory.appendingPathComponent("new/folder/golden.jsonl").path
        let run = try runStorePrice(["snapshot", repositoryFile("Data/catalog-sample.jsonl").path, "--output", output])
        #expect(run.status == 0, "\(run.error)")
        #expect(try PriceSnapshot(contentsOfFile: output).rows.count == 5608)
    }
}

/// Reports CI systems and people read: well-formed for any product ID, and showing IDs in their
/// real order, with control, bidi and invisible characters escaped in every part.
@Suite struct HostileReportTests {
    static let ids = ["com.ex.ctl\u{0001}x", "com.ex.nonchar\u{FFFE}", "com.ex.bidi\u{202E}gnp.exe", "com.ex.esc\u{1B}[2J"]

    /// A golden of products with those IDs, whose yen prices all changed since.
    static func changedGolden() throws -> URL {
        let directory = try temporaryDirectory()
        let catalog = directory.appendingPathComponent("catalog.jsonl")
        var lines = ""
        for id in ids {
            let quoted = String(decoding: try JSONEncoder().encode(id), as: UTF8.self)
            lines += #"{"product":\#(quoted),"prices":{"JPN":"160"}}"# + "\n"
        }
        try Data(lines.utf8).write(to: catalog)
        let golden = directory.appendingPathComponent("golden.jsonl")
        let record = try runStorePrice(["snapshot", "--any-product-id", catalog.path, "--output", golden.path, "--accounts", "-"],
            input: Data(#"[{"name": "jpn", "email": "jpn@example.com", "storefront": "JPN"}]"#.utf8))
        #expect(record.status == 0, "\(record.error)")
        let text = try String(contentsOf: golden, encoding: .utf8)
            .replacingOccurrences(of: #""formatted":"￥160","escaped":"\\u{FFE5}160""#, with: #""formatted":"¥160","escaped":"\\u{00A5}160""#)
        try text.write(to: golden, atomically: true, encoding: .utf8)
        return golden
    }

    @Test func junitIsWellFormedXMLForAnyProductID() throws {
        let golden = try Self.changedGolden()
        let junit = golden.deletingLastPathComponent().appendingPathComponent("junit.xml")
        let run = try runStorePrice(["verify", golden.path, "--junit", junit.path])
        #expect(run.status == 1, "\(run.error)")
        let xml = try Data(contentsOf: junit)
        // XML 1.0 allows tab, line feed, carriage return and U+0020 upward, less U+FFFE and U+FFFF.
        let text = String(decoding: xml, as: UTF8.self)
        let illegal = text.unicodeScalars.filter {
            ($0.value < 0x20 && ![0x09, 0x0A, 0x0D].contains($0.value)) || $0.value == 0xFFFE || $0.value == 0xFFFF
        }
        #expect(illegal.isEmpty, "\(illegal.map { String($0.value, radix: 16) })")
        #expect(text.contains(#"name="com.ex.ctl\u{0001}x""#), "\(text)")
        #expect(text.contains(#"name="com.ex.nonchar\u{FFFE}""#))
        #expect(text.contains(#"name="com.ex.bidi\u{202E}gnp.exe""#))
        #expect(text.contains("<failure "))
        let parser = XMLParser(data: xml)
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    }

    @Test func theHTMLReportShowsIDsEscapedInEveryPart() throws {
        let golden = try Self.changedGolden()
        let report = golden.deletingLastPathComponent().appendingPathComponent("diff.html")
        let run = try runStorePrice(["verify", golden.path, "--report", report.path])
        #expect(run.status == 1, "\(run.error)")
        let html = try String(contentsOf: report, encoding: .utf8)
        for hidden in ["\u{0001}", "\u{FFFE}", "\u{202E}", "\u{1B}"] {
            #expect(!html.contains(hidden), "raw \(escaped(hidden)) in the report")
        }
        #expect(html.contains(#"<th class="product">com.ex.bidi\u{202E}gnp.exe</th>"#))
        #expect(html.contains(#"com.ex.esc\u{001B}[2J"#))
        // The text part keeps its lines.
        let pre = try #require(html.firstMatch(of: /<pre>(?s:(.*))<\/pre>/)).1
        #expect(pre.contains("\n") && !pre.contains("\\u{000A}"), "\(pre.prefix(200))")
    }
}
