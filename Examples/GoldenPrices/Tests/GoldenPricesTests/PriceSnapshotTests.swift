import StorePriceTesting
import Testing
import XCTest

// Paths are relative to the package root, the current directory under `swift test`.

/// Swift Testing: fails with the escaped diff when any price string differs from the golden file.
@Test func catalogPricesMatchTheGoldenSnapshot() {
    expectPriceSnapshot(
        catalog: "Data/catalog.jsonl", accounts: "Data/accounts.json",
        matches: "Tests/Golden/catalog.jsonl")
}

/// XCTest: the same check, as an assertion.
final class CatalogPriceTests: XCTestCase {
    func testCatalogPricesMatchTheGoldenSnapshot() {
        assertPriceSnapshot(
            catalog: "Data/catalog.jsonl", accounts: "Data/accounts.json",
            matches: "Tests/Golden/catalog.jsonl")
    }
}
