#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// App Store Connect responses read one at a time and joined by product: the lists that name the
/// products, their prices with the price points and territories included, and their titles.
struct AppStoreConnectResponses {
    /// The day whose prices are wanted, `YYYY-MM-DD`.
    let day: String

    /// What a price or a listing belongs to.
    enum Kind: String {
        case inAppPurchase = "in-app purchase"
        case subscription
        case app
    }

    /// A product as App Store Connect names it: its kind and its Apple ID (`6444653105`).
    struct Owner: Hashable {
        var kind: Kind
        var appleID: String
    }

    /// A product in a list: its product ID (a bundle ID for an app), and a subscription's period.
    struct Listing {
        var productID: String
        var period: String?
        var source: String
        var field: String
    }

    /// One price of a product in a territory, with the days it is in effect.
    struct PriceRecord {
        var territory: String
        var start: String?
        var end: String?
        var manual: Bool
        /// The price point's `customerPrice`, as written.
        var amount: String
        var source: String
        /// The JSON path of `customerPrice`.
        var field: String
    }

    /// An offer of a subscription, as one resource gives it: an introductory offer for one
    /// territory (its price point's amount, for a paid one), or a promotional, win-back or offer
    /// code's terms, whose prices come in responses of their own.
    struct OfferRecord {
        var kind: CatalogOffer.Kind
        /// The resource's type and ID, which its prices' responses name.
        var resource: String
        var id: String?
        var duration: String
        var mode: String
        var count: Int
        var start: String?
        var end: String?
        var active: Bool?
        var territory: String?
        var amount: String?
        var source: String
        var field: String
    }

    /// A price of a promotional, win-back or offer-code offer in a territory.
    struct OfferPrice {
        var territory: String
        var amount: String
        var source: String
        var field: String
    }

    private var listings: [Owner: Listing] = [:]
    private var offers: [Owner: [OfferRecord]] = [:]
    private var offerPrices: [String: [OfferPrice]] = [:]
    private var listingOrder: [Owner] = []
    private var prices: [Owner: [PriceRecord]] = [:]
    private var pricedOrder: [Owner] = []
    private var titles: [Owner: [(locale: String, name: String?, description: String?, source: String, field: String)]] = [:]
    /// Each territory's currency, as the responses' territories give it.
    private var currencies: [String: (currency: String, source: String, field: String)] = [:]
    private var selfLinks: Set<String> = []
    private var nextLinks: [(link: String, source: String)] = []
    private var notes: [String] = []
    private var storefronts = StorefrontCodes()

    init(day: String) {
        self.day = day
    }

    // The resource types StorePrice reads, and how a price names its price point.
    private static let listTypes: [String: Kind] = ["inAppPurchases": .inAppPurchase, "subscriptions": .subscription, "apps": .app]
    private static let priceTypes: [String: (kind: Kind, point: String, pointTypes: Set<String>)] = [
        "inAppPurchasePrices": (.inAppPurchase, "inAppPurchasePricePoint", ["inAppPurchasePricePoints"]),
        "subscriptionPrices": (.subscription, "subscriptionPricePoint", ["subscriptionPricePoints"]),
        "appPrices": (.app, "appPricePoint", ["appPricePointsV3", "appPricePoints"]),
    ]
    private static let pointTypes: Set<String> = ["inAppPurchasePricePoints", "subscriptionPricePoints", "appPricePointsV3", "appPricePoints"]
    private static let localizationTypes: [String: Kind] = [
        "inAppPurchaseLocalizations": .inAppPurchase, "subscriptionLocalizations": .subscription,
    ]
    private static let otherTypes: Set<String> = [
        "territories", "inAppPurchasePriceSchedules", "appPriceSchedules", "subscriptionGroups",
    ]
    /// A subscription's offers, by resource type.
    private static let offerTypes: [String: CatalogOffer.Kind] = [
        "subscriptionIntroductoryOffers": .introductory, "subscriptionPromotionalOffers": .promotional,
        "winBackOffers": .winBack, "subscriptionOfferCodes": .offerCode,
    ]
    /// Offers' prices, by resource type: the offer type a response's `links.self` names.
    private static let offerPriceTypes: [String: String] = [
        "subscriptionPromotionalOfferPrices": "subscriptionPromotionalOffers", "winBackOfferPrices": "winBackOffers",
        "subscriptionOfferCodePrices": "subscriptionOfferCodes",
    ]
    /// The path segments of a `links.self` that name the product, by kind.
    private static let ownerSegments: [Kind: Set<String>] = [
        .inAppPurchase: ["inAppPurchasePriceSchedules", "inAppPurchases"],
        .subscription: ["subscriptions"],
        .app: ["appPriceSchedules", "apps"],
    ]

