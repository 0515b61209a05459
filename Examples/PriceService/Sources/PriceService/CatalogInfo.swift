import Foundation
import StorePrice

/// The answer to `GET /v1/catalog`: where the served catalog came from, what it holds, when it
/// was loaded, the day its prices are in effect, and the ICU the strings come from.
///
/// `{"catalog":"catalog.jsonl","format":"jsonl","products":31,"subscriptions":3,"loaded_at":"2026-12-07T16:00:00Z",
/// "age_seconds":42,"prices_in_effect_on":null,"notes":[],"templates":null,"offer_wording":null,
/// "storeprice":"0.1.0","icu":"72.1","cldr":"42.0"}`
struct CatalogInfo: Encodable, Sendable {
    var catalog: String
    var format: String
    var products: Int
    var subscriptions: Int
    var loadedAt: String
    var ageSeconds: Int
    var pricesInEffectOn: String?
    var notes: [String]
    var templates: String?
    var offerWording: String?
    var storeprice = VersionInfo.current
    var icu = VersionInfo.icu
    var cldr = VersionInfo.cldr

    enum CodingKeys: String, CodingKey {
        case catalog, format, products, subscriptions, notes, templates, storeprice, icu, cldr
        case loadedAt = "loaded_at"
        case ageSeconds = "age_seconds"
        case pricesInEffectOn = "prices_in_effect_on"
        case offerWording = "offer_wording"
    }

    init(_ served: ServedCatalog, now: Date = Date()) {
        catalog = served.source
        format = served.format.rawValue
        products = served.products.count
        subscriptions = served.products.count { $0.subscription != nil }
        loadedAt = served.loadedAt.formatted(.iso8601)
        ageSeconds = max(0, Int(now.timeIntervalSince(served.loadedAt)))
        pricesInEffectOn = served.pricesInEffectOn
        notes = served.notes
        templates = served.templatesSource
        offerWording = served.offerWordingSource
    }

    /// Every key, `null` where there is no value.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(catalog, forKey: .catalog)
        try container.encode(format, forKey: .format)
        try container.encode(products, forKey: .products)
        try container.encode(subscriptions, forKey: .subscriptions)
        try container.encode(loadedAt, forKey: .loadedAt)
        try container.encode(ageSeconds, forKey: .ageSeconds)
        try container.encode(pricesInEffectOn, forKey: .pricesInEffectOn)
        try container.encode(notes, forKey: .notes)
        try container.encode(templates, forKey: .templates)
        try container.encode(offerWording, forKey: .offerWording)
        try container.encode(storeprice, forKey: .storeprice)
        try container.encode(icu, forKey: .icu)
        try container.encode(cldr, forKey: .cldr)
    }
}
