#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads Play documents and Play Console CSV files into products: every file first (an offer
/// needs its base plan's prices), then the products in file order. See ``PlayCatalog``.
struct PlayCatalogReader {
    let rule: ProductIDRule
    private var entries: [Entry] = []
    /// Offers by `productId:basePlanId`, in file order.
    private var offers: [String: [(offer: PlayDocument.Offer, place: Place)]] = [:]
    private var offerPlaces: [String: Place] = [:]
    private var notes: [String] = []
    /// Products with Play's dollar and euro prices for other regions, which are never shown.
    private var otherRegionPrices: [String] = []

    /// Where a resource was read: the file and its JSON path (`subscriptions[2]`) or CSV line.
    struct Place {
        var source: String
        var field: String
        var line: Int? = nil

        func fail(_ field: String?, _ reason: String) -> StorePriceError {
            let path = field.map { self.field.isEmpty || $0.hasPrefix("[") ? self.field + $0 : "\(self.field).\($0)" }
                ?? (self.field.isEmpty ? nil : self.field)
            return .invalidCatalog(source: source, line: line, field: path, reason: reason)
        }

        /// `'file', subscriptions[2]` or `'file', line 3`, for a message about another place.
        var named: String {
            "'\(source.escapedPathForMessage)'" + (field.isEmpty ? "" : ", \(field)") + (line.map { ", line \($0)" } ?? "")
        }
    }

    private enum Entry {
        case oneTime(PlayDocument.OneTimeProduct, Place)
        case subscription(PlayDocument.Subscription, Place)
        case legacy(PlayDocument.InAppProduct, Place)
        case consoleRow(PlayConsoleCSV.Row, Place)
    }

    init(rule: ProductIDRule) {
        self.rule = rule
    }

    // MARK: Reading files

    /// Reads a file: a Play Console CSV when its name ends in `.csv`, else a JSON document.
    mutating func read(_ bytes: [UInt8], source: String) throws(StorePriceError) {
        if source.lowercased().hasSuffix(".csv") {
            try readConsoleCSV(bytes, source: source)
        } else {
            try readJSON(bytes, source: source)
        }
    }

