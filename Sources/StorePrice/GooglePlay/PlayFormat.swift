import FoundationEssentials

/// Google Play's text around ICU's number in one price locale: the rules of
/// `Data/play-style.json` for the locale's language and currency (`Free` for zero in English,
/// `грн` for `₴` in Ukrainian). Everything else is ICU's output.
struct PlayFormat: Sendable {
    /// The word Play writes for zero in this language, if the evidence shows one.
    let free: String?
    /// ICU's currency symbol and the one Play writes instead, if they differ here.
    let symbol: PlayStyleTable.Symbol?

    init(locale: PriceLocale) {
        let table = PlayStyleTable.shared
        free = table.free[locale.language]
        symbol = table.symbols.first { $0.language == locale.language && $0.currency == locale.currency.code }
    }

    /// Play's string for ICU's output `text` of the price's exact `amount`: its word for zero
    /// only for a price of exactly zero (Play's `priceAmountMicros` 0), not for one that rounds
    /// to it.
    func apply(_ text: String, amount: String) -> String {
        if let free, amount == "0" { return free }
        guard let symbol else { return text }
        return text.replacing(symbol.icu, with: symbol.play)
    }
}

/// `Data/play-style.json`, decoded once.
final class PlayStyleTable: Sendable {
    static let shared = PlayStyleTable()

    let free: [String: String]
    let symbols: [Symbol]
    let itemRanges: [String: ItemRange]

    struct Symbol: Decodable, Sendable, Hashable {
        var language: String
        var currency: String
        var icu: String
        var play: String
    }

    /// A language's wording of a store page's in-app prices: of two prices, of one, or both.
    struct ItemRange: Decodable, Sendable, Hashable {
        var range: String?
        var single: String?
    }

    private struct Free: Decodable {
        var text: String
    }

    private struct File: Decodable {
        var free: [String: Free]
        var symbols: [Symbol]
        var item_ranges: [String: ItemRange]
    }

    private init() {
        do {
            let file = try JSONDecoder().decode(File.self, from: Data(EmbeddedData.playStyle.utf8))
            free = file.free.mapValues(\.text)
            symbols = file.symbols
            itemRanges = file.item_ranges
        } catch {
            // Checked by the test suite: a build whose data does not decode is a build defect.
            preconditionFailure("Data/play-style.json: \(error)")
        }
    }
}
