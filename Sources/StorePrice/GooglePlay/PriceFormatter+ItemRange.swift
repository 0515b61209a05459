extension PriceFormatter {
    /// Formats the range of a Play app's in-app prices as its store page shows it, in the Play
    /// style: `$0.99 - $49.99 per item` in English, `R$ 1,33 – R$ 179,99 por item` in Portuguese.
    ///
    /// ```swift
    /// let formatter = try PriceFormatter(
    ///     locale: PlayRegion("US").priceLocale(language: "en"), options: .init(style: .play))
    /// try formatter.formatItemRange(Price("0.99", currency: .init("USD")), Price("49.99", currency: .init("USD")))
    /// // "$0.99 - $49.99 per item"
    /// ```
    ///
    /// - Throws: ``StorePriceError/invalidAmount(_:reason:)`` outside the Play style or when
    ///   `low` is above `high`; ``StorePriceError/unsupportedLocale(_:reason:)`` for a language
    ///   whose wording no Play page in the evidence shows (`Data/play-style.json`).
    public func formatItemRange(_ low: Price, _ high: Price) throws(StorePriceError) -> String {
        let shown = "\(low.amount)..\(high.amount)"
        guard options.style == .play else {
            throw .invalidAmount(shown, reason: "a range of in-app prices is written only in the Play style")
        }
        guard low.decimalValue <= high.decimalValue else {
            throw .invalidAmount(shown, reason: "the low price is above the high one")
        }
        let lowText = try format(low)
        let highText = try format(high)
        // One price shown, however it was given (0.991..0.994 is $0.99 twice): the single wording.
        let single = lowText == highText
        let wording = PlayStyleTable.shared.itemRanges[locale.language]
        if single, let pattern = wording?.single {
            return pattern.replacing("{price}", with: lowText)
        }
        guard let pattern = wording?.range else {
            let tables = PlayStyleTable.shared.itemRanges
            let known = tables.keys.filter { single ? tables[$0]?.single != nil : tables[$0]?.range != nil }.sorted()
            throw .unsupportedLocale(
                locale.identifier,
                reason: "no evidence of Google Play's wording of \(single ? "one in-app price" : "in-app price ranges") "
                    + "in '\(locale.language)'; it is known in \(known.joined(separator: ", "))")
        }
        return pattern.replacing("{low}", with: lowText).replacing("{high}", with: highText)
    }
}
