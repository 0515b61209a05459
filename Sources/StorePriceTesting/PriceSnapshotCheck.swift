public import StorePrice

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// When a price snapshot check writes its golden file instead of comparing.
///
/// Set by the `STOREPRICE_RECORD` environment variable when a test runs:
///
/// | value | what happens |
/// |---|---|
/// | unset, empty or `never` | compare; a missing golden fails |
/// | `missing` | record goldens that do not exist yet; compare the rest |
/// | `failed` | record goldens that are missing or differ, and pass |
/// | `all` | record every golden |
///
/// Any other value (`yes`, `1`, `true`, `ALL`) fails the check with a message listing these,
/// rather than being taken for one of them.
///
/// ```sh
/// STOREPRICE_RECORD=failed swift test
/// git diff Tests/Golden/    # review the new strings, then commit them
/// ```
public enum PriceSnapshotRecording: String, Sendable, CaseIterable {
    /// Compare only.
    case never
    /// Record goldens that do not exist yet.
    case missing
    /// Record goldens that are missing or differ.
    case failed
    /// Record every golden.
    case all

    /// The environment variable that sets the mode.
    public static let environmentVariable = "STOREPRICE_RECORD"

    /// The mode a value of ``environmentVariable`` names; nil for a value that names none.
    public init?(environmentValue value: String?) {
        switch value {
        case nil, "", "never": self = .never
        case "missing": self = .missing
        case "failed": self = .failed
        case "all": self = .all
        default: return nil
        }
    }

    /// The mode this process's environment sets, or an error message naming a bad value.
    public static var fromEnvironment: Result<PriceSnapshotRecording, PriceSnapshotCheck.Failure> {
        let value = getenv(environmentVariable).map { String(cString: $0) }
        guard let mode = PriceSnapshotRecording(environmentValue: value) else {
            return .failure(
                PriceSnapshotCheck.Failure(
                    message: "\(environmentVariable)='\((value ?? "").escapedForMessage)' is not one of never, missing, failed, all"))
        }
        return .success(mode)
    }
}

/// Checks a catalog's prices against a golden snapshot file: the test-framework-neutral core of
/// ``expectPriceSnapshot(catalog:catalogFormat:accounts:options:matches:record:sourceLocation:)``
/// and ``assertPriceSnapshot(catalog:catalogFormat:accounts:options:matches:record:file:line:)``.
///
/// Paths are relative to the current directory, which is the package root under `swift test`.
public struct PriceSnapshotCheck: Sendable {
    /// The catalog file to render.
    public var catalog: String
    /// The catalog's format, when its name does not tell it.
    public var catalogFormat: CatalogFormat?
    /// A test accounts file; nil for the built-in accounts.
    public var accounts: String?
    /// Currency display and rounding.
    public var options: PriceFormatter.Options
    /// The golden snapshot file.
    public var golden: String
    /// Products in memory, rendered for ``accountsInMemory`` instead of ``catalog`` and
    /// ``accounts`` when set.
    public var products: [Product]?
    /// The test accounts ``products`` are rendered for.
    public var accountsInMemory: TestAccountFile = .builtIn

    /// A check of a catalog, rendered for test accounts with options, against a golden file.
    public init(
        catalog: String, catalogFormat: CatalogFormat? = nil, accounts: String? = nil,
        options: PriceFormatter.Options = .init(), golden: String
    ) {
        self.catalog = catalog
        self.catalogFormat = catalogFormat
        self.accounts = accounts
        self.options = options
        self.golden = golden
    }

    /// A check of products in memory, rendered for test accounts with options, against a golden
    /// file: a service's tests need no catalog file.
    public init(
        products: [Product], accounts: TestAccountFile = .builtIn, options: PriceFormatter.Options = .init(), golden: String
    ) {
        self.init(catalog: "", options: options, golden: golden)
        self.products = products
        self.accountsInMemory = accounts
    }

    /// Why a check failed, as the text a test failure shows.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The whole message: what was compared, the differences, and how to accept them.
        public let message: String
        /// The differences, when the check got as far as comparing.
        public let diff: PriceSnapshotDiff?

        /// A failure with its message and, when there is one, the diff behind it.
        public init(message: String, diff: PriceSnapshotDiff? = nil) {
            self.message = message
            self.diff = diff
        }

        /// The message.
        public var description: String { message }
    }

    /// What a check did when it did not fail.
    public enum Outcome: Sendable {
        /// Every string matches the golden file.
        case matched(PriceSnapshotDiff)
        /// The golden file was written; `diff` is what differed from the old one, if there was one.
        case recorded(path: String, diff: PriceSnapshotDiff?)
    }

    /// Renders the catalog now and compares it with the golden file, or records the golden file
    /// as `record` says.
    public func run(record: PriceSnapshotRecording) -> Result<Outcome, Failure> {
        let current: PriceSnapshot
        do {
            if let products {
                current = try PriceSnapshot.record(products: products, accounts: accountsInMemory, options: options)
            } else {
                current = try PriceSnapshot.record(
                    catalog: catalog, catalogFormat: catalogFormat, accounts: accounts, options: options)
            }
        } catch {
            return .failure(Failure(message: "price snapshot '\(golden.escapedPathForMessage)': \(error)"))
        }
        guard access(golden, F_OK) == 0 else {
            guard record != .never else {
                return .failure(
                    Failure(
                        message: "no price snapshot at '\(golden.escapedPathForMessage)'; run the tests with "
                            + "\(PriceSnapshotRecording.environmentVariable)=missing to record it"))
            }
            return write(current, diff: nil)
        }
        let diff: PriceSnapshotDiff
        do {
            diff = current.difference(from: try PriceSnapshot(contentsOfFile: golden))
        } catch {
            if record == .failed || record == .all { return write(current, diff: nil) }
            return .failure(Failure(message: "\(error)"))
        }
        if record == .all || (record == .failed && !diff.isEmpty) {
            return write(current, diff: diff)
        }
        guard diff.isEmpty else {
            return .failure(
                Failure(
                    message: """
                        price snapshot '\(golden.escapedPathForMessage)' does not match the prices rendered now:

                        \(diff)

                        To accept these strings, run the tests again with \
                        \(PriceSnapshotRecording.environmentVariable)=failed and review the changed file.
                        """,
                    diff: diff))
        }
        return .success(.matched(diff))
    }

    private func write(_ snapshot: PriceSnapshot, diff: PriceSnapshotDiff?) -> Result<Outcome, Failure> {
        do {
            try snapshot.write(to: golden)
        } catch {
            return .failure(Failure(message: "price snapshot '\(golden.escapedPathForMessage)': \(error)"))
        }
        return .success(.recorded(path: golden, diff: diff))
    }

    /// Runs the check with the mode the environment sets; a recording is reported on standard error.
    func runReportingRecordings(record: PriceSnapshotRecording?) -> Failure? {
        let mode: PriceSnapshotRecording
        if let record {
            mode = record
        } else {
            switch PriceSnapshotRecording.fromEnvironment {
            case .success(let fromEnvironment): mode = fromEnvironment
            case .failure(let failure): return failure
            }
        }
        switch run(record: mode) {
        case .success(.matched):
            return nil
        case .success(.recorded(let path, let diff)):
            let what = diff.map { ": " + $0.summary } ?? ""
            writeToStandardError("StorePriceTesting: recorded price snapshot '\(path)'\(what)\n")
            return nil
        case .failure(let failure):
            return failure
        }
    }
}

/// Writes a note for whoever runs the tests; a short write is of no consequence.
private func writeToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
        guard let base = bytes.baseAddress else { return }
        _ = write(2, base, bytes.count)
    }
}
