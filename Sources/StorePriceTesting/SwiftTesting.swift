#if canImport(Testing)
public import StorePrice
public import Testing

/// Renders a catalog for test accounts and records a Swift Testing issue when any price string
/// differs from the golden snapshot file.
///
/// ```swift
/// import StorePriceTesting
/// import Testing
///
/// @Test func pricesMatchTheGoldenSnapshot() {
///     expectPriceSnapshot(catalog: "Data/catalog.jsonl", matches: "Tests/Golden/catalog.jsonl")
/// }
/// ```
///
/// The issue's comment is the report `storeprice verify` prints: changed strings grouped by price
/// locale with their changed characters escaped, rows added and removed, and a summary. Setting
/// `STOREPRICE_RECORD` (see ``PriceSnapshotRecording``) writes the golden file instead.
///
/// - Parameters:
///   - catalog: the catalog file (`.csv`, `.jsonl` or `.storekit`), from the current directory.
///   - catalogFormat: its format, when the name does not tell it.
///   - accounts: a test accounts file; nil for the built-in accounts.
///   - options: currency display and rounding.
///   - golden: the golden snapshot file.
///   - record: overrides `STOREPRICE_RECORD`.
///   - sourceLocation: where the issue is reported; the caller's line by default.
public func expectPriceSnapshot(
    catalog: String, catalogFormat: CatalogFormat? = nil, accounts: String? = nil,
    options: PriceFormatter.Options = .init(), matches golden: String, record: PriceSnapshotRecording? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let check = PriceSnapshotCheck(
        catalog: catalog, catalogFormat: catalogFormat, accounts: accounts, options: options, golden: golden)
    if let failure = check.runReportingRecordings(record: record) {
        Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
    }
}

/// Renders products already in memory for test accounts and records a Swift Testing issue when
/// any price string differs from the golden snapshot file: a service's tests need no catalog file.
///
/// ```swift
/// import StorePrice
/// import StorePriceTesting
/// import Testing
///
/// @Test func servicePricesMatchTheGoldenSnapshot() throws {
///     let products = [try Product(id: "coins.100", prices: ["USA": "0.99", "JPN": "160"])]
///     expectPriceSnapshot(products: products, matches: "Tests/Golden/service.jsonl")
/// }
/// ```
///
/// - Parameters:
///   - products: the catalog; a product ID may appear once.
///   - accounts: the test accounts; the built-in accounts by default.
///   - options: currency display and rounding.
///   - golden: the golden snapshot file.
///   - record: overrides `STOREPRICE_RECORD`.
///   - sourceLocation: where the issue is reported; the caller's line by default.
public func expectPriceSnapshot(
    products: [Product], accounts: TestAccountFile = .builtIn, options: PriceFormatter.Options = .init(),
    matches golden: String, record: PriceSnapshotRecording? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
    let check = PriceSnapshotCheck(products: products, accounts: accounts, options: options, golden: golden)
    if let failure = check.runReportingRecordings(record: record) {
        Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
    }
}
#endif
