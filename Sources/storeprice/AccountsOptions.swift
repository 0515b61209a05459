import ArgumentParser
import StorePrice

/// Where test accounts come from: `--accounts FILE`, or the built-in accounts.
struct AccountsOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A JSON file of test accounts; the built-in accounts when omitted.", valueName: "file"))
    var accounts: String?

    /// Loads the accounts.
    func load() throws(StorePriceError) -> TestAccountFile {
        guard let accounts else { return TestAccountFile.builtIn }
        return try TestAccountFile(contentsOfFile: accounts)
    }
}

/// `--workers N`: how many threads a render uses.
struct WorkersOption: ParsableArguments {
    /// The most threads a run may ask for: more than any machine this runs on has cores, and few
    /// enough that their per-thread tables stay small.
    static let maximumWorkers = 256

    // Unconditional: `--workers -1` is a value to refuse in words, not a missing one.
    @Option(parsing: .unconditional, help: "Workers to render with, 1 to 256; by default one per processor this process may use (its CPU affinity and cgroup quota). No more threads render than the processors: workers past them add none.")
    var workers: Int = CatalogRenderer.processorCount

    func validate() throws {
        guard (1...Self.maximumWorkers).contains(workers) else {
            throw ValidationError("--workers must be 1 to \(Self.maximumWorkers); found \(workers).")
        }
    }
}
