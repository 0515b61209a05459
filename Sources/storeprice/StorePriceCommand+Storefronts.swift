import ArgumentParser
import StorePrice

extension StorePriceCommand {
    struct Storefronts: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "storefronts",
            abstract: "List the App Store storefronts or Google Play's billing regions, or show one.",
            discussion: """
                Each storefront has Apple's numeric ID, its alpha-2 and alpha-3 codes, the currency \
                it charges, Apple's language tags and the default price locale StorePrice shows its \
                prices in. JSON, JSON Lines and CSV name the fields alpha2, alpha3, storefront_id, \
                name, currency, languages (a list; joined by ; in CSV) and price_locale.

                With --store play, Google Play's 173 billing regions at regionsVersion 2025/03: \
                region (alpha-2), name, currency (the buyer currency), confidence (confirmed by a \
                real Play response; changed on a dated cause; listed only in a hand-written list), \
                language (the price locale's when the buyer's device language is not known), \
                price_locale, regions_version and sources (the keys of Data/play-regions.json's \
                sources).

                Examples:
                  storeprice storefronts
                  storeprice storefronts JPN
                  storeprice storefronts 143462 --format json
                  storeprice storefronts --format csv > storefronts.csv
                  storeprice storefronts --store play
                  storeprice storefronts BG --store play --format json

                Exit status: 0 listed, 64 usage error, 65 an unknown storefront or region, 74 standard output cannot be written, 141 standard output closed by its reader (| head).
                """
        )

        @Argument(help: "A storefront to show: numeric ID (143462), alpha-3 (JPN) or alpha-2 (JP); with --store play, a region (RU). All when omitted.")
        var storefront: String?

        @Option(help: "Whose: the App Store's storefronts or Google Play's billing regions.")
        var store: Format.StoreChoice = .appStore

        @Option(help: OutputFormat.help)
        var format: OutputFormat = .table

        func run() throws {
            if store == .play {
                let regions = try storefront.map { [try PlayRegion($0)] } ?? PlayRegion.all
                try Console.output(text: Listing.records(Self.playColumns, rows: regions.map(Self.record), format: format))
                return
            }
            let storefronts = try storefront.map { [try Storefront($0)] } ?? Storefront.all
            try Console.output(text: Listing.records(Self.columns, rows: storefronts.map(Self.record), format: format))
        }

        /// The names of a storefront's fields, in every format.
        /// They are the columns of the storefront reference (`Tests/Fixtures/reference/storefronts.csv`)
        /// and the price locale.
        static let columns = ["alpha2", "alpha3", "storefront_id", "name", "currency", "languages", "price_locale"]

        /// The names of a Play region's fields, in every format.
        static let playColumns = ["region", "name", "currency", "confidence", "language", "price_locale", "regions_version", "sources"]

        static func record(_ region: PlayRegion) -> [ListedValue] {
            [.text(region.code), .text(region.name), .text(region.currency.code), .text(region.confidence.rawValue),
             .text(region.language), .text(region.priceLocale.identifier), .text(PlayRegion.regionsVersion), .list(region.sources)]
        }

        static func record(_ storefront: Storefront) -> [ListedValue] {
            [.text(storefront.alpha2), .text(storefront.countryCode), .number(storefront.numericID), .text(storefront.name),
             .text(storefront.currency.code), .list(storefront.languages), .text(storefront.priceLocale.identifier)]
        }
    }
}
