import StorePrice

/// The notes `format` and `paywall` write on standard error about the store language a price is
/// shown in: a language that is not one of the storefront's store languages (no customer sees
/// it), or one the App Store style's evidence of Apple's strings does not cover.
enum LanguageNotes {
    /// Writes the note a run needs, if any.
    ///
    /// - Parameters:
    ///   - storefront: the `--storefront` given, and `language` its `--language`.
    ///   - asked: the store language the run asked for: `--language`, a `--locale`'s language, or
    ///     an account's store language; nil for a storefront's or an account's default pages.
    static func write(
        storefront: String?, language: String?, asked: String?, priceLocale: PriceLocale, style: PriceFormatter.Style
    ) {
        if let storefront, let language, let found = try? Storefront(storefront), !found.hasStoreLanguage(language) {
            Console.error(
                "note: '\(language.escapedForMessage)' is not a store language of \(found.countryCode) "
                    + "(\(found.storeLanguages.joined(separator: ", "))); "
                    + "no customer of its store sees this price")
            return
        }
        guard style == .appStore, let asked, let region = priceLocale.region, let found = try? Storefront(region),
            found.alpha2 == region
        else { return }
        let rule = found.appStoreRule
        guard !rule.hasEvidence(forLanguage: priceLocale.languageIdentifier) else { return }
        Console.error(
            "note: no evidence of Apple's strings in \(found.countryCode) pages in '\(asked.escapedForMessage)'; "
                + "this is the rule of its pages in \(rule.languagesSeen.joined(separator: " and "))")
    }
}
