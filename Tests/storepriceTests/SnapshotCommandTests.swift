import Foundation
import StorePrice
import TestSupport
import Testing

@Suite struct SnapshotCommandTests {
    static let sample = repositoryFile("Data/catalog-sample.jsonl").path

    @Test func snapshotOfTheSampleIsTheCommittedGolden() throws {
        let directory = try temporaryDirectory()
        let output = directory.appendingPathComponent("golden.jsonl").path
        let run = try runStorePrice(["snapshot", Self.sample, "--output", output])
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.error, "wrote 5608 rows (181 accounts) to \(output), with ICU 72.1/CLDR 42.0\n")
        let written = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let golden = try String(contentsOf: sampleGolden, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        // Rows are the same bytes; the header differs only in where the catalog is from here.
        #expect(written.count == golden.count)
        #expect(Array(written.dropFirst()) == Array(golden.dropFirst()))
        expectBytes(String(golden[0]), #"{"storeprice_snapshot":2,"storeprice":"0.1.0","icu":"72.1","cldr":"42.0","catalog":"../catalog-sample.jsonl","catalog_format":null,"accounts":null,"display":"symbol","rounding":"reject","rows":5608}"#)
        // Only the catalog path differs, relative to where each snapshot is, and it leads to the sample.
        let withoutCatalog = { (line: Substring) in String(line.replacing(#/"catalog":"[^"]*"/#, with: #""catalog":…"#)) }
        expectBytes(withoutCatalog(written[0]), withoutCatalog(golden[0]))
        #expect(try PriceSnapshot(contentsOfFile: output).source.catalog == Self.sample)
    }

    @Test func verifyOfTheCommittedGoldenPasses() throws {
        let run = try runStorePrice(["verify", sampleGolden.path])
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.output, "all 13,762 strings match; snapshot made with ICU 72.1/CLDR 42.0, as now\n")
        expectBytes(run.error, "")
    }

    @Test func verifyOfAnEditedGoldenExitsOneWithTheDiffAndAReport() throws {
        let golden = try editedSampleGolden(yenSignEdit)
        let report = golden.deletingLastPathComponent().appendingPathComponent("diff.html").path
        let run = try runStorePrice(["verify", golden.path, "--report", report])
        #expect(run.status == 1, "\(run.error)")
        expectBytes(run.output, #"""
            ja_JP@currency=JPY  com.example.level1  ¥160 → ￥160  (\u{00A5} → \u{FFE5})  for jpn

            1 of 13,762 strings changed in 1 price locale; snapshot made with ICU 72.1/CLDR 42.0, as now

            """#)
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>\n"))
        #expect(html.contains(#"<td class="changed" title="\u{00A5}160 → \u{FFE5}160"><del>¥160</del><ins>￥160</ins></td>"#))
        #expect(html.components(separatedBy: #"class="changed""#).count == 3, "the legend's and one cell's")
        #expect(html.contains(#"<td dir="rtl" title="\u{200F}\u{0663}\u{066B}\u{0669}\u{0669}\u{00A0}\u{0631}.\u{0633}.\u{200F}">"#))
    }

    @Test func verifyReportsAChangeInAnyStringARowShowsNamingTheField() throws {
        // Only the price per period of JPN's monthly subscription differs from what renders now.
        let golden = try editedSampleGolden { line in
            guard line.hasPrefix(#"{"product":"com.example.pro.monthly","account":"jpn","#) else { return line }
            return line.replacingOccurrences(
                of: #""field":"price_per_period","text":"￥800/月","escaped":"\\u{FFE5}800/\\u{6708}""#,
                with: #""field":"price_per_period","text":"￥800 / 月","escaped":"\\u{FFE5}800 / \\u{6708}""#)
        }
        let report = golden.deletingLastPathComponent().appendingPathComponent("diff.html").path
        let run = try runStorePrice(["verify", golden.path, "--report", report])
        #expect(run.status == 1, "\(run.error)")
        expectBytes(run.output, #"""
            ja_JP@currency=JPY  com.example.pro.monthly  price_per_period: ￥800 / 月 → ￥800/月  (" / " → /)  for jpn

            1 of 13,762 strings changed in 1 price locale; snapshot made with ICU 72.1/CLDR 42.0, as now

            """#)
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.contains(#"<td class="changed" title="changed: price_per_period">￥800</td>"#))
    }

    /// The change snapshots exist to catch: a no-break space become a plain one.
    @Test func verifyTellsANoBreakSpaceFromAPlainOne() throws {
        let golden = try editedSampleGolden { line in
            guard line.hasPrefix(#"{"product":"com.example.coins.100","account":"deu","#) else { return line }
            return line.replacingOccurrences(
                of: #""formatted":"0,99\#u{00A0}€","escaped":"0,99\\u{00A0}\\u{20AC}""#,
                with: #""formatted":"0,99 €","escaped":"0,99 \\u{20AC}""#)
        }
        #expect(try String(contentsOf: golden, encoding: .utf8).contains(#""formatted":"0,99 €","#))
        let run = try runStorePrice(["verify", golden.path])
        #expect(run.status == 1, "\(run.error)")
        expectBytes(run.output, #"""
            de_DE@currency=EUR  com.example.coins.100  0,99 € → 0,99\#u{00A0}€  (" " → \u{00A0})  for deu

            1 of 13,762 strings changed in 1 price locale; snapshot made with ICU 72.1/CLDR 42.0, as now

            """#)
    }

    /// A snapshot is input too: text from it reaches the terminal escaped.
    @Test func verifyEscapesWhatAHostileSnapshotWouldSendToTheTerminal() throws {
        let golden = try editedSampleGolden { line in
            guard line.hasPrefix(#"{"product":"com.example.level1","account":"jpn","#) else { return line }
            return line
                .replacingOccurrences(of: #""formatted":"￥160","escaped":"\\u{FFE5}160""#,
                                      with: #""formatted":"\u001b[2J\u202e160","escaped":"\\u{001B}[2J\\u{202E}160""#)
                .replacingOccurrences(of: #""field":"title","text":"レベル1","escaped":"\\u{30EC}\\u{30D9}\\u{30EB}1""#,
                                      with: #""field":"title\nstoreprice: all good","text":"x","escaped":"x""#)
        }
        let run = try runStorePrice(["verify", golden.path])
        #expect(run.status == 1, "\(run.error)")
        #expect(!run.output.contains("\u{1B}") && !run.output.contains("\u{202E}"), "\(escaped(run.output))")
        #expect(!run.output.contains("\nstoreprice: all good"), "\(escaped(run.output))")
        #expect(run.output.contains(#"\u{001B}[2J\u{202E}160 → ￥160"#), "\(escaped(run.output))")
        #expect(run.output.contains(#"title\u{000A}storeprice: all good: x → (none)"#), "\(escaped(run.output))")
    }

    /// A snapshot's header is input: it may name only files inside the snapshot's repository,
    /// and never a FIFO or device, and no file's content is quoted.
    @Test func aHeaderMayNameOnlyFilesInsideTheSnapshotsRepository() throws {
        let outside = try temporaryDirectory()
        let secret = outside.appendingPathComponent("credentials")
        try "token=hunter2,x\n".write(to: secret, atomically: true, encoding: .utf8)
        let repository = outside.appendingPathComponent("repo")
        try FileManager.default.createDirectory(at: repository.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: repository.appendingPathComponent("Golden"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: repository.appendingPathComponent("link.csv"), withDestinationURL: secret)
        mkfifo(repository.appendingPathComponent("fifo.csv").path, 0o600)
        try FileManager.default.createDirectory(at: repository.appendingPathComponent("dir.csv"), withIntermediateDirectories: true)
        let golden = repository.appendingPathComponent("Golden/prices.jsonl")
        for (catalog, reason) in [
            (secret.path, "the header's catalog path '\(secret.path)' is absolute; a snapshot names files by paths relative to itself, inside its repository (give the catalog with --catalog)"),
            ("/etc/passwd", "the header's catalog path '/etc/passwd' is absolute; a snapshot names files by paths relative to itself, inside its repository (give the catalog with --catalog)"),
            ("../../credentials", "the header's catalog path '../../credentials' leads outside the snapshot's repository (\(repository.resolvingSymlinksInPath().path)) (give the catalog with --catalog)"),
            ("../link.csv", "the header's catalog path '../link.csv' leads outside the snapshot's repository (\(repository.resolvingSymlinksInPath().path)) (give the catalog with --catalog)"),
            ("../fifo.csv", "the header's catalog path '../fifo.csv' is a FIFO, not a file (give the catalog with --catalog)"),
            ("../dir.csv", "the header's catalog path '../dir.csv' is a directory, not a file (give the catalog with --catalog)"),
        ] {
            let header = #"{"storeprice_snapshot":2,"storeprice":"0.1.0","icu":"72.1","cldr":"42.0","catalog":"\#(catalog)","#
                + #""catalog_format":"csv","accounts":null,"display":"symbol","rounding":"reject","rows":0}"#
            try (header + "\n").write(to: golden, atomically: true, encoding: .utf8)
            let run = try runStorePrice(["verify", golden.path])
            #expect(run.status == 65, "\(catalog)")
            expectBytes(run.error, "storeprice: snapshot '\(golden.path)', line 1: \(reason)\n", catalog)
            #expect(!run.error.contains("hunter2"))
        }
        // Given on the command line, a catalog is the user's choice; a file that is not a catalog
        // is refused without quoting it.
        let explicit = try runStorePrice(["verify", golden.path, "--catalog", secret.path, "--catalog-format", "csv"])
        #expect(explicit.status == 65)
        expectBytes(
            explicit.error,
            "storeprice: catalog '\(secret.path)', line 1: the first line is not the header product,storefront,price (columns in any order)\n")
    }

    @Test func aSnapshotOfStandardInputRecordsNoCatalogPath() throws {
        let directory = try temporaryDirectory()
        let golden = directory.appendingPathComponent("stdin.jsonl")
        let input = Data(#"{"product":"a","prices":{"USA":"0.99"}}"#.utf8 + [0x0A])
        let run = try runStorePrice(
            ["snapshot", "-", "--catalog-format", "jsonl", "--output", golden.path], input: input)
        #expect(run.status == 0, "\(run.error)")
        let header = try String(contentsOf: golden, encoding: .utf8).prefix { $0 != "\n" }
        #expect(header.contains(#""catalog":null,"catalog_format":"jsonl""#), "\(header)")
        let verify = try runStorePrice(["verify", golden.path])
        #expect(verify.status == 65)
        expectBytes(
            verify.error, "storeprice: snapshot '\(golden.path)', line 1: the snapshot was made from standard input or from products in memory; name the catalog\n")
    }

    @Test func aFormatOneGoldenStillVerifiesItsPrices() throws {
        // Format 1 recorded prices only: no "strings" on any row.
        let golden = try editedSampleGolden(formatOneEdit)
        #expect(try !String(contentsOf: golden, encoding: .utf8).contains(#""strings""#))
        let run = try runStorePrice(["verify", golden.path])
        #expect(run.status == 0, "\(run.error)")
        expectBytes(
            run.output,
            "all 5,608 strings match; snapshot made with ICU 72.1/CLDR 42.0, as now; the snapshot is format 1, which "
                + "records prices only: record it again to compare titles, periods and offers\n")
    }

    /// A small catalog and three accounts, changed the ways a catalog changes: a price edited, a
    /// product withdrawn from one storefront, a product added.
    @Test func verifyListsChangedAddedAndRemovedRowsApart() throws {
        // A repository (a .git folder at its root), with the golden in a folder of its own.
        let directory = try temporaryDirectory()
        try FileManager.default.createDirectory(at: directory.appendingPathComponent(".git"), withIntermediateDirectories: true)
        let catalog = directory.appendingPathComponent("catalog.jsonl")
        let accounts = directory.appendingPathComponent("accounts.json")
        let golden = directory.appendingPathComponent("golden/prices.jsonl")
        try """
            [{"name": "deu", "email": "deu@example.com", "storefront": "DEU"},
             {"name": "jpn", "email": "jpn@example.com", "storefront": "JPN"},
             {"name": "sau", "email": "sau@example.com", "storefront": "SAU"}]
            """.write(to: accounts, atomically: true, encoding: .utf8)
        try """
            {"product":"coins","prices":{"DEU":"0.99","JPN":"160","SAU":"3.99"}}
            {"product":"pro","prices":{"DEU":"9.99","JPN":"1500","SAU":"39.99"}}
            """.write(to: catalog, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
        let recorded = try runStorePrice(["snapshot", catalog.path, "--accounts", accounts.path, "--output", golden.path])
        #expect(recorded.status == 0, "\(recorded.error)")
        let header = try String(contentsOf: golden, encoding: .utf8).prefix { $0 != "\n" }
        expectBytes(String(header), #"{"storeprice_snapshot":2,"storeprice":"0.1.0","icu":"72.1","cldr":"42.0","catalog":"../catalog.jsonl","catalog_format":null,"accounts":"../accounts.json","display":"symbol","rounding":"reject","rows":6}"#)

        try """
            {"product":"coins","prices":{"DEU":"1.09","JPN":"160","SAU":"3.99"}}
            {"product":"pro","prices":{"DEU":"9.99","JPN":"1500"}}
            {"product":"tip","prices":{"JPN":"300"}}
            """.write(to: catalog, atomically: true, encoding: .utf8)
        let run = try runStorePrice(["verify", golden.path])
        #expect(run.status == 1, "\(run.error)")
        expectBytes(run.output, #"""
            de_DE@currency=EUR  coins  0,99\#u{00A0}€ → 1,09\#u{00A0}€  (0,99 → 1,09; amount 0.99 → 1.09)  for deu

            Rows added (1):
            + ja_JP@currency=JPY  tip  ￥300  (\u{FFE5}300)  for jpn

            Rows removed (1):
            - ar_SA@currency=SAR  pro  \#u{200F}٣٩٫٩٩\#u{00A0}ر.س.\#u{200F}  (\u{200F}\u{0663}\u{0669}\u{066B}\u{0669}\u{0669}\u{00A0}\u{0631}.\u{0633}.\u{200F})  for sau

            1 of 5 strings changed in 1 price locale; 1 row added, 1 removed; snapshot made with ICU 72.1/CLDR 42.0, as now

            """#)
    }

    @Test func verifyRefusesABrokenGoldenWithStatus65() throws {
        let truncated = try editedSampleGolden { $0.hasPrefix(#"{"product":"com.example.welcome.gift","account":"zwe""#) ? nil : $0 }
        let run = try runStorePrice(["verify", truncated.path])
        #expect(run.status == 65)
        expectBytes(run.error, "storeprice: snapshot '\(truncated.path)', line 1: the header counts 5608 rows but the file has 5607; is it cut short?\n")

        let missing = try runStorePrice(["verify", "/nonexistent/golden.jsonl"])
        #expect(missing.status == 65)
        expectBytes(missing.error, "storeprice: cannot read '/nonexistent/golden.jsonl': No such file or directory\n")

        let notSnapshot = try runStorePrice(["verify", Self.sample])
        #expect(notSnapshot.status == 65)
        expectBytes(notSnapshot.error, "storeprice: snapshot '\(Self.sample)', line 1: not a StorePrice snapshot header (missing field 'storeprice_snapshot')\n")
    }

    @Test func snapshotToAnUnwritablePlaceExits73AndLeavesNothing() throws {
        // A missing folder is made (a new package's first golden); a file where the folder
        // should be cannot be written past.
        let directory = try temporaryDirectory()
        try Data("not a folder".utf8).write(to: directory.appendingPathComponent("file"))
        let output = directory.appendingPathComponent("file/golden.jsonl").path
        let run = try runStorePrice(["snapshot", Self.sample, "--output", output])
        #expect(run.status == 73)
        expectBytes(run.error, "storeprice: cannot write '\(output)': Not a directory\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["file"])
    }
}

@Suite struct VerifyCIReportTests {
    @Test func jsonAndJUnitReportsNameTheChange() throws {
        let golden = try editedSampleGolden(yenSignEdit)
        let junit = golden.deletingLastPathComponent().appendingPathComponent("junit.xml")
        let run = try runStorePrice(["verify", golden.path, "--format", "json", "--junit", junit.path])
        #expect(run.status == 1, "\(run.error)")
        let object = try #require(JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(object["matches"] as? Bool == false)
        let changes = try #require(object["changed"] as? [[String: Any]])
        #expect(changes.count == 1)
        #expect(changes.first?["product"] as? String == "com.example.level1")
        #expect(changes.first?["account"] as? String == "jpn")
        #expect(changes.first?["before"] as? String == "¥160")
        #expect(changes.first?["after"] as? String == "￥160")
        #expect(changes.first?["after_escaped"] as? String == "\\u{FFE5}160")

        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains(#"tests="5608" failures="1""#), "\(xml.prefix(300))")
        #expect(xml.contains(#"<testcase classname="jpn" name="com.example.level1"><failure message="formatted: \u{00A5}160 → \u{FFE5}160"/></testcase>"#))
    }

    @Test func aMatchingSnapshotIsAllPassing() throws {
        let directory = try temporaryDirectory()
        let junit = directory.appendingPathComponent("junit.xml")
        let run = try runStorePrice(["verify", sampleGolden.path, "--format", "json", "--junit", junit.path])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.hasPrefix(#"{"matches":true,"compared":13762,"changed_strings":0,"changed":[],"added":[],"removed":[],"#))
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains(#"tests="5608" failures="0""#))
    }
}
