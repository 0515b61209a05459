@testable import StorePrice
import Foundation
import TestSupport
import Testing

@Suite struct PriceSnapshotTests {
    static let then = PriceSnapshot.Producer(storePrice: "0.1.0", icu: "72.1", cldr: "42.0")
    static let now = PriceSnapshot.Producer(storePrice: "0.2.0", icu: "74.2", cldr: "44.1")
    static let source = PriceSnapshot.Source(catalog: "catalog.jsonl")

    static func row(
        _ product: String, _ account: String, _ locale: String, _ amount: String, _ formatted: String,
        storefront: String? = nil
    ) -> PriceSnapshot.Row {
        PriceSnapshot.Row(
            product: product, account: account, storefront: storefront ?? account.prefix(3).uppercased(),
            priceLocale: locale, amount: amount, formatted: formatted)
    }

    @Test func reportGroupsByPriceLocaleAndNamesEveryAccount() throws {
        let golden = try PriceSnapshot(producer: Self.then, source: Self.source, rows: [
            Self.row("level1", "jpn", "ja_JP@currency=JPY", "160", "￥160"),
            Self.row("level1", "jpn-en-device", "ja_JP@currency=JPY", "160", "￥160", storefront: "JPN"),
            Self.row("level1", "bgr", "bg_BG@currency=BGN", "1.99", "1,99\u{00A0}лв."),
            Self.row("level1", "che", "de_CH@currency=CHF", "1234.50", "CHF\u{00A0}1’234.50"),
            Self.row("level1", "usa", "en_US@currency=USD", "0.99", "$0.99"),
        ])
        let current = try PriceSnapshot(producer: Self.now, source: Self.source, rows: [
            Self.row("level1", "jpn-en-device", "ja_JP@currency=JPY", "160", "¥160", storefront: "JPN"),
            Self.row("level1", "jpn", "ja_JP@currency=JPY", "160", "¥160"),
            Self.row("level1", "bgr", "bg_BG@currency=EUR", "0.99", "0,99\u{00A0}€"),
            Self.row("level1", "che", "de_CH@currency=CHF", "1234.50", "CHF\u{00A0}1’234.50"),
            Self.row("level1", "usa", "en_US@currency=USD", "0.99", "$0.99"),
        ])
        let diff = current.difference(from: golden)
        #expect(diff.changed.count == 3)
        #expect(diff.compared == 5)
        expectBytes(diff.description, """
            bg_BG@currency=EUR  level1  1,99\u{00A0}лв. → 0,99\u{00A0}€  (1,99\\u{00A0}\\u{043B}\\u{0432}. → 0,99\\u{00A0}\\u{20AC}; was bg_BG@currency=BGN; amount 1.99 → 0.99)  for bgr

            ja_JP@currency=JPY  level1  ￥160 → ¥160  (\\u{FFE5} → \\u{00A5})  for jpn, jpn-en-device

            3 of 5 strings changed in 2 price locales; snapshot made with ICU 72.1/CLDR 42.0, now ICU 74.2/CLDR 44.1
            """)
    }

    @Test func identicalSnapshotsMatch() throws {
        let rows = [Self.row("a", "usa", "en_US@currency=USD", "1", "$1.00")]
        let diff = try PriceSnapshot(producer: Self.then, source: Self.source, rows: rows)
            .difference(from: PriceSnapshot(producer: Self.then, source: Self.source, rows: rows))
        #expect(diff.isEmpty)
        expectBytes(diff.description, "the 1 string matches; snapshot made with ICU 72.1/CLDR 42.0, as now")
    }

