import Foundation
import StorePriceTesting
import TestSupport
import XCTest

/// `assertPriceSnapshot` passes on the sample golden and fails with the diff on an edited one.
final class XCTestAssertionTests: XCTestCase {
    private var capturing = false
    private var captured: [String] = []

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing {
            captured.append(description)
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    private func failures(of body: () -> Void) -> [String] {
        captured = []
        capturing = true
        body()
        capturing = false
        return captured
    }

    private let catalog = repositoryFile("Data/catalog-sample.jsonl").path

    func testTheSampleGoldenPasses() {
        let failures = failures { assertPriceSnapshot(catalog: catalog, matches: sampleGolden.path, record: .never) }
        XCTAssertEqual(failures, [])
    }

    func testAnEditedGoldenFailsWithTheEscapedDiff() throws {
        let golden = try editedSampleGolden(yenSignEdit).path
        let failures = failures { assertPriceSnapshot(catalog: catalog, matches: golden, record: .never) }
        XCTAssertEqual(failures.count, 1)
        let line = #"ja_JP@currency=JPY  com.example.level1  ¥160 → ￥160  (\u{00A5} → \u{FFE5})  for jpn"#
        XCTAssertTrue(failures.first?.contains(line) ?? false, "\(failures.map(escaped))")
    }
}