    /// Reads one response; returns the resources its `data` lists and its next page, which the
    /// next requests of a pull are made from.
    mutating func read(_ bytes: [UInt8], source: String) throws(StorePriceError) -> AppStoreConnectCatalog.Response {
        func fail(_ field: String?, _ reason: String) -> StorePriceError {
            .invalidCatalog(source: source, line: nil, field: field, reason: reason)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if let problem = JSONText.problem(in: bytes) { throw fail(nil, problem) }
        let document: JSONAPIDocument
        do {
            document = try JSONDecoder().decode(JSONAPIDocument.self, from: Data(bytes))
        } catch {
            // A .json file of JSON Lines: each line an object, the file no one JSON value.
            let lines = bytes.split(separator: UInt8(ascii: "\n")).filter { $0.contains { $0 > 0x20 } }
            if lines.count > 1, lines.allSatisfy({ $0.first { $0 > 0x20 } == UInt8(ascii: "{") }),
                (try? JSONDecoder().decode([String: FieldValue].self, from: Data(lines[0]))) != nil
            {
                throw fail(nil, "this is JSON Lines (an object a line), not an App Store Connect response; read it as a JSON Lines catalog, format jsonl")
            }
            let keys = Set(JSONDuplicateKeys.scan(text).topLevelKeys)
            if !keys.isDisjoint(with: ["oneTimeProducts", "subscriptions", "subscriptionOffers", "inappproduct", "purchaseOptions", "basePlans", "sku"]) {
                throw fail(nil, "this is a Google Play Developer API document, not an App Store Connect response; read it as a Google Play catalog, format play")
            }
            throw fail(nil, "not an App Store Connect response (\(describe(error)))")
        }
        if let repeated = JSONDuplicateKeys.firstRepeatedKey(in: text) { throw fail(repeated, JSONDuplicateKeys.reason) }
        if let link = document.links?.`self` { selfLinks.insert(link) }
        if let link = document.links?.next { nextLinks.append((link, source)) }

        // Every resource with its JSON path: data first, then included.
        let resources = document.data.enumerated().map { (document.dataIsList ? "data[\($0.offset)]" : "data", $0.element) }
            + document.included.enumerated().map { ("included[\($0.offset)]", $0.element) }
        var points: [String: (amount: String?, territory: String?, field: String)] = [:]
        var places: [String: String] = [:]
        for (place, resource) in resources {
            // A resource is one type and ID once in a document (JSON:API); a second would decide a price.
            if let first = places.updateValue(place, forKey: resource.type + "/" + resource.id) {
                throw fail(
                    "\(place).id",
                    "\(resource.type.escapedForMessage) '\(resource.id.escapedForMessage)' again; \(first) is it")
            }
            if Self.pointTypes.contains(resource.type) {
                points[resource.type + "/" + resource.id] =
                    (resource.attributes?.customerPrice, resource.related("territory")?.id, place)
            } else if resource.type == "territories", let currency = resource.attributes?.currency {
                if let known = currencies[resource.id], known.currency != currency {
                    throw fail(
                        "\(place).attributes.currency",
                        "territory \(resource.id.escapedForMessage) is in \(currency.escapedForMessage) here but in "
                            + "\(known.currency.escapedForMessage) in '\(known.source.escapedPathForMessage)'")
                }
                currencies[resource.id] = (currency, source, "\(place).attributes.currency")
            }
        }
        for (index, resource) in document.data.enumerated() {
            let place = document.dataIsList ? "data[\(index)]" : "data"
            let type = resource.type
            guard Self.listTypes[type] != nil || Self.priceTypes[type] != nil || Self.localizationTypes[type] != nil
                || Self.pointTypes.contains(type) || Self.otherTypes.contains(type) || Self.offerTypes[type] != nil
                || Self.offerPriceTypes[type] != nil
            else {
                throw fail(
                    "\(place).type",
                    "'\(type.escapedForMessage)' is no resource StorePrice reads; it reads in-app purchases, subscriptions, "
                        + "apps, their prices, price points, territories, localizations, and subscriptions' offers and their prices")
            }
            if Self.pointTypes.contains(type), index == 0 {
                notes.append(
                    "'\(source.escapedPathForMessage)' lists price points, the amounts a product could have, not its "
                        + "prices; they are not read as prices")
            }
        }
        // The product a response's prices and titles belong to: a schedule's own ID, or the one
        // its links.self names.
        func owner(_ kind: Kind, at place: String) throws(StorePriceError) -> Owner {
            if let schedule = document.data.first, !document.dataIsList,
                schedule.type == "inAppPurchasePriceSchedules" || schedule.type == "appPriceSchedules"
            {
                return Owner(kind: kind, appleID: schedule.id)
            }
            guard let link = document.links?.`self`, let id = Self.ownerID(in: link, segments: Self.ownerSegments[kind] ?? [])
            else {
                throw fail(
                    "links.self",
                    "\(place) is a price or title of \(Self.article(kind)) \(kind.rawValue), but links.self does not name "
                        + "which; keep each response as the API sent it")
            }
            return Owner(kind: kind, appleID: id)
        }
        var unpriced = 0
        var pointless: [String] = []
        var otherPlans: [String: Int] = [:]
        defer {
            for (plan, count) in otherPlans.sorted(by: { $0.key < $1.key }) {
                notes.append(
                    "'\(source.escapedPathForMessage)' has \(count) price\(count == 1 ? "" : "s") of the billing plan "
                        + "'\(plan.escapedForMessage)', which \(count == 1 ? "is" : "are") not read; a subscription's price is its "
                        + "UPFRONT plan's")
            }
            if !pointless.isEmpty {
                notes.append(
                    "'\(source.escapedPathForMessage)' does not include the price point of \(pointless.prefix(3).joined(separator: ", "))"
                        + "\(pointless.count > 3 ? " and \(pointless.count - 3) more" : ""); \(pointless.count == 1 ? "that price is" : "those prices are") not read")
            }
            if unpriced > 0 {
                notes.append(
                    "'\(source.escapedPathForMessage)' includes \(unpriced) price\(unpriced == 1 ? "" : "s") without a price "
                        + "point, which \(unpriced == 1 ? "is" : "are") not read; fetch a schedule's manualPrices and automaticPrices with their price "
                        + "points and territories included")
            }
        }
        for (place, resource) in resources {
            if let kind = Self.listTypes[resource.type], place.hasPrefix("data") {
                try list(resource, kind: kind, place: place, source: source)
            } else if let (kind, pointRelationship, pointTypes) = Self.priceTypes[resource.type] {
                let owner = try owner(kind, at: place)
                // A billing plan's monthly payments are another price than the subscription's.
                if let plan = resource.attributes?.planType, plan != "UPFRONT" {
                    otherPlans[plan, default: 0] += 1
                    continue
                }
                guard let pointID = resource.related(pointRelationship) else {
                    // A schedule's included prices come without their price points unless asked for.
                    if place.hasPrefix("included") {
                        unpriced += 1
                        continue
                    }
                    throw fail("\(place).relationships.\(pointRelationship)", "missing; a price names its price point")
                }
                guard pointTypes.contains(pointID.type) else {
                    throw fail(
                        "\(place).relationships.\(pointRelationship).data.type",
                        "'\(pointID.type.escapedForMessage)' where the API writes \(pointTypes.sorted().joined(separator: " or "))")
                }
                guard let point = points[pointID.type + "/" + pointID.id] else {
                    // Apple's responses leave out a price point now and then; the price is left out, with a note.
                    guard !document.included.isEmpty else {
                        throw fail(
                            "\(place).relationships.\(pointRelationship)",
                            "its price point is not in the response; request the prices with include=\(pointRelationship),territory")
                    }
                    pointless.append("\(place) (\(resource.related("territory")?.id.escapedForMessage ?? "no territory"))")
                    continue
                }
                guard let amount = point.amount else { throw fail("\(point.field).attributes.customerPrice", "missing") }
                try checkRelationships(resource, point: point, place: place, source: source)
                guard let territory = resource.related("territory")?.id ?? point.territory else {
                    throw fail(
                        "\(place).relationships.territory",
                        "missing; neither the price nor its price point names a territory")
                }
                try checkTerritory(territory, source: source, field: "\(place).relationships.territory")
                let attributes = resource.attributes
                for (name, value) in [("startDate", attributes?.startDate), ("endDate", attributes?.endDate)] {
                    if let value, !CivilTime.isDay(value) {
                        throw fail(
                            "\(place).attributes.\(name)",
                            "'\(value.escapedForMessage)' is not a day written YYYY-MM-DD, as the API writes them")
                    }
                }
                if let start = attributes?.startDate, let end = attributes?.endDate, end <= start {
                    throw fail("\(place).attributes.endDate", "\(end) is not after the startDate, \(start)")
                }
                if amount.hasPrefix("-") {
                    throw fail("\(point.field).attributes.customerPrice", "'\(amount.escapedForMessage)' is below 0; a price is 0 or more")
                }
                if prices[owner] == nil { pricedOrder.append(owner) }
                prices[owner, default: []].append(
                    PriceRecord(
                        territory: territory, start: attributes?.startDate, end: attributes?.endDate,
                        manual: attributes?.manual ?? false, amount: amount, source: source,
                        field: "\(point.field).attributes.customerPrice"))
            } else if let kind = Self.offerTypes[resource.type], place.hasPrefix("data") {
                let owner = try owner(.subscription, at: place)
                try offer(resource, kind: kind, owner: owner, place: place, source: source, points: points)
            } else if let offerType = Self.offerPriceTypes[resource.type], place.hasPrefix("data") {
                guard let link = document.links?.`self`, let offerID = Self.ownerID(in: link, segments: [offerType]) else {
                    throw fail(
                        "links.self",
                        "\(place) is a price of an offer, but links.self does not name which; keep each response as the API sent it")
                }
                guard let (territory, amount, field) = try offerPrice(resource, place: place, source: source, points: points) else {
                    pointless.append("\(place) (\(resource.related("territory")?.id.escapedForMessage ?? "no territory"))")
                    continue
                }
                offerPrices[offerType + "/" + offerID, default: []].append(
                    OfferPrice(territory: territory, amount: amount, source: source, field: field))
            } else if let kind = Self.localizationTypes[resource.type] {
                let owner = try owner(kind, at: place)
                guard let locale = resource.attributes?.locale else { throw fail("\(place).attributes.locale", "missing") }
                guard LanguageTagSet.isLanguageTag(locale) else {
                    throw fail("\(place).attributes.locale", "'\(locale.escapedForMessage)' is not a language tag, such as en, en-US or zh-Hans")
                }
                titles[owner, default: []].append(
                    (locale, resource.attributes?.name, resource.attributes?.description, source, "\(place).attributes.locale"))
            }
        }
        return AppStoreConnectCatalog.Response(
            resources: document.data.map { .init(type: $0.type, id: $0.id, bundleID: $0.attributes?.bundleId) },
            selfLink: document.links?.`self`, next: document.links?.next)
    }

    /// An offer's price: its territory, its price point's amount and where that is; nil when its
    /// price point is not in the response (a note says so).
    private mutating func offerPrice(
        _ resource: JSONAPIDocument.Resource, place: String, source: String,
        points: [String: (amount: String?, territory: String?, field: String)]
    ) throws(StorePriceError) -> (territory: String, amount: String, field: String)? {
        func fail(_ field: String, _ reason: String) -> StorePriceError {
            .invalidCatalog(source: source, line: nil, field: field, reason: reason)
        }
        guard let pointID = resource.related("subscriptionPricePoint") else {
            throw fail("\(place).relationships.subscriptionPricePoint", "missing; an offer's price names its price point")
        }
        guard pointID.type == "subscriptionPricePoints" else {
            throw fail(
                "\(place).relationships.subscriptionPricePoint.data.type",
                "'\(pointID.type.escapedForMessage)' where the API writes subscriptionPricePoints")
        }
        guard let point = points[pointID.type + "/" + pointID.id] else { return nil }
        guard let amount = point.amount else { throw fail("\(point.field).attributes.customerPrice", "missing") }
        if amount.hasPrefix("-") {
            throw fail("\(point.field).attributes.customerPrice", "'\(amount.escapedForMessage)' is below 0; a price is 0 or more")
        }
        try checkRelationships(resource, point: point, place: place, source: source)
        guard let territory = resource.related("territory")?.id ?? point.territory else {
            throw fail("\(place).relationships.territory", "missing; neither the price nor its price point names a territory")
        }
        try checkTerritory(territory, source: source, field: "\(place).relationships.territory")
        return (territory, amount, "\(point.field).attributes.customerPrice")
    }

    /// Refuses a price whose territory relationship names another type of resource, or whose
    /// price point is for another territory than the price: either would put a price in the
    /// wrong storefront.
    private func checkRelationships(
        _ resource: JSONAPIDocument.Resource, point: (amount: String?, territory: String?, field: String), place: String,
        source: String
    ) throws(StorePriceError) {
        guard let territory = resource.related("territory") else { return }
        guard territory.type == "territories" else {
            throw .invalidCatalog(
                source: source, line: nil, field: "\(place).relationships.territory.data.type",
                reason: "'\(territory.type.escapedForMessage)' where the API writes territories")
        }
        if let pointTerritory = point.territory, pointTerritory != territory.id {
            throw .invalidCatalog(
                source: source, line: nil, field: "\(point.field).relationships.territory",
                reason: "the price point is for \(pointTerritory.escapedForMessage), its price for \(territory.id.escapedForMessage) "
                    + "(\(place)); a price point is one territory's")
        }
    }

    /// Refuses a territory not written as the API writes them, its alpha-3 code.
    private mutating func checkTerritory(_ territory: String, source: String, field: String) throws(StorePriceError) {
        let storefront = try storefronts.storefront(territory, source: source, line: nil, field: field)
        guard storefront.countryCode == territory else {
            throw .invalidCatalog(
                source: source, line: nil, field: field,
                reason: "'\(territory.escapedForMessage)' is not a territory ID as the API writes them; it writes \(storefront.countryCode)")
        }
    }

    /// Records a subscription's offer: its terms, its dates, and for an introductory offer its
    /// territory and, when paid, its price point's amount.
    private mutating func offer(
        _ resource: JSONAPIDocument.Resource, kind: CatalogOffer.Kind, owner: Owner, place: String, source: String,
        points: [String: (amount: String?, territory: String?, field: String)]
    ) throws(StorePriceError) {
        func fail(_ field: String, _ reason: String) -> StorePriceError {
            .invalidCatalog(source: source, line: nil, field: field, reason: reason)
        }
        let attributes = resource.attributes
        guard let duration = attributes?.duration else { throw fail("\(place).attributes.duration", "missing; such as ONE_WEEK") }
        guard Self.offerDurations[duration] != nil else {
            throw fail(
                "\(place).attributes.duration",
                "'\(duration.escapedForMessage)' is no offer duration the API writes; it writes "
                    + Self.offerDurations.keys.sorted().joined(separator: ", "))
        }
        guard let mode = attributes?.offerMode else { throw fail("\(place).attributes.offerMode", "missing; such as FREE_TRIAL") }
        guard Self.offerModes[mode] != nil else {
            throw fail(
                "\(place).attributes.offerMode",
                "'\(mode.escapedForMessage)' is no offer mode the API writes; it writes FREE_TRIAL, PAY_AS_YOU_GO, PAY_UP_FRONT")
        }
        let countKey = kind == .winBack ? "periodCount" : "numberOfPeriods"
        let count = (kind == .winBack ? attributes?.periodCount : attributes?.numberOfPeriods) ?? 1
        guard count >= 1 else { throw fail("\(place).attributes.\(countKey)", "\(count); an offer lasts 1 period or more") }
        for (name, value) in [("startDate", attributes?.startDate), ("endDate", attributes?.endDate)] {
            if let value, !CivilTime.isDay(value) {
                throw fail("\(place).attributes.\(name)", "'\(value.escapedForMessage)' is not a day written YYYY-MM-DD, as the API writes them")
            }
        }
        if let start = attributes?.startDate, let end = attributes?.endDate, end <= start {
            throw fail("\(place).attributes.endDate", "\(end) is not after the startDate, \(start)")
        }
        var record = OfferRecord(
            kind: kind, resource: resource.type + "/" + resource.id,
            id: attributes?.offerCode ?? attributes?.offerId ?? (kind == .offerCode ? attributes?.referenceName ?? attributes?.name : nil),
            duration: duration, mode: mode, count: count, start: attributes?.startDate, end: attributes?.endDate,
            active: attributes?.active, territory: nil, amount: nil, source: source, field: place)
        if kind == .introductory {
            // One resource a territory; a paid one names its price point.
            guard let territory = resource.related("territory")?.id else {
                throw fail("\(place).relationships.territory", "missing; an introductory offer is for one territory")
            }
            try checkTerritory(territory, source: source, field: "\(place).relationships.territory")
            record.territory = territory
            if mode != "FREE_TRIAL" {
                guard let (_, amount, field) = try offerPrice(resource, place: place, source: source, points: points) else {
                    throw fail(
                        "\(place).relationships.subscriptionPricePoint",
                        "its price point is not in the response; request the offers with include=territory,subscriptionPricePoint")
                }
                record.amount = amount
                record.field = field
            }
        }
        offers[owner, default: []].append(record)
    }

    /// App Store Connect's offer durations, as periods.
    private static let offerDurations: [String: String] = [
        "THREE_DAYS": "P3D", "ONE_WEEK": "P1W", "TWO_WEEKS": "P2W", "ONE_MONTH": "P1M", "TWO_MONTHS": "P2M",
        "THREE_MONTHS": "P3M", "SIX_MONTHS": "P6M", "ONE_YEAR": "P1Y",
    ]
    /// App Store Connect's offer modes, as the payment modes catalogs write.
    private static let offerModes: [String: String] = ["FREE_TRIAL": "free", "PAY_AS_YOU_GO": "payAsYouGo", "PAY_UP_FRONT": "payUpFront"]

    /// Records a product of a list.
    private mutating func list(_ resource: JSONAPIDocument.Resource, kind: Kind, place: String, source: String)
        throws(StorePriceError)
    {
        let key = kind == .app ? "bundleId" : "productId"
        guard let productID = kind == .app ? resource.attributes?.bundleId : resource.attributes?.productId else {
            throw .invalidCatalog(source: source, line: nil, field: "\(place).attributes.\(key)", reason: "missing")
        }
        let owner = Owner(kind: kind, appleID: resource.id)
        if let listed = listings[owner] {
            guard listed.productID == productID else {
                throw .invalidCatalog(
                    source: source, line: nil, field: "\(place).attributes.\(key)",
                    reason: "\(kind.rawValue) \(resource.id.escapedForMessage) is '\(productID.escapedForMessage)' here but "
                        + "'\(listed.productID.escapedForMessage)' in '\(listed.source.escapedPathForMessage)', \(listed.field)")
            }
            return
        }
        listings[owner] = Listing(
            productID: productID, period: resource.attributes?.subscriptionPeriod, source: source,
            field: "\(place).attributes.\(key)")
        listingOrder.append(owner)
    }

    /// The products, each with its prices in effect on `day`, and the notes.
    func products(rule: ProductIDRule) throws(StorePriceError) -> (products: [Product], notes: [String]) {
        var notes = self.notes
        let listed = Set(selfLinks)
        for (link, source) in nextLinks where !listed.contains(link) {
            notes.append(
                "'\(source.escapedPathForMessage)' has a next page (links.next) that no file gives; the products and "
                    + "prices on it are missing")
        }
        var owners = listingOrder
        for owner in pricedOrder where listings[owner] == nil {
            guard owner.kind == .app else {
                let record = prices[owner]?.first
                throw .invalidCatalog(
                    source: record?.source ?? "", line: nil, field: "links.self",
                    reason: "prices of \(owner.kind.rawValue) \(owner.appleID.escapedForMessage), which no response lists; "
                        + "add the list that gives its product ID (\(owner.kind == .subscription ? "GET /v1/subscriptionGroups/{id}/subscriptions" : "GET /v1/apps/{id}/inAppPurchasesV2"))")
            }
            notes.append(
                "app \(owner.appleID.escapedForMessage) is named by its Apple ID: no response gives its bundle ID "
                    + "(GET /v1/apps/\(owner.appleID.escapedForMessage))")
            owners.append(owner)
        }
        var storefronts = storefronts
        var products: [Product] = []
        var named: [String: Listing] = [:]
        var later: (count: Int, first: (product: String, territory: String, day: String)?) = (0, nil)
        var staleCurrencies: [String: (given: String, now: String)] = [:]
        for owner in owners {
            let listing = listings[owner]
            let productID = listing?.productID ?? owner.appleID
            guard let records = prices[owner] else {
                notes.append(
                    "\(productID.escapedForMessage) (\(owner.kind.rawValue) \(owner.appleID.escapedForMessage)): no price in "
                        + "the responses; left out")
                continue
            }
            if let listing, let problem = rule.problem(with: productID) {
                throw .invalidCatalog(source: listing.source, line: nil, field: listing.field, reason: problem)
            }
            if let listing {
                if let first = named.updateValue(listing, forKey: productID) {
                    throw .invalidCatalog(
                        source: listing.source, line: nil, field: listing.field,
                        reason: "product '\(productID.escapedForMessage)' again; '\(first.source.escapedPathForMessage)', "
                            + "\(first.field), has it")
                }
            }
            var byTerritory: [String: [PriceRecord]] = [:]
            var territoryOrder: [String] = []
            for record in records {
                if byTerritory[record.territory] == nil { territoryOrder.append(record.territory) }
                byTerritory[record.territory, default: []].append(record)
                if let start = record.start, start > day {
                    later.count += 1
                    if later.first.map({ start < $0.day }) ?? true { later.first = (productID, record.territory, start) }
                }
            }
            var made: [Int: Price] = [:]
            var origins: [Int: ProductOrigin.PriceSource] = [:]
            var origin = ""
            for territory in territoryOrder {
                guard let record = try inEffect(byTerritory[territory] ?? []) else { continue }
                let storefront = try storefronts.storefront(
                    territory, source: record.source, line: nil, field: record.field)
                if let known = currencies[territory], known.currency != storefront.currency.code {
                    // A price in a currency the storefront no longer sells in is never shown in the new one.
                    staleCurrencies[territory] = (known.currency, storefront.currency.code)
                    continue
                }
                do {
                    made[storefront.numericID] = try Price(record.amount, currency: storefront.currency)
                } catch {
                    throw .invalidCatalog(source: record.source, line: nil, field: record.field, reason: error.description)
                }
                origins[storefront.numericID] = .init(line: nil, field: record.field, written: record.amount)
                origin = record.source
            }
            if owner.kind == .app, !made.isEmpty, made.values.allSatisfy({ $0.amount == "0" }) {
                notes.append("\(productID.escapedForMessage) (app \(owner.appleID.escapedForMessage)) is free; left out")
                continue
            }
            var subscription: SubscriptionTerms?
            if owner.kind == .subscription, let listing {
                guard let text = listing.period, let period = Self.periods[text] else {
                    let field = String(listing.field.dropLast("productId".count)) + "subscriptionPeriod"
                    throw .invalidCatalog(
                        source: listing.source, line: nil, field: field,
                        reason: listing.period.map { "'\($0.escapedForMessage)' is no subscription period the API writes" }
                            ?? "missing; a subscription has a period")
                }
                subscription = try terms(period: period, owner: owner, productID: productID, storefronts: &storefronts, notes: &notes)
            }
            var names: [String: String] = [:]
            var descriptions: [String: String] = [:]
            var tags = LanguageTagSet()
            for title in titles[owner] ?? [] {
                if let reason = tags.insert(title.locale) {
                    throw .invalidCatalog(source: title.source, line: nil, field: title.field, reason: reason)
                }
                if let name = title.name { names[title.locale] = name }
                if let description = title.description { descriptions[title.locale] = description }
            }
            products.append(
                Product(
                    checkedID: productID, prices: made, titles: names, descriptions: descriptions, subscription: subscription,
                    origin: ProductOrigin(source: origin, prices: origins), defaultTitleLanguage: nil))
        }
        for (territory, currency) in staleCurrencies.sorted(by: { $0.key < $1.key }) {
            notes.append(
                "\(territory.escapedForMessage): the responses give prices in \(currency.given.escapedForMessage), but the "
                    + "storefront sells in \(currency.now.escapedForMessage) now; its prices are left out (fetch them again)")
        }
        if let first = later.first {
            notes.append(
                "\(later.count) price\(later.count == 1 ? "" : "s") start\(later.count == 1 ? "s" : "") after \(day) and "
                    + "\(later.count == 1 ? "is" : "are") not shown (the first: \(first.product.escapedForMessage) in "
                    + "\(first.territory.escapedForMessage) from \(first.day)); a later date shows them")
        }
        return (products, notes)
    }

    /// A subscription's period and its offers in effect on `day`: introductory offers joined
    /// across territories (one catalog offer for each set of terms, priced or offered in each
    /// territory that has it), promotional offers, offer codes that can be redeemed, and win-back
    /// offers, each with its prices.
    private func terms(
        period: SubscriptionPeriod, owner: Owner, productID: String, storefronts: inout StorefrontCodes, notes: inout [String]
    ) throws(StorePriceError) -> SubscriptionTerms {
        func inEffect(_ record: OfferRecord) -> Bool {
            (record.start.map { $0 <= day } ?? true) && (record.end.map { day < $0 } ?? true)
        }
        func price(_ amount: String, territory: String, source: String, field: String) throws(StorePriceError) -> (Int, Price)? {
            let storefront = try storefronts.storefront(territory, source: source, line: nil, field: field)
            // A price in a currency the storefront no longer sells in is never shown in the new one.
            if let known = currencies[territory], known.currency != storefront.currency.code { return nil }
            do {
                return (storefront.numericID, try Price(amount, currency: storefront.currency))
            } catch {
                throw .invalidCatalog(source: source, line: nil, field: field, reason: error.description)
            }
        }
        func offer(
            _ record: OfferRecord, prices: [Int: Price], storefronts: Set<Int>?
        ) throws(StorePriceError) -> CatalogOffer {
            do {
                return try CatalogOffer(
                    kind: record.kind, id: record.id, billingPlan: nil, paymentMode: Self.offerModes[record.mode] ?? record.mode,
                    period: SubscriptionPeriod(Self.offerDurations[record.duration] ?? record.duration), periodCount: record.count,
                    prices: prices, paidWithoutPrice: true, origin: nil, storefronts: record.mode == "FREE_TRIAL" ? storefronts : nil)
            } catch {
                throw .invalidCatalog(source: record.source, line: nil, field: record.field, reason: error.description)
            }
        }
        let records = offers[owner] ?? []
        // Introductory offers: the one in effect in each territory (the latest to start), then
        // one catalog offer for each set of terms.
        var byTerritory: [String: OfferRecord] = [:]
        for record in records where record.kind == .introductory && inEffect(record) {
            guard let territory = record.territory else { continue }
            if let other = byTerritory[territory] {
                guard (other.start ?? "") != (record.start ?? "") else {
                    throw .invalidCatalog(
                        source: record.source, line: nil, field: record.field,
                        reason: "two introductory offers are in effect in \(territory.escapedForMessage) on \(day); "
                            + "'\(other.source.escapedPathForMessage)', \(other.field), is the other")
                }
                if (other.start ?? "") > (record.start ?? "") { continue }
            }
            byTerritory[territory] = record
        }
        var introductory: [(terms: String, record: OfferRecord, prices: [Int: Price], storefronts: Set<Int>)] = []
        for record in records where record.kind == .introductory {
            guard let territory = record.territory, byTerritory[territory]?.resource == record.resource else { continue }
            let terms = "\(record.mode) \(record.duration) \(record.count)"
            let index = introductory.firstIndex { $0.terms == terms } ?? {
                introductory.append((terms, record, [:], []))
                return introductory.count - 1
            }()
            if let amount = record.amount {
                guard let (id, made) = try price(amount, territory: territory, source: record.source, field: record.field) else { continue }
                introductory[index].prices[id] = made
            } else {
                let storefront = try storefronts.storefront(territory, source: record.source, line: nil, field: record.field)
                introductory[index].storefronts.insert(storefront.numericID)
            }
        }
        var kinds: [CatalogOffer.Kind: [CatalogOffer]] = [:]
        for entry in introductory {
            kinds[.introductory, default: []].append(try offer(entry.record, prices: entry.prices, storefronts: entry.storefronts))
        }
        // The others: each its own offer, with the prices its own responses give.
        for record in records where record.kind != .introductory {
            let name = record.id.map { "'\($0.escapedForMessage)'" } ?? record.resource
            guard inEffect(record) else { continue }
            if record.active == false {
                notes.append("\(productID.escapedForMessage): the offer code \(name) cannot be redeemed (not active); left out")
                continue
            }
            guard let given = offerPrices[record.resource] else {
                notes.append(
                    "\(productID.escapedForMessage): no prices of the \(Self.offerNames[record.kind] ?? "offer") \(name) in the "
                        + "responses; left out (GET /v1/\(record.resource.split(separator: "/").joined(separator: "/"))/prices)")
                continue
            }
            var prices: [Int: Price] = [:]
            var offered: Set<Int> = []
            for entry in given {
                guard let (id, made) = try price(entry.amount, territory: entry.territory, source: entry.source, field: entry.field) else {
                    continue
                }
                prices[id] = made
                offered.insert(id)
            }
            kinds[record.kind, default: []].append(try offer(record, prices: record.mode == "FREE_TRIAL" ? [:] : prices, storefronts: offered))
        }
        return SubscriptionTerms(
            period: period, introductoryOffers: kinds[.introductory] ?? [], promotionalOffers: kinds[.promotional] ?? [],
            offerCodes: kinds[.offerCode] ?? [], winBackOffers: kinds[.winBack] ?? [])
    }

    private static let offerNames: [CatalogOffer.Kind: String] = [
        .promotional: "promotional offer", .offerCode: "offer code", .winBack: "win-back offer",
    ]

    /// The price in effect on `day` of one product's prices in one territory, or nil when none is.
    private func inEffect(_ records: [PriceRecord]) throws(StorePriceError) -> PriceRecord? {
        let current = records.filter { ($0.start.map { $0 <= day } ?? true) && ($0.end.map { day < $0 } ?? true) }
        // The latest to start; a manual price before an automatic one of the same day.
        func before(_ a: PriceRecord, _ b: PriceRecord) -> Bool {
            let (startA, startB) = (a.start ?? "", b.start ?? "")
            return startA != startB ? startA < startB : !a.manual && b.manual
        }
        guard let best = current.max(by: before) else { return nil }
        if let rival = current.first(where: { !before($0, best) && !before(best, $0) && $0.amount != best.amount }) {
            throw .invalidCatalog(
                source: rival.source, line: nil, field: rival.field,
                reason: "\(rival.amount.escapedForMessage) and \(best.amount.escapedForMessage) ('\(best.source.escapedPathForMessage)', "
                    + "\(best.field)) are both in effect in \(best.territory.escapedForMessage) on \(day)")
        }
        return best
    }

    /// App Store Connect's subscription periods.
    private static let periods: [String: SubscriptionPeriod] = {
        var periods: [String: SubscriptionPeriod] = [:]
        for (name, text) in [
            ("ONE_WEEK", "P1W"), ("ONE_MONTH", "P1M"), ("TWO_MONTHS", "P2M"), ("THREE_MONTHS", "P3M"),
            ("SIX_MONTHS", "P6M"), ("ONE_YEAR", "P1Y"),
        ] {
            periods[name] = try? SubscriptionPeriod(text)
        }
        return periods
    }()

    /// The ID after one of `segments` in a URL's path: `6444653105` in
    /// `…/v1/inAppPurchasePriceSchedules/6444653105/automaticPrices?…`.
    static func ownerID(in link: String, segments: Set<String>) -> String? {
        let path = link.prefix { $0 != "?" && $0 != "#" }
        // The host is no segment: `https:`, the host and the path's parts, split on `/`.
        let parts = path.split(separator: "/").dropFirst(path.contains("://") ? 2 : 0)
        for index in parts.indices where segments.contains(String(parts[index])) && index + 1 < parts.endIndex {
            return String(parts[index + 1])
        }
        return nil
    }

    private static func article(_ kind: Kind) -> String {
        kind == .inAppPurchase || kind == .app ? "an" : "a"
    }
}
