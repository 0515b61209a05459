#if canImport(XCTest)
public import StorePrice
import XCTest

/// Renders a catalog for test accounts and fails the XCTest when any price string differs from
/// the golden snapshot file.
///
/// ```swift
/// import StorePriceTesting
/// import XCTest
///
/// final class PriceTests: XCTestCase {
///     func testPricesMatchTheGoldenSnapshot() {
///         assertPriceSnapshot(catalog: "Data/catalog.jsonl", matches: "Tests/Golden/catalog.jsonl")
///     }
/// }
/// ```
///
/// The failure message is the report `storeprice verify` prints. Setting `STOREPRICE_RECORD` (see
/// ``PriceSnapshotRecording``) writes the golden file instead.
///
/// - Parameters:
///   - catalog: the catalog file (`.csv`, `.jsonl` or `.storekit`), from the current directory.
///   - catalogFormat: its format, when the name does not tell it.
///   - accounts: a test accounts file; nil for the built-in accounts.
///   - options: currency display and rounding.
///   - golden: the golden snapshot file.
///   - record: overrides `STOREPRICE_RECORD`.
///   - file: where the failure is reported; the caller's file by default.
///   - line: where the failure is reported; the caller's line by default.
public func assertPriceSnapshot(
    catalog: String, catalogFormat: CatalogFormat? = nil, accounts: String? = nil,
    options: PriceFormatter.Options = .init(), matches golden: String, record: PriceSnapshotRecording? = nil,
    file: StaticString = #filePath, line: UInt = #line
) {
    let check = PriceSnapshotCheck(
        catalog: catalog, catalogFormat: catalogFormat, accounts: accounts, options: options, golden: golden)
    if let failure = check.runReportingRecordings(record: record) {
        XCTFail(failure.message, file: file, line: line)
    }
}

/// Renders products already in memory for test accounts and fails the XCTest when any price
/// string differs from the golden snapshot file: a service's tests need no catalog file.
///
/// - Parameters:
///   - products: the catalog; a product ID may appear once.
///   - accounts: the test accounts; the built-in accounts by default.
///   - options: currency display and rounding.
///   - golden: the golden snapshot file.
///   - record: overrides `STOREPRICE_RECORD`.
///   - file: where the failure is reported; the caller's file by default.
///   - line: where the failure is reported; the caller's line by default.
public func assertPriceSnapshot(
    products: [Product], accounts: TestAccountFile = .builtIn, options: PriceFormatter.Options = .init(),
    matches golden: String, record: PriceSnapshotRecording? = nil, file: StaticString = #filePath, line: UInt = #line
) {
    let check = PriceSnapshotCheck(products: products, accounts: accounts, options: options, golden: golden)
    if let failure = check.runReportingRecordings(record: record) {
        XCTFail(failure.message, file: file, line: line)
    }
}
#endif
