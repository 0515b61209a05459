/// A product as a line of a JSON Lines catalog, the format ``CatalogFormat/jsonl`` reads:
/// `{"product":"com.example.coins","prices":{"JPN":"150","USA":"0.99"},"title":{"en-US":"Coins"}}`,
/// and a subscription's `period` and offers (`introductory_offer`, or `introductory_offers` where
/// they differ between storefronts, `promotional_offers`, `offer_codes`, `win_back_offers`).
///
/// Storefronts, languages and keys are written in order, so the same products give the same bytes;
/// reading the line gives the product back.
package enum JSONLinesCatalogLine {
    package static func line(for product: Product) -> String {
        var line = "{\"product\":" + JSONText.quote(product.id)
        line += ",\"prices\":" + object(product.pricesByStorefront.mapValues(\.amount))
        if !product.titles.isEmpty { line += ",\"title\":" + object(product.titles) }
        if !product.descriptions.isEmpty { line += ",\"description\":" + object(product.descriptions) }
        if let terms = product.subscription {
            line += ",\"period\":" + JSONText.quote(terms.period.description)
            switch terms.introductoryOffers.count {
            case 0: break
            case 1: line += ",\"introductory_offer\":" + offer(terms.introductoryOffers[0])
            default: line += ",\"introductory_offers\":[" + terms.introductoryOffers.map(offer).joined(separator: ",") + "]"
            }
            for (key, offers) in [
                ("promotional_offers", terms.promotionalOffers), ("offer_codes", terms.offerCodes), ("win_back_offers", terms.winBackOffers),
            ] where !offers.isEmpty {
                line += ",\"\(key)\":[" + offers.map(offer).joined(separator: ",") + "]"
            }
        }
        return line + "}\n"
    }

    /// An offer as the reader takes it: `{"id":"winback","payment_mode":"payUpFront","period":"P2M","prices":{"USA":"1.99"}}`.
    private static func offer(_ offer: CatalogOffer) -> String {
        var text = "{"
        if let id = offer.id { text += "\"id\":" + JSONText.quote(id) + "," }
        let mode: String
        switch offer.paymentMode {
        case .freeTrial: mode = "free"
        case .payAsYouGo: mode = "payAsYouGo"
        case .payUpFront: mode = "payUpFront"
        }
        text += "\"payment_mode\":" + JSONText.quote(mode) + ",\"period\":" + JSONText.quote(offer.period.description)
        if offer.periodCount != 1 { text += ",\"period_count\":\(offer.periodCount)" }
        if !offer.prices.isEmpty {
            var prices: [String: String] = [:]
            for (id, price) in offer.prices {
                if let storefront = try? Storefront(String(id)) { prices[storefront.countryCode] = price.amount }
            }
            text += ",\"prices\":" + object(prices)
        }
        if let storefronts = offer.storefronts {
            let codes = storefronts.compactMap { try? Storefront(String($0)).countryCode }.sorted()
            text += ",\"storefronts\":[" + codes.map(JSONText.quote).joined(separator: ",") + "]"
        }
        return text + "}"
    }

    private static func object(_ members: [String: String]) -> String {
        "{" + members.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            .map { JSONText.quote($0.key) + ":" + JSONText.quote($0.value) }.joined(separator: ",") + "}"
    }
}
