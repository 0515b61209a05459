import ArgumentParser
import StorePrice

extension StorePriceCommand {
    struct Accounts: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "accounts",
            abstract: "List sandbox test accounts and the price locale each one's store shows.",
            discussion: """
                A test account's storefront fixes its currency and store language; a device locale, \
                when given, is only for UI text. The built-in accounts are one tester per storefront \
                plus a few whose store language or device locale differs.

                An accounts file is a JSON array of objects with name, email and storefront, and \
                optionally store_language, device_locale and description. A file with a password, \
                token or other secret is refused. The same objects one per line (JSON Lines) are \
                read too. --format json and jsonl write such a file; csv and table add each \
                account's currency and price_locale (a table leaves out the description).

                With --store play, the built-in Google Play licence testers: one per Play region \
                in its default language, plus testers whose device is in another language \
                (play-ru-en, play-us-ko, …): name, email, region, device_language, description, \
                and in CSV and a table the currency and price_locale Play shows them.

                Examples:
                  storeprice accounts
                  storeprice accounts --store play
                  storeprice accounts --accounts testers.json --format csv
                  storeprice accounts --format json > testers.json

                Exit status: 0 listed, 64 usage error, 65 the accounts file cannot be used, 74 standard output cannot be written, 141 standard output closed by its reader (| head).
                """
        )

        @OptionGroup var source: AccountsOptions

        @Option(help: "Whose testers: the App Store's sandbox accounts or Google Play's licence testers (built in).")
        var store: Format.StoreChoice = .appStore

        @Option(help: OutputFormat.help)
        var format: OutputFormat = .table

        @Flag(help: ArgumentHelp(
            "Write CSV cells exactly as read.",
            discussion: "By default a cell that starts with =, +, -, @ or a control character gets a leading ' in CSV, so that a spreadsheet does not run it as a formula."))
        var rawCSV = false

        func validate() throws {
            if store == .play, source.accounts != nil {
                throw ValidationError("--accounts holds App Store testers; the Play testers are built in.")
            }
        }

        func run() throws {
            if store == .play {
                try listPlayTesters()
                return
            }
            let file = try source.load()
            let rows: [[ListedValue]]
            let columns: [String]
            switch format {
            case .json, .jsonl:
                // An accounts file, as --accounts reads it (either form): export, edit and pass it back.
                columns = Self.fileColumns
                rows = file.accounts.map(Self.fileRecord)
            case .csv, .table:
                // What each account's store shows, too; a table leaves out the long descriptions.
                let kept = format == .table ? Self.fileColumns.count - 1 : Self.fileColumns.count
                columns = Self.fileColumns.prefix(kept) + ["currency", "price_locale"]
                rows = file.accounts.map {
                    Self.fileRecord($0).prefix(kept) + [.text($0.storefront.currency.code), .text($0.priceLocale.identifier)]
                }
            }
            try Console.output(text: Listing.records(columns, rows: rows, format: format, rawCSV: rawCSV))
        }

        private func listPlayTesters() throws {
            let kept = format == .table ? Self.playColumns.count - 1 : Self.playColumns.count
            let columns = format == .json || format == .jsonl
                ? Self.playColumns : Array(Self.playColumns.prefix(kept)) + ["currency", "price_locale"]
            let rows: [[ListedValue]] = PlayTester.builtIn.map { tester in
                let record: [ListedValue] = [
                    .text(tester.name), .text(tester.email), .text(tester.region.code),
                    tester.deviceLanguage.map(ListedValue.text) ?? .null, tester.summary.map(ListedValue.text) ?? .null,
                ]
                guard format != .json, format != .jsonl else { return record }
                return record.prefix(kept) + [.text(tester.priceLocale.currency.code), .text(tester.priceLocale.identifier)]
            }
            try Console.output(text: Listing.records(columns, rows: rows, format: format, rawCSV: rawCSV))
        }

        /// The fields of a Play tester, in every format.
        static let playColumns = ["name", "email", "region", "device_language", "description"]

        /// The fields of an accounts file, in every format.
        static let fileColumns = ["name", "email", "storefront", "store_language", "device_locale", "description"]

        static func fileRecord(_ account: TestAccount) -> [ListedValue] {
            [.text(account.name), .text(account.email), .text(account.storefront.countryCode),
             account.storeLanguage.map(ListedValue.text) ?? .null, account.deviceLocale.map(ListedValue.text) ?? .null,
             account.summary.map(ListedValue.text) ?? .null]
        }
    }
}
