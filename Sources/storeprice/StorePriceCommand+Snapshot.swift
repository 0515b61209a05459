import ArgumentParser
import StorePrice

extension StorePriceCommand {
    struct Snapshot: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "snapshot",
            abstract: "Record a golden snapshot of a catalog's prices for every test account.",
            discussion: """
                Renders every product for every test account (by default the built-in accounts) \
                and writes a JSON Lines snapshot: a header with the StorePrice, ICU and CLDR \
                versions, the catalog, the accounts and the options, then one row per product and \
                account, sorted, with the formatted string as UTF-8 and an escaped copy beside it \
                so that invisible characters show in code review. Commit it, and run \
                `storeprice verify` in CI.

                Paths in the header are written relative to the snapshot's directory, so verify \
                works from any directory. The file is replaced only when the run succeeds.

                Examples:
                  storeprice snapshot Data/catalog-sample.jsonl \\
                    --output Data/golden/catalog-sample.built-in.jsonl
                  storeprice snapshot catalog.csv --accounts Tests/accounts.json \\
                    --output Tests/Golden/prices.jsonl

                Exit status: 0 written, 64 usage error, 65 a bad catalog or accounts file, or a price the options cannot show, 73 the output file cannot be written, 74 standard output cannot be written, 141 standard output closed by its reader (| head).
                """
        )

        @Argument(help: ArgumentHelp(
            "The catalog file (.csv, .jsonl or .storekit), an App Store Connect response (.json) or a folder of them.",
            valueName: "catalog"))
        var catalog: String

        @Option(help: "The catalog's format, when its name does not tell it; play for Google Play's documents or Console CSV (never implied by a name).")
        var catalogFormat: CatalogFormatChoice?

        // For App Store Connect responses the header records the day, and verify renders that day's prices again.
        @OptionGroup var effectiveDate: EffectiveDateOption

        @OptionGroup var accountsSource: AccountsOptions

        @Option(help: ArgumentHelp(
            "The snapshot file to write; standard output when omitted or -.", valueName: "golden"))
        var output: String?

        @OptionGroup var threads: WorkersOption

        @OptionGroup var style: PriceStyleOptions

        @OptionGroup var productIDs: ProductIDOptions

        func validate() throws {
            try style.checkStyle(in: "storeprice snapshot", play: catalogFormat == .play)
            if catalogFormat == .play, accountsSource.accounts != nil {
                throw ValidationError("--accounts reads App Store test accounts; a Play catalog's snapshot is of the built-in Play testers (storeprice accounts --store play).")
            }
            try effectiveDate.validate(catalog: catalog, format: catalogFormat?.format)
        }

        func run() throws {
            let snapshot = try PriceSnapshot.record(
                catalog: catalog, catalogFormat: catalogFormat?.format, accounts: accountsSource.accounts,
                options: style.options(play: catalogFormat == .play), productIDRule: productIDs.rule, workers: threads.workers, effectiveOn: effectiveDate.date)
            guard let output, output != "-" else {
                try Console.output(text: snapshot.encoded(forFileAt: "snapshot.jsonl"))
                return
            }
            try snapshot.write(to: output)
            let accounts = Set(snapshot.rows.map { Array($0.account.utf8) }).count
            let rows = snapshot.rows.count
            Console.toStandardError(
                "wrote \(rows) row\(rows == 1 ? "" : "s") (\(accounts) account\(accounts == 1 ? "" : "s")) to \(output.escapedPathForMessage), "
                    + "with \(snapshot.producer)\n")
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Check a golden snapshot against prices rendered now.",
            discussion: """
                Renders the catalog and accounts the snapshot names (or those given) with the \
                snapshot's options, on this machine's ICU, and compares string by string.

                Exit status 0: every string matches. Exit status 1: something differs; the \
                changed strings are listed grouped by price locale, with the changed characters \
                escaped, then rows added and removed (a new product, or a storefront that stopped \
                selling one), then a one-line summary naming the ICU and CLDR versions then and \
                now. Exit status 65: the snapshot, catalog or accounts cannot be read. Exit status 64: a usage \
                error; 73: the --report file cannot be written; 74: standard output cannot be written; \
                141: standard output closed by its reader (| head).

                --report writes a self-contained HTML page: a product × account matrix with \
                changed cells highlighted, each shown in its price locale's direction.

                To accept the new strings, record the snapshot again with `storeprice snapshot`.

                Examples:
                  storeprice verify Data/golden/catalog-sample.built-in.jsonl
                  storeprice verify prices.jsonl --catalog catalog-v2.csv --report diff.html
                  storeprice verify prices.jsonl --format json --junit prices-junit.xml
                """
        )

        @Argument(help: "The golden snapshot file.")
        var golden: String

        @Option(help: ArgumentHelp("Render this catalog instead of the one the snapshot names.", valueName: "catalog"))
        var catalog: String?

        @Option(help: "The catalog's format, when its name does not tell it; play for Google Play's documents or Console CSV (never implied by a name).")
        var catalogFormat: CatalogFormatChoice?

        @Option(help: ArgumentHelp(
            "A JSON file of test accounts to use instead of the one the snapshot names.", valueName: "file"))
        var accounts: String?

        @Option(help: ArgumentHelp("Also write an HTML page of the differences to this file.", valueName: "file"))
        var report: String?

        @Option(help: "How to list the differences: text for people, or one JSON object for scripts.")
        var format: VerifyFormat = .text

        @Option(help: ArgumentHelp(
            "Also write a JUnit XML report to this file: a test case per product and account, failing where a string changed.",
            valueName: "file"))
        var junit: String?

        enum VerifyFormat: String, ExpressibleByArgument, CaseIterable {
            case text, json
        }

        @OptionGroup var threads: WorkersOption

        func validate() throws {
            if catalogFormat != nil, catalog == nil {
                throw ValidationError("--catalog-format goes with --catalog.")
            }
            if report == "-" || junit == "-" {
                throw ValidationError("--report and --junit need a file name; standard output is for the list of changes.")
            }
        }

        func run() throws {
            let diff = try PriceSnapshot.verify(
                goldenAt: golden, catalog: catalog, catalogFormat: catalogFormat?.format, accounts: accounts,
                workers: threads.workers)
            if let report {
                try OutputFile.write(diff.htmlReport(title: "StorePrice: \(golden)"), to: report)
            }
            if let junit {
                try OutputFile.write(diff.junitReport(name: "storeprice verify \(golden)"), to: junit)
            }
            try Console.output(format == .json ? diff.jsonReport() : diff.description)
            if !diff.isEmpty { throw ExitCode.failure }
        }
    }
}
