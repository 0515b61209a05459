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

    private var listings: [Owner: Listing] = [:]
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
    /// The path segments of a `links.self` that name the product, by kind.
    private static let ownerSegments: [Kind: Set<String>] = [
        .inAppPurchase: ["inAppPurchasePriceSchedules", "inAppPurchases"],
        .subscription: ["subscriptions"],
        .app: ["appPriceSchedules", "apps"],
    ]

    /// Reads one response.
    mutating func read(_ bytes: [UInt8], source: String) throws(StorePriceError) {
        func fail(_ field: String?, _ reason: String) -> StorePriceError {
            .invalidCatalog(source: source, line: nil, field: field, reason: reason)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if let problem = JSONText.unpairedSurrogateProblem(in: text) { throw fail(nil, problem) }
        let document: JSONAPIDocument
        do {
            document = try JSONDecoder().decode(JSONAPIDocument.self, from: Data(bytes))
        } catch {
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
                || Self.pointTypes.contains(type) || Self.otherTypes.contains(type)
            else {
                throw fail(
                    "\(place).type",
                    "'\(type.escapedForMessage)' is no resource StorePrice reads; it reads in-app purchases, subscriptions, "
                        + "apps, their prices, price points, territories and localizations")
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
                guard let territory = resource.related("territory")?.id ?? point.territory else {
                    throw fail(
                        "\(place).relationships.territory",
                        "missing; neither the price nor its price point names a territory")
                }
                let storefront = try storefronts.storefront(territory, source: source, line: nil, field: "\(place).relationships.territory")
                guard storefront.countryCode == territory else {
                    throw fail(
                        "\(place).relationships.territory",
                        "'\(territory.escapedForMessage)' is not a territory ID as the API writes them; it writes \(storefront.countryCode)")
                }
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
            } else if let kind = Self.localizationTypes[resource.type] {
                let owner = try owner(kind, at: place)
                guard let locale = resource.attributes?.locale else { throw fail("\(place).attributes.locale", "missing") }
                titles[owner, default: []].append(
                    (locale, resource.attributes?.name, resource.attributes?.description, source, "\(place).attributes.locale"))
            }
        }
    }

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
            var subscription: SubscriptionTerms?
            if owner.kind == .subscription, let listing {
                guard let text = listing.period, let period = Self.periods[text] else {
                    let field = String(listing.field.dropLast("productId".count)) + "subscriptionPeriod"
                    throw .invalidCatalog(
                        source: listing.source, line: nil, field: field,
                        reason: listing.period.map { "'\($0.escapedForMessage)' is no subscription period the API writes" }
                            ?? "missing; a subscription has a period")
                }
                subscription = SubscriptionTerms(period: period)
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
