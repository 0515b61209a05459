/// A product as a line of a JSON Lines catalog, the format ``CatalogFormat/jsonl`` reads:
/// `{"product":"com.example.coins","prices":{"JPN":"150","USA":"0.99"},"title":{"en-US":"Coins"}}`.
///
/// Storefronts, languages and keys are written in order, so the same products give the same bytes.
package enum JSONLinesCatalogLine {
    package static func line(for product: Product) -> String {
        var line = "{\"product\":" + JSONText.quote(product.id)
        line += ",\"prices\":" + object(product.pricesByStorefront.mapValues(\.amount))
        if !product.titles.isEmpty { line += ",\"title\":" + object(product.titles) }
        if !product.descriptions.isEmpty { line += ",\"description\":" + object(product.descriptions) }
        if let period = product.subscription?.period { line += ",\"period\":" + JSONText.quote(period.description) }
        return line + "}\n"
    }

    private static func object(_ members: [String: String]) -> String {
        "{" + members.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            .map { JSONText.quote($0.key) + ":" + JSONText.quote($0.value) }.joined(separator: ",") + "}"
    }
}
