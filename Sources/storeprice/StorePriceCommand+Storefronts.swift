import ArgumentParser
import Foundation
import StorePrice

extension StorePriceCommand {
    struct Storefronts: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the App Store storefronts, or show one.",
            discussion: """
                Each storefront has Apple's numeric ID, its alpha-2 and alpha-3 codes, the currency \
                it charges, Apple's language tags and the default price locale StorePrice shows \
                its prices in.

                Examples:
                  storeprice storefronts
                  storeprice storefronts JPN
                  storeprice storefronts 143462 --format json
                  storeprice storefronts --format csv > storefronts.csv

                Exit status: 0 listed, 64 usage error, 74 standard output cannot be written.
                """
        )

        @Argument(help: "A storefront to show: numeric ID (143462), alpha-3 (JPN) or alpha-2 (JP). All when omitted.")
        var storefront: String?

        @Option(help: "The output format.")
        var format: OutputFormat = .table

        func run() throws {
            let storefronts: [Storefront]
            if let storefront {
                storefronts = [try Storefront(storefront)]
            } else {
                storefronts = Storefront.all
            }
            switch format {
            case .json:
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                let data = try encoder.encode(storefront == nil ? storefronts : [storefronts[0]])
                try Console.output(String(decoding: data, as: UTF8.self))
            case .csv:
                try Console.output(Listing.csv(header: Self.csvHeader, rows: storefronts.map(Self.csvRow)))
            case .table:
                try Console.output(Listing.table(
                    header: ["ID", "A2", "A3", "NAME", "CURRENCY", "PRICE LOCALE", "APPLE LANGUAGES"],
                    rows: storefronts.map {
                        [String($0.id), $0.alpha2, $0.alpha3, $0.name, $0.currency.code,
                         $0.priceLocale.identifier, $0.languages.joined(separator: ",")]
                    }))
            }
        }

        static let csvHeader = ["alpha2", "alpha3", "storefront_id", "name", "currency", "languages", "price_locale"]

        static func csvRow(_ storefront: Storefront) -> [String] {
            [storefront.alpha2, storefront.alpha3, String(storefront.id), storefront.name, storefront.currency.code,
             storefront.languages.joined(separator: ";"), storefront.priceLocale.identifier]
        }
    }
}
