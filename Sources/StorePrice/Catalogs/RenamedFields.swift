/// Field names of StorePrice 0.1.0, before every file and output used the same snake_case
/// names, and their names now: a file written for 0.1.0 is refused with what to write instead,
/// not as merely unknown.
enum RenamedFields {
    /// Keys of a JSON Lines catalog line and of its offers.
    static let catalog = [
        "id": "product", "introductoryOffer": "introductory_offer", "promotionalOffers": "promotional_offers",
        "offerCodes": "offer_codes", "winBackOffers": "win_back_offers", "paymentMode": "payment_mode",
        "periodCount": "period_count",
    ]

    /// Keys of an accounts file's entries.
    static let accounts = ["storeLanguage": "store_language", "deviceLocale": "device_locale"]

    /// `StorePrice now names it 'product', as its outputs do`, for old names found in `table`;
    /// nil when none of them is an old name.
    static func note(_ old: [String], in table: [String: String]) -> String? {
        let new = old.compactMap { table[$0] }.map { "'\($0)'" }
        guard !new.isEmpty else { return nil }
        return "StorePrice now names \(new.count == 1 ? "it" : "them") \(new.joined(separator: ", ")), as its outputs do"
    }
}
