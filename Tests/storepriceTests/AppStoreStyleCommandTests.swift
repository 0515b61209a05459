import Foundation
import StorePrice
import TestSupport
import Testing

/// `--style app-store` wherever the CLI formats a price: format, --batch, render and snapshot, and
/// verify re-rendering in the style its snapshot records.
@Suite struct AppStoreStyleCommandTests {
    static let sample = repositoryFile("Data/catalog-sample.jsonl").path

    @Test(arguments: [
        (["format", "800", "--storefront", "JPN"], "\u{00A5}800\n"),
        (["format", "4.99", "--storefront", "GHA"], "USD\u{00A0}4.99\n"),
        (["format", "99000", "--storefront", "IDN", "--escape"], "Rp\\u{00A0}99ribu\n"),
        (["format", "1290", "--storefront", "TWN", "--language", "en-GB"], "NT$1,290.00\n"),
        (["format", "9800", "--storefront", "JPN", "--period", "P1Y", "--per", "month"], "\u{00A5}816/\u{6708}\n"),
        (["format", "4999", "--storefront", "IND", "--period", "P1Y", "--per", "month", "--language", "en-GB"],
         "\u{20B9}\u{00A0}416 per month\n"),
        (["format", "160", "--storefront", "JPN", "--offer", "payUpFront:P1M"], "\u{00A5}160\u{FF08}1 \u{304B}\u{6708}\u{FF09}\n"),
        (["format", "0.99", "--account", "jpn"], "error\n"),
    ])
    func formatWritesApplesString(_ arguments: [String], _ expected: String) throws {
        let run = try runStorePrice(arguments + ["--style", "app-store"])
        if expected == "error\n" {
            // The JPN tester's store is in yen: 0.99 has digits the App Store never shows there.
            #expect(run.status == 65)
            expectBytes(run.error, "storeprice: '0.99' needs 2 fraction digits; JPY prices are whole amounts; give a rounding, such as half-even, to round it (--rounding half-even)\n")
            return
        }
        #expect(run.status == 0, "\(arguments): \(run.error)")
        expectBytes(run.output, expected, arguments.joined(separator: " "))
        expectBytes(run.error, "")
    }

    @Test func withoutTheOptionNothingChanges() throws {
        let run = try runStorePrice(["format", "800", "--storefront", "JPN"])
        expectBytes(run.output, "\u{FFE5}800\n")
        let icu = try runStorePrice(["format", "800", "--storefront", "JPN", "--style", "icu"])
        expectBytes(icu.output, "\u{FFE5}800\n")
    }

    @Test func batchFormatsEachLineInTheStyle() throws {
        let input = "ja_JP@currency=JPY\t800\nen_GH@currency=USD\t4.99\nen_GB@currency=USD\t4.99\n"
        let run = try runStorePrice(["format", "--batch", "--style", "app-store"], input: Data(input.utf8))
        #expect(run.status == 65)
        expectBytes(run.output, """
            ja_JP@currency=JPY\t800\t\u{00A5}800
            en_GH@currency=USD\t4.99\tUSD\u{00A0}4.99
            en_GB@currency=USD\t4.99\terror: unsupported locale 'en_GB@currency=USD': the App Store charges GBP in GBR, not USD; the App Store style shows a storefront's own currency

            """)
        expectBytes(run.error, "storeprice: 1 line failed\n")
    }

    @Test(arguments: [
        (["format", "1", "--storefront", "USA", "--style", "app-store", "--display", "iso"],
         "Error: --display iso goes with the ICU style; the App Store style writes the currency as Apple does.\n"),
        (["format", "1", "--storefront", "USA", "--style", "apple"],
         "Error: The value 'apple' is invalid for '--style <style>'. Please provide one of 'icu', 'app-store' or 'play'.\n"),
    ])
    func conflictingOrUnknownStylesAreUsageErrors(_ arguments: [String], _ firstLine: String) throws {
        let run = try runStorePrice(arguments)
        #expect(run.status == 64)
        let first = run.error.split(separator: "\n", maxSplits: 1).first.map { $0 + "\n" } ?? ""
        expectBytes(String(first), firstLine)
    }

