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
