import StorePrice

/// The note `format --store play` writes on standard error: the price locale it used, and why.
enum PlayNotes {
    /// `note: en_RU@currency=RUB: …`, naming where the language and the currency came from.
    static func locale(_ priceLocale: PriceLocale, region: PlayRegion, language: String?, tester: String? = nil) -> String {
        var note = "note: Google Play price locale \(priceLocale.identifier): "
        if let language {
            note += "a device in '\(language.escapedForMessage)' in \(region.code)"
        } else if let tester {
            note += "\(tester)'s device is in \(region.code)'s most common language (\(region.language))"
        } else {
            note += "\(region.code)'s most common language (\(region.language)); give --language, the buyer's device language, when you know it"
        }
        if priceLocale.currency != region.currency {
            note += "; the price is in \(priceLocale.currency), not \(region.code)'s buyer currency \(region.currency)"
        } else if region.confidence == .listed {
            note += "; \(region.code)'s buyer currency \(region.currency) is only in a hand-written list of Play's regions"
        }
        return note
    }
}