    @Test(arguments: ["jsonl", "csv"])
    func renderWritesTheStyleInEveryFormat(_ format: String) throws {
        let run = try runStorePrice([
            "render", Self.sample, "--storefronts", "JPN,GHA", "--style", "app-store", "--format", format,
        ])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("\u{00A5}800"))
        #expect(run.output.contains("USD\u{00A0}0.99"))
        #expect(!run.output.contains("\u{FFE5}"), "no ICU yen sign anywhere: prices, periods, offers")
        #expect(!run.output.contains("US$"))
    }

    /// Tables take rows as values, as snapshots do.
    @Test func tablesUseTheStyle() throws {
        let run = try runStorePrice([
            "render", Self.sample, "--storefronts", "JPN", "--style", "app-store", "--format", "table",
        ])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("\u{00A5}800"))
        #expect(!run.output.contains("\u{FFE5}"))
    }

    @Test func aSnapshotRecordsTheStyleAndVerifyRendersInIt() throws {
        let directory = try temporaryDirectory()
        try FileManager.default.copyItem(atPath: Self.sample, toPath: directory.appendingPathComponent("catalog.jsonl").path)
        let golden = directory.appendingPathComponent("golden.jsonl").path
        let record = try runStorePrice(
            ["snapshot", directory.appendingPathComponent("catalog.jsonl").path, "--style", "app-store", "--output", golden])
        #expect(record.status == 0, "\(record.error)")
        let text = try String(contentsOfFile: golden, encoding: .utf8)
        let header = String(text.prefix { $0 != "\n" })
        expectBytes(header, #"{"storeprice_snapshot":3,"storeprice":"0.1.0","icu":"72.1","cldr":"42.0","catalog":"catalog.jsonl","catalog_format":null,"accounts":null,"display":"symbol","rounding":"reject","style":"app-store","app_store_rules":"2026-12-07","rows":5608}"#)
        #expect(text.contains(#""formatted":"¥160""#))
        #expect(!text.contains("\u{FFE5}"))

        let verify = try runStorePrice(["verify", golden])
        #expect(verify.status == 0, "\(verify.error)")
        expectBytes(verify.output, "all 13,762 strings match; snapshot made with ICU 72.1/CLDR 42.0 and App Store rules 2026-12-07, as now\n")

        // An ICU yen sign where the App Store writes ¥ is a change in this snapshot's style.
        try text.replacingOccurrences(of: #""formatted":"¥160","escaped":"\\u{00A5}160""#, with: #""formatted":"￥160","escaped":"\\u{FFE5}160""#)
            .write(toFile: golden, atomically: true, encoding: .utf8)
        let changed = try runStorePrice(["verify", golden])
        #expect(changed.status == 1, "\(changed.output)\(changed.error)")
        #expect(changed.output.contains("\u{FFE5}160 → \u{00A5}160"), "\(changed.output)")
    }

    /// Headers the App Store style cannot have been recorded with are bad goldens: a format
    /// before styles (what an older StorePrice would verify in ICU's style), a display, no rules.
    @Test(arguments: [
        (#""storeprice_snapshot":2"#, #""storeprice_snapshot":2"#, #""style":"app-store""#,
         "the header says format 2, which has no style; a style is format 3"),
        (#""display":"symbol""#, #""display":"isoCode""#, #""style":"app-store","app_store_rules":"2026-11-27""#,
         "display 'isoCode' goes with the ICU style; the App Store style writes the currency as Apple does"),
        (#""display":"symbol""#, #""display":"symbol""#, #""style":"app-store""#,
         "the App Store style needs 'app_store_rules', the rules' version"),
    ])
    func headersTheStyleCannotHaveAreBadGoldens(_ find: String, _ replace: String, _ style: String, _ message: String) throws {
        let golden = try editedSampleGolden { line in
            guard line.hasPrefix(#"{"storeprice_snapshot""#) else { return line }
            return line.replacingOccurrences(of: #""storeprice_snapshot":2"#, with: #""storeprice_snapshot":3"#)
                .replacingOccurrences(of: find == #""storeprice_snapshot":2"# ? #""storeprice_snapshot":3"# : find, with: replace)
                .replacingOccurrences(of: #""rounding":"reject""#, with: #""rounding":"reject","# + style)
        }
        let run = try runStorePrice(["verify", golden.path])
        #expect(run.status == 65)
        #expect(run.error.hasSuffix(message + "\n"), "\(run.error)")
    }

    @Test func notesSayWhenNoEvidenceCoversTheLanguageAskedFor() throws {
        let asked = try runStorePrice(["format", "4.99", "--storefront", "USA", "--language", "es", "--style", "app-store"])
        expectBytes(asked.output, "$4.99\n")
        expectBytes(asked.error, "storeprice: note: no evidence of Apple's strings in USA pages in 'es'; this is the rule of its pages in en-GB and en-US\n")
        // A language that is no store language of the storefront at all says that instead.
        let foreign = try runStorePrice(["format", "800", "--storefront", "JPN", "--language", "fr", "--style", "app-store"])
        expectBytes(foreign.output, "\u{00A5}800\n")
        expectBytes(foreign.error, "storeprice: note: 'fr' is not a store language of JPN (ja, en-US); no customer of its store sees this price\n")
        // An account without a store language shows its storefront's default pages: no note.
        let account = try runStorePrice(["format", "1234", "--account", "are", "--style", "app-store"])
        expectBytes(account.error, "")
        // zh-Hans is not zh-Hant.
        let script = try runStorePrice(["format", "1", "--locale", "zh_Hans_TW@currency=TWD", "--style", "app-store"])
        #expect(script.error.contains("note: no evidence"), "\(script.error)")
        // A failed format prints its error alone.
        let failed = try runStorePrice(["format", "499.5", "--storefront", "IND", "--language", "hi", "--style", "app-store"])
        #expect(failed.status == 65)
        expectBytes(failed.error, "storeprice: invalid amount '499.5': the App Store shows INR with 0 fraction digits in IND; give a rounding, such as half-even, to round it (--rounding half-even)\n")
    }

    @Test func anUnknownStyleInASnapshotHeaderIsABadGolden() throws {
        let golden = try editedSampleGolden { line in
            line.hasPrefix(#"{"storeprice_snapshot""#)
                ? line.replacingOccurrences(of: #""rounding":"reject""#, with: #""rounding":"reject","style":"apple""#)
                    .replacingOccurrences(of: #""storeprice_snapshot":2"#, with: #""storeprice_snapshot":3"#)
                : line
        }
        let run = try runStorePrice(["verify", golden.path])
        #expect(run.status == 65)
        #expect(run.error.contains("unknown style 'apple'; expected one of icu, app-store"), "\(run.error)")
    }
}
