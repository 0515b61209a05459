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
    @Option(help: "Threads to render on; by default one per processor.")
    var workers: Int = CatalogRenderer.processorCount

    func validate() throws {
        guard workers >= 1 else { throw ValidationError("--workers must be at least 1.") }
    }
}
