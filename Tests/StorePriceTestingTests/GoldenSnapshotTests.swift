import Foundation
import StorePrice
import StorePriceTesting
import TestSupport
import Testing

/// The project's own locale regression test, and how `expectPriceSnapshot` passes and fails.
@Suite struct GoldenSnapshotTests {
    static let catalog = repositoryFile("Data/catalog-sample.jsonl").path

    /// Every string of the sample catalog, for every built-in test account, is what
    /// `Data/golden/` says. An ICU or CLDR change, an edit to the sample catalog or the built-in
    /// accounts, or a change to the formatter fails here with the escaped diff.
    @Test func theSampleCatalogMatchesItsGoldenSnapshot() {
        expectPriceSnapshot(catalog: Self.catalog, matches: sampleGolden.path)
    }

    @Test func anEditedGoldenStringFailsWithTheEscapedDiffNamingProductAndAccount() throws {
        let golden = try editedSampleGolden(yenSignEdit).path
        guard case .failure(let failure) = PriceSnapshotCheck(catalog: Self.catalog, golden: golden).run(record: .never)
        else {
            Issue.record("an edited golden string passed")
            return
        }
        expectBytes(failure.message, """
            price snapshot '\(golden)' does not match the prices rendered now:

            ja_JP@currency=JPY  com.example.level1  ¥160 → ￥160  (\\u{00A5} → \\u{FFE5})  for jpn

            1 of 13,762 strings changed in 1 price locale; snapshot made with ICU 72.1/CLDR 42.0, as now

            To accept these strings, run the tests again with STOREPRICE_RECORD=failed and review the changed file.
            """)
        #expect(failure.diff?.changed.count == 1)
    }

    @Test func expectPriceSnapshotRecordsAnIssueWithThatDiff() throws {
        let golden = try editedSampleGolden(yenSignEdit).path
        withKnownIssue {
            expectPriceSnapshot(catalog: Self.catalog, matches: golden, record: .never)
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains(#"ja_JP@currency=JPY  com.example.level1  ¥160 → ￥160  (\u{00A5} → \u{FFE5})  for jpn"#)
            }
        }
    }

    /// `all` records every golden, even one that matches; `failed` leaves a matching one alone. A
    /// format 1 golden matches (its prices are compared) and shows the difference: `all` rewrites
    /// it in format 2, `failed` does not.
    @Test func recordingAllRewritesEvenAMatchingGolden() throws {
        let golden = try editedSampleGolden(formatOneEdit).path
        let check = PriceSnapshotCheck(catalog: Self.catalog, golden: golden)
        guard case .success(.matched) = check.run(record: .failed) else {
            Issue.record("a matching format 1 golden did not match under 'failed'")
            return
        }
        #expect(try String(contentsOfFile: golden, encoding: .utf8).hasPrefix(#"{"storeprice_snapshot":1,"#))
        guard case .success(.recorded(let path, _)) = check.run(record: .all) else {
            Issue.record("'all' did not record a matching golden")
            return
        }
        #expect(path == golden)
        let rewritten = try String(contentsOfFile: golden, encoding: .utf8)
        #expect(rewritten.hasPrefix(#"{"storeprice_snapshot":2,"#))
        #expect(rewritten.contains(#""strings":[{"field":"title""#))
    }

    @Test func aMissingGoldenFailsUnlessRecordingMissingOnes() throws {
        let golden = try temporaryDirectory().appendingPathComponent("new.jsonl").path
        let check = PriceSnapshotCheck(catalog: Self.catalog, golden: golden)
        guard case .failure(let failure) = check.run(record: .never) else {
            Issue.record("a missing golden passed")
            return
        }
        expectBytes(
            failure.message,
            "no price snapshot at '\(golden)'; run the tests with STOREPRICE_RECORD=missing to record it")
        #expect(!FileManager.default.fileExists(atPath: golden))

        guard case .success(.recorded(let path, nil)) = check.run(record: .missing) else {
            Issue.record("recording a missing golden did not record it")
            return
        }
        #expect(path == golden)
        guard case .success(.matched(let diff)) = check.run(record: .never) else {
            Issue.record("a freshly recorded golden does not match")
            return
        }
        #expect(diff.compared == 13_762, "5,608 prices and 8,154 titles, periods, offers and paywall lines")
    }