    mutating func readJSON(_ bytes: [UInt8], source: String) throws(StorePriceError) {
        let file = Place(source: source, field: "")
        if let problem = JSONText.problem(in: bytes) { throw file.fail(nil, problem) }
        guard bytes.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw file.fail(nil, "empty; a Play Developer API document is a JSON object")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw file.fail(nil, "not UTF-8 text; the Play Developer API writes JSON in UTF-8")
        }
        let decoder = JSONDecoder()
        func decode<T: Decodable>(_ type: T.Type) throws(StorePriceError) -> T {
            do {
                return try decoder.decode(type, from: Data(bytes))
            } catch {
                throw file.fail(nil, "not a Play Developer API document (\(describe(error)))")
            }
        }
        // Every field is optional: any JSON object decodes, and what is no object is named.
        let document = try decode(PlayDocument.File.self)
        let (repeated, keys) = JSONDuplicateKeys.scan(text)
        if let repeated { throw file.fail(repeated, JSONDuplicateKeys.reason) }
        let keySet = Set(keys)
        func place(_ list: String, _ index: Int) -> Place { Place(source: source, field: "\(list)[\(index)]") }
        let single = Place(source: source, field: "")
        if !keySet.isDisjoint(with: ["oneTimeProducts", "subscriptions", "subscriptionOffers", "inappproduct"]) {
            for (index, product) in (document.oneTimeProducts ?? []).enumerated() {
                entries.append(.oneTime(product, place("oneTimeProducts", index)))
            }
            for (index, subscription) in (document.subscriptions ?? []).enumerated() {
                entries.append(.subscription(subscription, place("subscriptions", index)))
            }
            for (index, offer) in (document.subscriptionOffers ?? []).enumerated() {
                try add(offer, at: place("subscriptionOffers", index))
            }
            for (index, product) in (document.inappproduct ?? []).enumerated() {
                entries.append(.legacy(product, place("inappproduct", index)))
            }
            if let token = document.nextPageToken ?? document.tokenPagination?.nextPageToken, !token.isEmpty {
                notes.append(
                    "'\(source.escapedPathForMessage)' is one page of a longer list (nextPageToken); "
                        + "what later pages hold is read only from their own files")
            }
        } else if keySet.contains("purchaseOptions") {
            entries.append(.oneTime(try decode(PlayDocument.OneTimeProduct.self), single))
        } else if keySet.contains("basePlans") {
            entries.append(.subscription(try decode(PlayDocument.Subscription.self), single))
        } else if keySet.contains("phases") {
            try add(try decode(PlayDocument.Offer.self), at: single)
        } else if keySet.contains("sku") {
            entries.append(.legacy(try decode(PlayDocument.InAppProduct.self), single))
        } else if keySet.isSubset(of: ["kind", "nextPageToken", "tokenPagination", "pageInfo"]),
            text.utf8.contains(where: { $0 == UInt8(ascii: "{") })
        {
            // `{}` (or the legacy list's `{"kind": …}`): the API's answer for an app with none of a kind.
            return
        } else {
            throw file.fail(
                nil,
                "not a Play Developer API document: expected a list (oneTimeProducts, subscriptions, subscriptionOffers "
                    + "or inappproduct) or one one-time product, subscription, offer or in-app product")
        }
    }

    mutating func readConsoleCSV(_ bytes: [UInt8], source: String) throws(StorePriceError) {
        let (rows, unpublished) = try PlayConsoleCSV.rows(bytes, source: source)
        var changed: Set<String> = []
        for (row, line) in rows {
            entries.append(.consoleRow(row, Place(source: source, field: "", line: line)))
            for (code, _) in row.prices where !((try? PlayRegion(code))?.changes.isEmpty ?? true) { changed.insert(code.uppercased()) }
        }
        if unpublished > 0 {
            notes.append(
                "'\(source.escapedPathForMessage)': \(unpublished) unpublished product\(unpublished == 1 ? "" : "s") left out; "
                    + "Play sells only published ones")
        }
        // The Console's CSV names no currency: a price is in the region's currency of the day of the export.
        for code in changed.sorted() {
            guard let region = try? PlayRegion(code), let change = region.changes.last else { continue }
            notes.append(
                "'\(source.escapedPathForMessage)': \(code)'s prices are read in \(region.currency.code), Play's currency there "
                    + "since \(change.date); a CSV exported before then writes them in \(change.from)")
        }
    }

    private mutating func add(_ offer: PlayDocument.Offer, at place: Place) throws(StorePriceError) {
        let productID = try required(offer.productId, "productId", place)
        let basePlanID = try required(offer.basePlanId, "basePlanId", place)
        let offerID = try required(offer.offerId, "offerId", place)
        if let problem = ProductIDRule.playOfferIDProblem(offerID) { throw place.fail("offerId", problem) }
        let key = "\(productID):\(basePlanID)/\(offerID)"
        if let first = offerPlaces.updateValue(place, forKey: key) {
            throw place.fail("offerId", "offer '\(offerID.escapedForMessage)' of \(productID.escapedForMessage):\(basePlanID.escapedForMessage) again; \(first.named) is it")
        }
        offers["\(productID):\(basePlanID)", default: []].append((offer, place))
    }

    // MARK: Products

    mutating func products() throws(StorePriceError) -> ([Product], [String]) {
        var products: [Product] = []
        var seen: [String: Place] = [:]
        func register(_ id: String, _ place: Place, field: String, basePlan: Bool = false) throws(StorePriceError) {
            if let problem = rule.problem(with: id) { throw place.fail(field, problem) }
            if !basePlan, rule != .any, id.contains(":") {
                throw place.fail(field, ProductIDRule.playProductIDProblem(id) ?? "")
            }
            if let first = seen.updateValue(place, forKey: id) {
                throw place.fail(field, "product '\(id.escapedForMessage)' again; \(first.named) has it")
            }
        }
        var usedOffers: Set<String> = []
        for entry in entries {
            switch entry {
            case .oneTime(let product, let place):
                let id = try required(product.productId, "productId", place)
                try register(id, place, field: "productId")
                if let made = try oneTimeProduct(product, id: id, place: place) { products.append(made) }
            case .subscription(let subscription, let place):
                let id = try required(subscription.productId, "productId", place)
                if rule != .any, let problem = ProductIDRule.playProductIDProblem(id) { throw place.fail("productId", problem) }
                let (titles, descriptions) = try texts(subscription.listings, place)
                var basePlanIDs: [String: Int] = [:]
                for (index, plan) in (subscription.basePlans ?? []).enumerated() {
                    let planPlace = Place(source: place.source, field: place.field.isEmpty ? "basePlans[\(index)]" : "\(place.field).basePlans[\(index)]")
                    let planID = try required(plan.basePlanId, "basePlanId", planPlace)
                    if let first = basePlanIDs.updateValue(index, forKey: planID) {
                        throw planPlace.fail("basePlanId", "base plan '\(planID.escapedForMessage)' again; basePlans[\(first)] is it")
                    }
                    let productID = "\(id):\(planID)"
                    try register(productID, planPlace, field: "basePlanId", basePlan: true)
                    usedOffers.insert(productID)
                    if let made = try basePlan(plan, id: productID, titles: titles, descriptions: descriptions, place: planPlace) {
                        products.append(made)
                    }
                }
                if (subscription.basePlans ?? []).isEmpty {
                    notes.append("\(id.escapedForMessage): no base plans; left out (\(place.named))")
                }
            case .legacy(let product, let place):
                let id = try required(product.sku, "sku", place)
                try register(id, place, field: "sku")
                if let made = try legacyProduct(product, id: id, place: place) { products.append(made) }
            case .consoleRow(let row, let place):
                try register(row.productID, place, field: "Product ID")
                if let made = try consoleProduct(row, place: place) { products.append(made) }
            }
        }
        if !otherRegionPrices.isEmpty {
            let shown = otherRegionPrices.prefix(3).map(\.escapedForMessage).joined(separator: ", ")
                + (otherRegionPrices.count > 3 ? " and \(otherRegionPrices.count - 3) more" : "")
            notes.append(
                "\(shown): Play's dollar and euro prices for regions without a price of their own (otherRegionsConfig, "
                    + "newRegionsConfig) are not shown; StorePrice shows only the regions' own prices")
        }
        for (key, list) in offers.sorted(by: { $0.key < $1.key }) where !usedOffers.contains(key) {
            notes.append(
                "the offers of \(key.escapedForMessage) (\(list[0].place.named)) have no base plan among the files; left out")
        }
        return (products, notes)
    }

    private mutating func oneTimeProduct(
        _ product: PlayDocument.OneTimeProduct, id: String, place: Place
    ) throws(StorePriceError) -> Product? {
        noteRegionsVersion(product.regionsVersion?.version, place)
        let options = product.purchaseOptions ?? []
        let buyable = options.indices.filter { options[$0].buyOption != nil && Self.isActive(options[$0].state) }
        guard let chosen = buyable.first(where: { options[$0].buyOption?.legacyCompatible == true }) ?? buyable.first else {
            notes.append("\(id.escapedForMessage): no active buy option; left out (\(place.named))")
            return nil
        }
        let others = options.indices.filter { $0 != chosen }.map { index in
            let option = options[index]
            let kind = option.rentOption != nil ? "a rent option" : option.buyOption != nil ? "a buy option" : "an option"
            let state = Self.isActive(option.state) ? "" : ", \(option.state ?? "")"
            return "'\((option.purchaseOptionId ?? "").escapedForMessage)' (\(kind)\(state.lowercased()))"
        }
        if !others.isEmpty {
            notes.append(
                "\(id.escapedForMessage): shown at the price of its buy option "
                    + "'\((options[chosen].purchaseOptionId ?? "").escapedForMessage)'; "
                    + "\(others.joined(separator: ", ")) left out")
        }
        let field = "purchaseOptions[\(chosen)].regionalPricingAndAvailabilityConfigs"
        let optionPlace = Place(source: place.source, field: place.field.isEmpty ? field : "\(place.field).\(field)")
        var prices: [Int: Price] = [:]
        var origins: [Int: ProductOrigin.PriceSource] = [:]
        var unavailable: [String] = []
        var regions: Set<Int> = []
        for (index, config) in (options[chosen].regionalPricingAndAvailabilityConfigs ?? []).enumerated() {
            let at = "[\(index)]"
            let region = try self.region(config.regionCode, field: "\(at).regionCode", optionPlace)
            guard regions.insert(region.numericID).inserted else {
                throw optionPlace.fail("\(at).regionCode", "\(region.code) again in one purchase option")
            }
            guard config.availability == nil || config.availability == "AVAILABLE" else {
                unavailable.append(region.code)
                continue
            }
            let (price, written) = try money(config.price, in: region, field: "\(at).price", optionPlace)
            prices[region.numericID] = price
            origins[region.numericID] = .init(line: nil, field: "\(optionPlace.field)\(at).price", written: written)
        }
        if !unavailable.isEmpty {
            notes.append("\(id.escapedForMessage): not available to buyers in \(unavailable.joined(separator: ", ")); left out there")
        }
        if options[chosen].newRegionsConfig != nil { otherRegionPrices.append(id) }
        let (titles, descriptions) = try texts(product.listings, place)
        return Product(
            checkedID: id, prices: prices, titles: titles, descriptions: descriptions,
            origin: ProductOrigin(source: place.source, prices: origins))
    }

    private mutating func basePlan(
        _ plan: PlayDocument.BasePlan, id: String, titles: [String: String], descriptions: [String: String], place: Place
    ) throws(StorePriceError) -> Product? {
        guard Self.isActive(plan.state) else {
            notes.append("\(id.escapedForMessage): the base plan is \((plan.state ?? "").lowercased()), not active; left out")
            return nil
        }
        let types: [(String, PlayDocument.BasePlan.Period?)] = [
            ("autoRenewingBasePlanType", plan.autoRenewingBasePlanType), ("prepaidBasePlanType", plan.prepaidBasePlanType),
            ("installmentsBasePlanType", plan.installmentsBasePlanType),
        ]
        guard let (typeField, type) = types.first(where: { $0.1 != nil }), let type else {
            throw place.fail(nil, "a base plan has autoRenewingBasePlanType, prepaidBasePlanType or installmentsBasePlanType")
        }
        let periodText = try required(type.billingPeriodDuration, "\(typeField).billingPeriodDuration", place)
        let period: SubscriptionPeriod
        do {
            period = try SubscriptionPeriod(periodText)
        } catch {
            throw place.fail("\(typeField).billingPeriodDuration", error.description)
        }
        var prices: [Int: Price] = [:]
        var nanos: [Int: Int64] = [:]
        var origins: [Int: ProductOrigin.PriceSource] = [:]
        var closed: [String] = []
        for (index, config) in (plan.regionalConfigs ?? []).enumerated() {
            let at = "regionalConfigs[\(index)]"
            let region = try self.region(config.regionCode, field: "\(at).regionCode", place)
            guard origins[region.numericID] == nil else {
                throw place.fail("\(at).regionCode", "\(region.code) again in one base plan")
            }
            let (price, written) = try money(config.price, in: region, field: "\(at).price", place)
            origins[region.numericID] = .init(line: nil, field: "\(place.field).\(at).price", written: written)
            guard config.newSubscriberAvailability != false else {
                closed.append(region.code)
                continue
            }
            prices[region.numericID] = price
            nanos[region.numericID] = Self.nanos(config.price)
        }
        if !closed.isEmpty {
            notes.append("\(id.escapedForMessage): closed to new subscribers in \(closed.joined(separator: ", ")); left out there")
        }
        if plan.otherRegionsConfig != nil { otherRegionPrices.append(id) }
        let terms = try offerTerms(for: id, period: period, basePrices: nanos)
        return Product(
            checkedID: id, prices: prices, titles: titles, descriptions: descriptions,
            subscription: SubscriptionTerms(
                period: period, introductoryOffers: terms.filter { $0.kind == .introductory },
                promotionalOffers: terms.filter { $0.kind == .promotional }),
            origin: ProductOrigin(source: place.source, prices: origins))
    }

    /// The offers of a base plan: each active offer's first phase, priced where the phase says.
    private mutating func offerTerms(
        for productID: String, period: SubscriptionPeriod, basePrices: [Int: Int64]
    ) throws(StorePriceError) -> [CatalogOffer] {
        var made: [CatalogOffer] = []
        for (offer, place) in offers[productID] ?? [] {
            let offerID = offer.offerId ?? ""
            let name = "\(productID.escapedForMessage) offer '\(offerID.escapedForMessage)'"
            guard Self.isActive(offer.state) else {
                notes.append("\(name) is \((offer.state ?? "").lowercased()), not active; left out")
                continue
            }
            guard let phases = offer.phases, let phase = phases.first else {
                throw place.fail("phases", "an offer has at least one phase")
            }
            if phases.count > 1 {
                notes.append(
                    "\(name) has \(phases.count) phases; StorePrice shows the first (\(phase.duration ?? "")), "
                        + "then the base plan's price")
            }
            let durationText = try required(phase.duration, "phases[0].duration", place)
            let duration: SubscriptionPeriod
            do {
                duration = try SubscriptionPeriod(durationText)
            } catch {
                throw place.fail("phases[0].duration", error.description)
            }
            let count = phase.recurrenceCount ?? 1
            guard count >= 1 else {
                throw place.fail("phases[0].recurrenceCount", "\(count); a phase recurs 1 or more times")
            }
            // Regions where new subscribers may take the offer, when the offer says.
            var open: Set<Int>?
            if let configs = offer.regionalConfigs {
                var regions: Set<Int> = []
                for (index, config) in configs.enumerated() where config.newSubscriberAvailability != false {
                    regions.insert(try region(config.regionCode, field: "regionalConfigs[\(index)].regionCode", place).numericID)
                }
                open = regions
            }
            var free: Set<Int> = []
            var prices: [Int: Price] = [:]
            var seenRegions: Set<Int> = []
            for (index, config) in (phase.regionalConfigs ?? []).enumerated() {
                let at = "phases[0].regionalConfigs[\(index)]"
                let region = try self.region(config.regionCode, field: "\(at).regionCode", place)
                guard seenRegions.insert(region.numericID).inserted else {
                    throw place.fail("\(at).regionCode", "\(region.code) again in one phase")
                }
                guard open?.contains(region.numericID) ?? true else { continue }
                let given = [config.free != nil, config.price != nil, config.absoluteDiscount != nil, config.relativeDiscount != nil]
                guard given.filter({ $0 }).count == 1 else {
                    throw place.fail(at, "a phase's region has one of free, price, absoluteDiscount and relativeDiscount")
                }
                if config.free != nil {
                    free.insert(region.numericID)
                    continue
                }
                if config.price != nil {
                    prices[region.numericID] = try money(config.price, in: region, field: "\(at).price", place).price
                    continue
                }
                // Where the base plan is closed to new subscribers, so is its offer.
                guard let base = basePrices[region.numericID] else { continue }
                guard let ratio = Self.proration(of: duration, over: period) else {
                    throw place.fail(
                        "phases[0].duration",
                        "a discount over \(duration) of a \(period) base plan; Play prorates the base plan's price over the phase, "
                            + "which StorePrice does in months or in days, not across them")
                }
                prices[region.numericID] = try discounted(
                    base, ratio: ratio, absolute: config.absoluteDiscount, relative: config.relativeDiscount, in: region,
                    field: at, place)
            }
            if !free.isEmpty, !prices.isEmpty {
                throw place.fail(
                    "phases[0].regionalConfigs", "a phase is free in some regions and paid in others; StorePrice reads a phase as one kind")
            }
            let mode = !free.isEmpty ? "freeTrial" : duration == period ? "payAsYouGo" : count == 1 ? "payUpFront" : "payAsYouGo"
            do {
                made.append(try CatalogOffer(
                    kind: offer.targeting?.acquisitionRule != nil ? .introductory : .promotional, id: offerID, billingPlan: nil,
                    paymentMode: mode, period: duration, periodCount: mode == "payUpFront" ? 1 : count, prices: prices,
                    paidWithoutPrice: true, origin: nil, storefronts: free.isEmpty ? nil : free))
            } catch {
                throw place.fail("phases[0]", error.description)
            }
        }
        return made
    }

    private mutating func legacyProduct(
        _ product: PlayDocument.InAppProduct, id: String, place: Place
    ) throws(StorePriceError) -> Product? {
        if let status = product.status, status.lowercased() != "active" {
            notes.append("\(id.escapedForMessage): status \(status.escapedForMessage), not active; left out")
            return nil
        }
        var prices: [Int: Price] = [:]
        var origins: [Int: ProductOrigin.PriceSource] = [:]
        for code in (product.prices ?? [:]).keys.sorted() {
            guard let given = product.prices?[code] else { continue }
            let field = "prices.\(code)"
            let region = try self.region(code, field: field, place)
            guard origins[region.numericID] == nil else {
                throw place.fail(field, "\(region.code) again in one product")
            }
            let micros = try required(given.priceMicros, "\(field).priceMicros", place)
            let currency = try required(given.currency, "\(field).currency", place)
            let price = try micro(micros, currency: currency, in: region, field: field, place)
            prices[region.numericID] = price
            origins[region.numericID] = .init(line: nil, field: "\(place.field.isEmpty ? "" : place.field + ".")\(field).priceMicros", written: micros)
        }
        var titles: [String: String] = [:]
        var descriptions: [String: String] = [:]
        var tags = LanguageTagSet()
        for language in (product.listings ?? [:]).keys.sorted() {
            let tag = Self.languageTag(language)
            if let reason = tags.insert(tag) { throw place.fail("listings.\(language)", reason) }
            titles[tag] = product.listings?[language]?.title
            descriptions[tag] = product.listings?[language]?.description
        }
        var subscription: SubscriptionTerms?
        if product.purchaseType == "subscription" {
            let text = try required(product.subscriptionPeriod, "subscriptionPeriod", place)
            let period: SubscriptionPeriod
            var trial: [CatalogOffer] = []
            do {
                period = try SubscriptionPeriod(text)
            } catch {
                throw place.fail("subscriptionPeriod", error.description)
            }
            if let trialText = product.trialPeriod, !trialText.isEmpty {
                do {
                    trial = [try CatalogOffer(paymentMode: "freeTrial", period: SubscriptionPeriod(trialText))]
                } catch {
                    throw place.fail("trialPeriod", error.description)
                }
            }
            subscription = SubscriptionTerms(period: period, introductoryOffers: trial)
        }
        return Product(
            checkedID: id, prices: prices, titles: titles, descriptions: descriptions, subscription: subscription,
            origin: ProductOrigin(source: place.source, prices: origins), defaultTitleLanguage: product.defaultLanguage)
    }

    private mutating func consoleProduct(_ row: PlayConsoleCSV.Row, place: Place) throws(StorePriceError) -> Product? {
        var prices: [Int: Price] = [:]
        var origins: [Int: ProductOrigin.PriceSource] = [:]
        for (code, micros) in row.prices {
            let region = try self.region(code, field: "Price", place)
            guard origins[region.numericID] == nil else { throw place.fail("Price", "\(region.code) again in one product") }
            prices[region.numericID] = try micro(micros, currency: region.currency.code, in: region, field: "Price", place)
            origins[region.numericID] = .init(line: place.line, field: "Price \(region.code)", written: micros)
        }
        if row.autoFill {
            notes.append(
                "\(row.productID.escapedForMessage) (line \(place.line ?? 0)): Auto Fill Prices is true, so Play converts its "
                    + "prices from the default price, and the file gives none of its own per region; left out")
            return nil
        }
        return Product(
            checkedID: row.productID, prices: prices, titles: row.titles, descriptions: row.descriptions,
            origin: ProductOrigin(source: place.source, prices: origins), defaultTitleLanguage: row.titleOrder.first)
    }

    // MARK: Fields

    private static func isActive(_ state: String?) -> Bool { state == nil || state == "ACTIVE" }

    /// A listing's language as a tag: `en_US` is `en-US`, and the codes Play still writes for
    /// languages ISO renamed (`iw-IL`, `no-NO`, `in-ID`) are today's (`he-IL`, `nb-NO`, `id-ID`),
    /// as ICU reads them, so that titles are found for the price locale.
    static func languageTag(_ code: String) -> String {
        let tag = String(code.map { $0 == "_" ? "-" : $0 })
        let parts = tag.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard let replaced = LocaleSubtags.replacedLanguages[parts[0].lowercased()] else { return tag }
        return parts.count == 2 ? replaced + "-" + parts[1] : replaced
    }

    /// The base plan's price prorated over one recurrence of a phase, as Play prorates it for a
    /// discount (`$12` a year over 3 months is `$3`): `phase / base`, in months or in days; nil
    /// across them (weeks of a monthly plan).
    static func proration(of phase: SubscriptionPeriod, over base: SubscriptionPeriod) -> (Int, Int)? {
        func months(_ period: SubscriptionPeriod) -> Int? {
            period.unit == .month ? period.value : period.unit == .year ? period.value * 12 : nil
        }
        func days(_ period: SubscriptionPeriod) -> Int? {
            period.unit == .day ? period.value : period.unit == .week ? period.value * 7 : nil
        }
        if let phaseMonths = months(phase), let baseMonths = months(base) { return (phaseMonths, baseMonths) }
        if let phaseDays = days(phase), let baseDays = days(base) { return (phaseDays, baseDays) }
        return nil
    }

    private func required(_ value: String?, _ field: String, _ place: Place) throws(StorePriceError) -> String {
        guard let value else { throw place.fail(field, "missing; the API always writes it") }
        return value
    }

    private func region(_ code: String?, field: String, _ place: Place) throws(StorePriceError) -> PlayRegion {
        let code = try required(code, field, place)
        do {
            return try PlayRegion(code)
        } catch {
            throw place.fail(field, error.description)
        }
    }

    private mutating func noteRegionsVersion(_ version: String?, _ place: Place) {
        guard let version, version != PlayRegion.regionsVersion else { return }
        let note = "'\(place.source.escapedPathForMessage)' was written at regionsVersion \(version.escapedForMessage); "
            + "StorePrice's regions and currencies are Play's at \(PlayRegion.regionsVersion)"
        if !notes.contains(note) { notes.append(note) }
    }

    /// A `Money` in its region's buyer currency, and its amount as written (`units.nanos`).
    private func money(
        _ money: PlayDocument.Money?, in region: PlayRegion, field: String, _ place: Place
    ) throws(StorePriceError) -> (price: Price, written: String) {
        guard let money else { throw place.fail(field, "missing; a price is a Money") }
        let currency = try required(money.currencyCode, "\(field).currencyCode", place)
        try checkCurrency(currency, of: region, field: "\(field).currencyCode", place)
        let price: Price
        do {
            price = try Price(units: money.units ?? "0", nanos: money.nanos ?? 0, currency: region.currency)
        } catch {
            throw place.fail(field, error.description)
        }
        guard price.amount.utf8.first != UInt8(ascii: "-"), price.amount != "0" else {
            throw place.fail(field, "\(price.amount) \(currency); Play prices are more than 0")
        }
        return (price, "units \(money.units ?? "0"), nanos \(money.nanos ?? 0)")
    }

    private func micro(
        _ micros: String, currency: String, in region: PlayRegion, field: String, _ place: Place
    ) throws(StorePriceError) -> Price {
        try checkCurrency(currency, of: region, field: field, place)
        let price: Price
        do {
            price = try Price(micros: micros, currency: region.currency)
        } catch {
            throw place.fail(field, error.description)
        }
        guard price.amount.utf8.first != UInt8(ascii: "-"), price.amount != "0" else {
            throw place.fail(field, "\(price.amount) \(currency); Play prices are more than 0")
        }
        return price
    }

    /// Refuses a price in another currency than the region's buyer currency, naming the change
    /// where the currency was the region's before one.
    private func checkCurrency(_ currency: String, of region: PlayRegion, field: String, _ place: Place) throws(StorePriceError) {
        guard currency != region.currency.code else { return }
        if let change = region.changes.last(where: { $0.from == currency }) {
            throw place.fail(
                field,
                "\(region.code) is priced in \(currency.escapedForMessage), its currency before \(change.date); "
                    + "Play bills \(region.code) in \(region.currency.code) (regionsVersion \(PlayRegion.regionsVersion)): "
                    + "migrate the prices to the new regions version in the Play Console")
        }
        throw place.fail(
            field,
            "\(region.code) is priced in \(currency.escapedForMessage); Play bills \(region.code) in \(region.currency.code) "
                + "(regionsVersion \(PlayRegion.regionsVersion)), and StorePrice never converts")
    }

    /// A `Money`'s amount in billionths, or nil when it is not one (checked where it is read).
    private static func nanos(_ money: PlayDocument.Money?) -> Int64? {
        guard let money, let units = Int64(money.units ?? "0") else { return nil }
        let (scaled, overflow) = units.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return nil }
        return scaled.addingReportingOverflow(Int64(money.nanos ?? 0)).overflow ? nil : scaled + Int64(money.nanos ?? 0)
    }

    /// A phase's price from a discount, as Google's reference defines it: the base plan's price
    /// prorated over the phase (`ratio`), less an absolute discount or times one less a relative
    /// discount ($12 a year, $1 off over 3 months, is $2; half off, $1.50). The result is carried
    /// to nanos, as `Money` is, rounded half-even; the Play style rounds it for display.
    private func discounted(
        _ base: Int64, ratio: (Int, Int), absolute: PlayDocument.Money?, relative: Decimal?, in region: PlayRegion,
        field: String, _ place: Place
    ) throws(StorePriceError) -> Price {
        // numerator / denominator, in nanos, exactly: all positive, in 128 bits.
        guard base > 0 else { throw place.fail(field, "the base plan's price is not more than 0") }
        var numerator = UInt64(base).multipliedFullWidth(by: UInt64(ratio.0))
        var denominator = UInt64(ratio.1)
        if let relative {
            let text = "\(relative)"
            guard case .success(let parsed) = DecimalText.parse(text), relative > 0, relative < 1 else {
                throw place.fail(
                    "\(field).relativeDiscount", "\(text.escapedForMessage) is no fraction between 0 and 1 (0.3 is 30% off)")
            }
            guard parsed.fractionDigits <= 9 else {
                throw place.fail(
                    "\(field).relativeDiscount", "\(text.escapedForMessage) has more than 9 decimal places; write it as Play shows it, such as 0.3")
            }
            var scale: UInt64 = 1
            for _ in 0..<parsed.fractionDigits { scale *= 10 }
            let off = UInt64(parsed.text.utf8.filter(\.isASCIIDigit).reduce(0) { $0 * 10 + Int($1 - 0x30) })
            let low = numerator.low.multipliedFullWidth(by: scale - off)
            let (high, overflow) = numerator.high.multipliedReportingOverflow(by: scale - off)
            let (sum, carry) = high.addingReportingOverflow(low.high)
            guard !overflow, !carry else { throw place.fail("\(field).relativeDiscount", "the discounted price has too many digits") }
            numerator = (sum, low.low)
            denominator *= scale
        }
        // The quotient fits 64 bits when the high half is below the divisor.
        guard numerator.high < denominator else { throw place.fail(field, "the discounted price has too many digits") }
        let (quotient, remainder) = denominator.dividingFullWidth(numerator)
        // Half-even, to whole nanos.
        var rounded = quotient
        if remainder > denominator - remainder || (remainder == denominator - remainder && quotient % 2 != 0) { rounded += 1 }
        guard rounded <= UInt64(Int64.max) else { throw place.fail(field, "the discounted price has too many digits") }
        var value = Int64(rounded)
        if let absolute {
            let discount = try money(absolute, in: region, field: "\(field).absoluteDiscount", place).price
            guard let discountNanos = Self.nanos(absolute) else { throw place.fail("\(field).absoluteDiscount", "out of range") }
            value -= discountNanos
            guard value > 0 else {
                throw place.fail(
                    "\(field).absoluteDiscount", "\(discount.amount) \(region.currency.code) takes the whole price away; "
                        + "a discounted phase costs more than 0")
            }
        }
        guard value > 0 else { throw place.fail("\(field).relativeDiscount", "takes the whole price away; a discounted phase costs more than 0") }
        do {
            return try Price(DecimalText.scaled(value, fractionDigits: 9).text, currency: region.currency)
        } catch {
            throw place.fail(field, error.description)
        }
    }

    /// Titles and descriptions by language, each language once.
    private func texts(_ listings: [PlayDocument.Listing]?, _ place: Place) throws(StorePriceError) -> ([String: String], [String: String]) {
        var titles: [String: String] = [:]
        var descriptions: [String: String] = [:]
        var tags = LanguageTagSet()
        for (index, listing) in (listings ?? []).enumerated() {
            let field = "listings[\(index)].languageCode"
            let language = Self.languageTag(try required(listing.languageCode, field, place))
            if let reason = tags.insert(language) { throw place.fail(field, reason) }
            titles[language] = listing.title
            descriptions[language] = listing.description
        }
        return (titles, descriptions)
    }
}
