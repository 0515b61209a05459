public import Testing
import Foundation

extension Trait where Self == ConditionTrait {
    /// A slow load or soak test (catalogs of hundreds of thousands of rows, 100 MB lines, many
    /// renders at once): skipped by `swift test`, run when `STOREPRICE_LOAD_TESTS=1`, as CI runs
    /// them (`STOREPRICE_LOAD_TESTS=1 swift test --filter LoadTests`). Such suites' names end in
    /// `LoadTests`.
    public static var loadTest: Self {
        .enabled(
            if: ProcessInfo.processInfo.environment["STOREPRICE_LOAD_TESTS"] == "1",
            "a load test: STOREPRICE_LOAD_TESTS=1 swift test --filter LoadTests runs it (CI does)")
    }
}