    @Test func differentOptionsAreNamedInTheSummary() throws {
        var iso = Self.source
        iso.options.display = .isoCode
        let golden = try PriceSnapshot(producer: Self.then, source: iso, rows: [Self.row("a", "usa", "en_US@currency=USD", "1", "USD\u{00A0}1.00")])
        let current = try PriceSnapshot(producer: Self.then, source: Self.source, rows: [Self.row("a", "usa", "en_US@currency=USD", "1", "$1.00")])
        expectBytes(
            current.difference(from: golden).summary,
            "1 of 1 string changed in 1 price locale; snapshot made with ICU 72.1/CLDR 42.0, as now; "
                + "snapshot options display isoCode, rounding reject, now display symbol, rounding reject")
    }

    @Test(arguments: [
        ("￥160", "¥160", #"\u{FFE5}"#, #"\u{00A5}"#),
        ("1\u{00A0}234,50\u{00A0}€", "1\u{202F}234,50\u{00A0}€", #"\u{00A0}"#, #"\u{202F}"#),
        ("0,99\u{00A0}€", "1,09\u{00A0}€", "0,99", "1,09"),
        ("$9.99", "$19.99", "9.99", "19.99"),
        ("$0.99", "$0.99 ", #""""#, #"" ""#),
        ("-$1.00", "\u{2212}$1.00", "-", #"\u{2212}"#),
        ("CHF\u{00A0}1’234.50", "CHF\u{00A0}1’334.50", #"1\u{2019}234.50"#, #"1\u{2019}334.50"#),
    ])
    func differingPartsAreEscapedAndWholeNumbers(_ old: String, _ new: String, _ expectedOld: String, _ expectedNew: String) {
        let (shownOld, shownNew) = PriceSnapshotDiff.differingParts(old, new)
        expectBytes(shownOld, expectedOld)
        expectBytes(shownNew, expectedNew)
    }

    @Test(arguments: [(0, "0"), (999, "999"), (1000, "1,000"), (5608, "5,608"), (1_234_567, "1,234,567")])
    func countsAreGroupedInThousands(_ number: Int, _ text: String) {
        #expect(PriceSnapshotDiff.grouped(number) == text)
    }

    @Test func pathsAreStoredRelativeToTheSnapshotsDirectory() {
        #expect(SnapshotPath.relative("/repo/Data/catalog.jsonl", from: "/repo/Data/golden") == "../catalog.jsonl")
        #expect(SnapshotPath.relative("/repo/Data/catalog.jsonl", from: "/repo/Data") == "catalog.jsonl")
        #expect(SnapshotPath.relative("/elsewhere/c.csv", from: "/repo/Data/golden") == "../../../elsewhere/c.csv")
        #expect(SnapshotPath.resolve("../catalog.jsonl", from: "Data/golden") == "Data/catalog.jsonl")
        #expect(SnapshotPath.resolve("../catalog.jsonl", from: "") == "../catalog.jsonl")
        #expect(SnapshotPath.resolve("/abs/c.csv", from: "Data/golden") == "/abs/c.csv")
        #expect(SnapshotPath.resolve("../../../c.csv", from: "golden") == "../../c.csv")
        #expect(SnapshotPath.directory(of: "golden.jsonl") == "")
        #expect(SnapshotPath.directory(of: "/golden.jsonl") == "/")
    }

    @Test func writingAndReadingGiveTheSameSnapshot() throws {
        let directory = try temporaryDirectory()
        let path = directory.appendingPathComponent("golden.jsonl").path
        let snapshot = try PriceSnapshot(producer: Self.then, source: PriceSnapshot.Source(
            catalog: directory.appendingPathComponent("catalog \"1\".jsonl").path, catalogFormat: .jsonl,
            accounts: directory.appendingPathComponent("accounts.json").path,
            options: .init(display: .narrowSymbol, rounding: .halfEven)), rows: [
                Self.row("b\"quoted\\", "sau", "ar_SA@currency=SAR", "3.99", "\u{200F}٣٫٩٩\u{00A0}ر.س.\u{200F}"),
                Self.row("a", "usa", "en_US@currency=USD", "0.99", "$0.99"),
            ])
        try snapshot.write(to: path)
        expectBytes(try String(contentsOfFile: path, encoding: .utf8), #"""
            {"storeprice_snapshot":2,"storeprice":"0.1.0","icu":"72.1","cldr":"42.0","catalog":"catalog \"1\".jsonl","catalog_format":"jsonl","accounts":"accounts.json","display":"narrowSymbol","rounding":"halfEven","rows":2}
            {"product":"a","account":"usa","storefront":"USA","price_locale":"en_US@currency=USD","amount":"0.99","formatted":"$0.99","escaped":"$0.99"}
            {"product":"b\"quoted\\","account":"sau","storefront":"SAU","price_locale":"ar_SA@currency=SAR","amount":"3.99","formatted":"\#u{200F}٣٫٩٩\#u{00A0}ر.س.\#u{200F}","escaped":"\\u{200F}\\u{0663}\\u{066B}\\u{0669}\\u{0669}\\u{00A0}\\u{0631}.\\u{0633}.\\u{200F}"}

            """#)
        let read = try PriceSnapshot(contentsOfFile: path)
        #expect(read == snapshot)
    }

    @Test(arguments: [
        ("", "empty file; expected a snapshot header"),
        ("{}", "line 1: not a StorePrice snapshot header (missing field 'storeprice_snapshot')"),
        (#"{"storeprice_snapshot":4,"storeprice":"9","icu":"80.1","cldr":"48","catalog":null,"catalog_format":null,"accounts":null,"display":"symbol","rounding":"reject","rows":0}"#,
         "line 1: snapshot format 4; this StorePrice reads formats 1 to 3; record it again with 'storeprice snapshot' (or STOREPRICE_RECORD=all swift test)"),
        (#"{"storeprice_snapshot":1,"storeprice":"0.1.0","icu":"72.1","cldr":"42.0","catalog":null,"catalog_format":null,"accounts":null,"display":"emoji","rounding":"reject","rows":0}"#,
         "line 1: unknown display 'emoji'"),
        (#"""
            {"storeprice_snapshot":1,"storeprice":"0.1.0","icu":"72.1","cldr":"42.0","catalog":null,"catalog_format":null,"accounts":null,"display":"symbol","rounding":"reject","rows":2}
            {"product":"b","account":"usa","storefront":"USA","price_locale":"en_US@currency=USD","amount":"1","formatted":"$1.00","escaped":"$1.00"}
            {"product":"a","account":"usa","storefront":"USA","price_locale":"en_US@currency=USD","amount":"1","formatted":"$1.00","escaped":"$1.00"}
            """#, "line 3: rows are out of order; they are sorted by product, then account"),
        (#"""
            {"storeprice_snapshot":1,"storeprice":"0.1.0","icu":"72.1","cldr":"42.0","catalog":null,"catalog_format":null,"accounts":null,"display":"symbol","rounding":"reject","rows":2}
            {"product":"a","account":"usa","storefront":"USA","price_locale":"en_US@currency=USD","amount":"1","formatted":"$1.00","escaped":"$1.00"}
            {"product":"a","account":"usa","storefront":"USA","price_locale":"en_US@currency=USD","amount":"1","formatted":"$1.00","escaped":"$1.00"}
            """#, "line 3: product 'a' appears twice for account 'usa'"),
        (#"""
            {"storeprice_snapshot":1,"storeprice":"0.1.0","icu":"72.1","cldr":"42.0","catalog":null,"catalog_format":null,"accounts":null,"display":"symbol","rounding":"reject","rows":1}
            {"product":"a","account":"usa","storefront":"USA","price_locale":"en_US@currency=USD","amount":"1","formatted":"$1.00"}
            """#, "line 2: not a snapshot row (missing field 'escaped')"),
        (#"""
            {"storeprice_snapshot":1,"storeprice":"0.1.0","icu":"72.1","cldr":"42.0","catalog":null,"catalog_format":null,"accounts":null,"display":"symbol","rounding":"reject","rows":1}
            {"product":"a","account":"usa","storefront":"USA","price_locale":"en_US@currency=USD","amount":"1","formatted":"$1.00","escaped":"$1.00","strings":[]}
            """#, "line 2: the header says format 1, whose rows record prices only, but this row has 'strings'"),
        // What a header claims is bounded before anything is allocated for it.
        (#"""
            {"storeprice_snapshot":2,"storeprice":"0.1.0","icu":"72.1","cldr":"42.0","catalog":null,"catalog_format":null,"accounts":null,"display":"symbol","rounding":"reject","rows":1000000000000}
            {"product":"a","account":"usa","storefront":"USA","price_locale":"en_US@currency=USD","amount":"1","formatted":"$1.00","escaped":"$1.00"}
            """#, "line 1: the header counts 1000000000000 rows but the file has 1; is it cut short?"),
        (#"""
            {"storeprice_snapshot":2,"storeprice":"0.1.0","icu":"72.1","cldr":"42.0","catalog":null,"catalog_format":null,"accounts":null,"display":"symbol","rounding":"reject","rows":-1}
            """#, "line 1: the header counts -1 rows"),
    ])
    func brokenSnapshotsAreRefusedNamingTheLine(_ text: String, _ reason: String) throws {
        let url = try temporaryDirectory().appendingPathComponent("golden.jsonl")
        try text.write(to: url, atomically: true, encoding: .utf8)
        do {
            _ = try PriceSnapshot(contentsOfFile: url.path)
            Issue.record("accepted: \(escaped(text))")
        } catch {
            let place = reason.hasPrefix("line") ? ", " : ": "
            expectBytes(error.description, "snapshot '\(url.path)'\(place)\(reason)")
        }
    }

    @Test func reportPageEscapesHTMLAndSetsDirection() throws {
        let golden = try PriceSnapshot(producer: Self.then, source: Self.source, rows: [
            Self.row("<script>", "sau", "ar_SA@currency=SAR", "3.99", "\u{200F}٣٫٩٩\u{00A0}ر.س.\u{200F}"),
        ])
        let current = try PriceSnapshot(producer: Self.then, source: Self.source, rows: [
            Self.row("<script>", "sau", "ar_SA@currency=SAR", "4.99", "\u{200F}٤٫٩٩\u{00A0}ر.س.\u{200F}"),
        ])
        let html = current.difference(from: golden).htmlReport(title: "a & b")
        #expect(html.contains("<title>a &amp; b</title>"))
        #expect(html.contains(#"<tr><th class="product">&lt;script&gt;</th><td class="changed" dir="rtl" title="\u{200F}\u{0663}\u{066B}\u{0669}\u{0669}\u{00A0}\u{0631}.\u{0633}.\u{200F} → \u{200F}\u{0664}\u{066B}\u{0669}\u{0669}\u{00A0}\u{0631}.\u{0633}.\u{200F}"><del>"#))
        #expect(!html.contains("<script>"))
    }

    @Test func aLargeReportShowsOnlyWhatDiffers() throws {
        var rows: [PriceSnapshot.Row] = []
        for product in 0..<300 {
            for account in 0..<200 {
                rows.append(Self.row("p\(product)", "a\(account)", "en_US@currency=USD", "1", "$1.00", storefront: "USA"))
            }
        }
        let golden = try PriceSnapshot(producer: Self.then, source: Self.source, rows: rows)
        rows[rows.count - 1].formatted = "US$1.00"
        let html = try PriceSnapshot(producer: Self.then, source: Self.source, rows: rows).difference(from: golden).htmlReport()
        #expect(html.contains("<p>The full matrix would have more than 50,000 cells; only the 1 products and 1 accounts with a difference are shown.</p>"))
        #expect(html.contains(#"<tr><th class="product">p299</th><td class="changed" title="$1.00 → US$1.00"><del>$1.00</del><ins>US$1.00</ins></td></tr>"#))
        #expect(html.utf8.count < 10_000)
    }
}
