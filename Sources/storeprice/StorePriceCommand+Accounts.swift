import ArgumentParser
import StorePrice

extension StorePriceCommand {
    struct Accounts: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List sandbox test accounts and the price locale each one's store shows.",
            discussion: """
                A test account's storefront fixes its currency and store language; a device locale, \
                when given, is only for UI text. The built-in accounts are one tester per storefront \
                plus a few whose store language or device locale differs.

                An accounts file is a JSON array of objects with name, email and storefront, and \
                optionally storeLanguage, deviceLocale and description. A file with a password, \
                token or other secret is refused.

                Examples:
                  storeprice accounts
                  storeprice accounts --accounts testers.json --format csv

                Exit status: 0 listed, 64 usage error, 65 the accounts file cannot be used, 74 standard output cannot be written.
                """
        )

        @OptionGroup var source: AccountsOptions

        @Option(help: "The output format.")
        var format: OutputFormat = .table

        @Flag(help: ArgumentHelp(
            "Write CSV cells exactly as read.",
            discussion: "By default a cell that starts with =, +, -, @ or a control character gets a leading ' in CSV, so that a spreadsheet does not run it as a formula."))
        var rawCSV = false

        func run() throws {
            let file = try source.load()
            let header = ["name", "email", "storefront", "currency", "store_language", "device_locale", "price_locale"]
            let rows = file.accounts.map {
                [$0.name, $0.email, $0.storefront.alpha3, $0.storefront.currency.code, $0.storeLanguage ?? "",
                 $0.deviceLocale ?? "", $0.priceLocale.identifier]
            }
            switch format {
            case .table:
                try Console.output(Listing.table(header: header.map { $0.uppercased().replacingOccurrences(of: "_", with: " ") }, rows: rows))
            case .csv:
                try Console.output(Listing.csv(header: header, rows: rows, raw: rawCSV))
            case .json:
                // An accounts file, as --accounts reads it: export, edit and pass it back.
                let fileRows = file.accounts.map {
                    [$0.name, $0.email, $0.storefront.alpha3, $0.storeLanguage ?? "", $0.deviceLocale ?? "", $0.summary ?? ""]
                }
                try Console.output(JSONLines.array(
                    header: ["name", "email", "storefront", "storeLanguage", "deviceLocale", "description"], rows: fileRows))
            }
        }
    }
}

/// Minimal JSON writing for flat string records.
enum JSONLines {
    /// A pretty JSON array of objects, one key per column; empty cells are left out.
    static func array(header: [String], rows: [[String]]) -> String {
        let objects = rows.map { row in
            "  {" + zip(header, row).filter { !$0.1.isEmpty }.map { "\(JSONText.quote($0.0)): \(JSONText.quote($0.1))" }
                .joined(separator: ", ") + "}"
        }
        return "[\n" + objects.joined(separator: ",\n") + "\n]"
    }
}
