import ArgumentParser
import StorePrice

/// Where test accounts come from: `--accounts FILE`, or the built-in accounts.
struct AccountsOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A JSON file of test accounts; the built-in accounts when omitted.", valueName: "file"))
    var accounts: String?

    /// Loads the accounts, printing a one-line error and exiting 65 on failure.
    func load() throws -> TestAccountFile {
        guard let accounts else { return TestAccountFile.builtIn }
        do {
            return try TestAccountFile(contentsOfFile: accounts)
        } catch {
            Console.error(error.description)
            throw ExitCode.dataError
        }
    }
}
