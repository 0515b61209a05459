import ArgumentParser
import StorePrice

extension StorePriceCommand {
    struct Storefronts: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "storefronts",
            abstract: "List the App Store storefronts, or show one.",
            discussion: """
                Each storefront has Apple's numeric ID, its alpha-2 and alpha-3 codes, the currency \
                it charges, Apple's language tags and the default price locale StorePrice shows its \
                prices in. JSON, JSON Lines and CSV name the fields alpha2, alpha3, storefront_id, \
                name, currency, languages (a list; joined by ; in CSV) and price_locale.

                Examples:
                  storeprice storefronts
                  storeprice storefronts JPN
                  storeprice storefronts 143462 --format json
                  storeprice storefronts --format csv > storefronts.csv

                Exit status: 0 listed, 64 usage error, 65 an unknown storefront, 74 standard output cannot be written, 141 standard output closed by its reader (| head).
                """
        )

        @Argument(help: "A storefront to show: numeric ID (143462), alpha-3 (JPN) or alpha-2 (JP). All when omitted.")
        var storefront: String?

        @Option(help: OutputFormat.help)
        var format: OutputFormat = .table

        func run() throws {
            let storefronts = try storefront.map { [try Storefront($0)] } ?? Storefront.all
            try Console.output(text: Listing.records(Self.columns, rows: storefronts.map(Self.record), format: format))
        }

        /// The names of a storefront's fields, in every format.
        /// They are the columns of the storefront reference (`Tests/Fixtures/reference/storefronts.csv`)
        /// and the price locale.
        static let columns = ["alpha2", "alpha3", "storefront_id", "name", "currency", "languages", "price_locale"]

        static func record(_ storefront: Storefront) -> [ListedValue] {
            [.text(storefront.alpha2), .text(storefront.countryCode), .number(storefront.numericID), .text(storefront.name),
             .text(storefront.currency.code), .list(storefront.languages), .text(storefront.priceLocale.identifier)]
        }
    }
}