    @Test func recordingFailedOnesRewritesADifferingGoldenAndPasses() throws {
        let golden = try editedSampleGolden(yenSignEdit).path
        let check = PriceSnapshotCheck(catalog: Self.catalog, golden: golden)
        guard case .failure = check.run(record: .missing) else {
            Issue.record("recording missing goldens accepted a differing one")
            return
        }
        guard case .success(.recorded(_, let diff?)) = check.run(record: .failed) else {
            Issue.record("recording failed goldens did not rewrite a differing one")
            return
        }
        #expect(diff.changed.count == 1)
        guard case .success(.matched) = check.run(record: .never) else {
            Issue.record("the rewritten golden does not match")
            return
        }
        let rewritten = try String(contentsOfFile: golden, encoding: .utf8)
        #expect(rewritten.contains(#"{"product":"com.example.level1","account":"jpn","storefront":"JPN","price_locale":"ja_JP@currency=JPY","amount":"160","formatted":"￥160","escaped":"\\u{FFE5}160","strings":[{"field":"title","text":"レベル1","escaped":"\\u{30EC}\\u{30D9}\\u{30EB}1"}]}"#))
    }

    @Test func anEditToFormattedWithoutEscapedIsCaughtAsAnInconsistentGolden() throws {
        let golden = try editedSampleGolden { line in
            guard line.hasPrefix(#"{"product":"com.example.level1","account":"jpn","#) else { return line }
            return line.replacingOccurrences(of: #""formatted":"￥160","#, with: #""formatted":"¥160","#)
        }.path
        guard case .failure(let failure) = PriceSnapshotCheck(catalog: Self.catalog, golden: golden).run(record: .never)
        else {
            Issue.record("an inconsistent golden passed")
            return
        }
        expectBytes(failure.message, #"""
            snapshot '\#(golden)', line 1890: 'escaped' is "\u{FFE5}160" but 'formatted' escapes to "\u{00A5}160"; edit both, or record the snapshot again
            """#)
    }

    @Test(arguments: [
        (nil, PriceSnapshotRecording.never), ("", .never), ("never", .never),
        ("missing", .missing), ("failed", .failed), ("all", .all),
    ] as [(String?, PriceSnapshotRecording)])
    func recordingModesFromTheEnvironment(_ value: String?, _ mode: PriceSnapshotRecording) {
        #expect(PriceSnapshotRecording(environmentValue: value) == mode)
    }

    /// Yes/no values name no mode: `yes` might mean `failed` or `all`, `no` might mean `never`
    /// or `missing`. Each is refused, never taken for one of them.
    @Test(arguments: ["sometimes", "yes", "no", "0", "1", "true", "false", "on", "ALL", "Missing"])
    func anUnknownRecordingValueIsRefused(_ value: String) {
        #expect(PriceSnapshotRecording(environmentValue: value) == nil)
    }

    /// A new package has no golden folder yet: recording makes it.
    @Test func recordingMakesTheGoldensMissingFolders() throws {
        let directory = try temporaryDirectory()
        let golden = directory.appendingPathComponent("Tests/Golden/catalog.jsonl").path
        guard case .success(.recorded(let path, _)) = PriceSnapshotCheck(catalog: Self.catalog, golden: golden).run(record: .missing)
        else {
            Issue.record("recording into a missing folder failed")
            return
        }
        #expect(path == golden)
        #expect(FileManager.default.fileExists(atPath: golden))
    }
}

/// A service's tests snapshot products they build in code: no catalog file.
@Suite struct InMemoryGoldenSnapshotTests {
    func products(yen: String = "160") throws -> [Product] {
        [try Product(id: "coins.100", prices: ["USA": "0.99", "JPN": yen], titles: ["en": "100 Coins"])]
    }

    @Test func productsInMemoryAreRecordedThenMatchedThenFailWithTheDiff() throws {
        let golden = try temporaryDirectory().appendingPathComponent("Golden/service.jsonl").path
        let check = PriceSnapshotCheck(products: try products(), golden: golden)
        guard case .success(.recorded(let path, nil)) = check.run(record: .missing) else {
            Issue.record("a missing golden of products in memory was not recorded")
            return
        }
        #expect(path == golden)
        let header = try String(contentsOfFile: golden, encoding: .utf8).prefix { $0 != "\n" }
        #expect(header.contains(#""catalog":null"#), "\(header)")
        guard case .success(.matched) = check.run(record: .never) else {
            Issue.record("the recorded golden did not match")
            return
        }
        expectPriceSnapshot(products: try products(), matches: golden, record: .never)
        let changed = PriceSnapshotCheck(products: try products(yen: "170"), golden: golden)
        guard case .failure(let failure) = changed.run(record: .never) else {
            Issue.record("a changed price in memory passed")
            return
        }
        #expect(failure.message.contains("ja_JP@currency=JPY  coins.100  ￥160 → ￥170"), "\(failure.message)")
    }
}
