#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An Xcode StoreKit configuration file (`.storekit`), read as a catalog, as Xcode writes it
/// (format versions 1 to 5).
///
/// Every product's `displayPrice` belongs to the file's storefront (`settings._storefront`, an
/// alpha-3 code; USA when the file names none, as in Xcode). Products come from `products`,
/// `nonRenewingSubscriptions` and `subscriptionGroups[].subscriptions`, with titles and
/// descriptions from their `localizations`; a title is chosen for the store language as
/// ``Product`` describes, falling back to the file's `settings._locale`, then to the first
/// localization.
///
/// Auto-renewable subscriptions also carry their `recurringSubscriptionPeriod` and offers:
/// `introductoryOffer` (or format 5's `introductoryOffers`, one per billing plan), promotional
/// `adHocOffers` (with `offerID`), `codeOffers` (offer codes, named by `referenceName`),
/// `winbackOffers` (with `offerID`), and format 5's `billingPlans` (enabled ones only). Each offer
/// has a `paymentMode`, `subscriptionPeriod`, `numberOfPeriods` and `displayPrice`, read as Xcode
/// means them: a free trial's `displayPrice` is what Xcode kept from before the mode was switched
/// to free, and is ignored; an empty `displayPrice` means the offer has no price in the storefront,
/// so the storefront has no such offer.
public struct StoreKitConfiguration: Sendable {
    /// The storefront the file's prices are in.
    public let storefront: Storefront
    /// The products, in file order.
    public let products: ProductList
    /// What was left out, one line each: offers whose `displayPrice` is empty or missing, which
    /// have no price in the file's storefront.
    public private(set) var notes: [String] = []

    /// Reads a `.storekit` file; its product IDs must keep `rule` (App Store Connect's by default).
    public init(contentsOfFile path: String, productIDRule rule: ProductIDRule = .appStore) throws(StorePriceError) {
        try self.init(data: InputFile(path: path).readAll(), source: path, productIDRule: rule)
    }

    /// Reads `.storekit` JSON; its product IDs must keep `rule`.
    public init(data: [UInt8], source: String, productIDRule rule: ProductIDRule = .appStore) throws(StorePriceError) {
        if let kind = Self.propertyListKind(data) {
            throw .invalidCatalog(
                source: source, line: nil, field: nil,
                reason: "this is \(kind), not an Xcode StoreKit configuration; Xcode writes .storekit files as JSON")
        }
        if let problem = JSONText.problem(in: data) {
            throw .invalidCatalog(
                source: source, line: nil, field: nil, reason: problem)
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: Data(data))
        } catch {
            throw .invalidCatalog(source: source, line: nil, field: nil, reason: "not a StoreKit configuration (\(describe(error)))")
        }
        if let repeated = JSONDuplicateKeys.firstRepeatedKey(in: String(decoding: data, as: UTF8.self)) {
            throw .invalidCatalog(
                source: source, line: nil, field: repeated, reason: JSONDuplicateKeys.reason)
        }
        guard file.products != nil || file.nonRenewingSubscriptions != nil || file.subscriptionGroups != nil else {
            throw .invalidCatalog(
                source: source, line: nil, field: nil,
                reason: "not a StoreKit configuration (no products, nonRenewingSubscriptions or subscriptionGroups)")
        }
        let code = file.settings?._storefront ?? "USA"
        var storefronts = StorefrontCodes()
        let storefront = try storefronts.storefront(code, source: source, line: nil, field: "settings._storefront")
        // IDs are compared by their bytes, as the stores and the other catalog readers compare them.
        var seen = ProductRegistry()
        var products: [Product] = []
        let entries = (file.products ?? []).enumerated().map { ("products", "products[\($0.offset)]", $0.element) }
            + (file.nonRenewingSubscriptions ?? []).enumerated().map {
                ("nonRenewingSubscriptions", "nonRenewingSubscriptions[\($0.offset)]", $0.element)
            }
            + (file.subscriptionGroups ?? []).enumerated().flatMap { group in
                (group.element.subscriptions ?? []).enumerated().map {
                    ("subscriptions", "subscriptionGroups[\(group.offset)].subscriptions[\($0.offset)]", $0.element)
                }
            }
        for (index, (section, place, entry)) in entries.enumerated() {
            guard let id = entry.productID, !id.isEmpty else {
                throw .invalidCatalog(source: source, line: nil, field: "\(section).productID", reason: "missing")
            }
            if let problem = rule.problem(with: id) {
                throw .invalidCatalog(source: source, line: nil, field: "\(section).productID", reason: problem)
            }
            if let first = seen.insert(id, line: index) {
                throw .invalidCatalog(
                    source: source, line: nil, field: "\(place).productID",
                    reason: "product '\(id.escapedForMessage)' again; \(entries[first].1) has it")
            }
            func fail(_ field: String, _ reason: String) -> StorePriceError {
                .invalidCatalog(source: source, line: nil, field: "\(id).\(field)", reason: reason)
            }
            guard case .string(let displayPrice)? = entry.displayPrice else {
                throw fail(
                    "displayPrice",
                    entry.displayPrice == nil || entry.displayPrice == .null
                        ? "missing" : "expected decimal text such as \"0.99\"; JSON numbers lose digits in most tools")
            }
            if entry.subscriptionOffers != nil {
                throw fail("subscriptionOffers", "not a key Xcode writes; promotional offers are in 'adHocOffers'")
            }
            if section != "subscriptions", let key = entry.subscriptionKeys.first {
                throw fail(key, "only an auto-renewable subscription (in subscriptionGroups) has a period and offers")
            }
            let price: Price
            do {
                price = try Price(displayPrice, currency: storefront.currency)
            } catch {
                throw .invalidCatalog(source: source, line: nil, field: "\(id).displayPrice", reason: error.description)
            }
            var titles: [String: String] = [:]
            var descriptions: [String: String] = [:]
            var firstLocale: String?
            var locales: Set<String> = []
            var localeOrder: [String] = []
            var tags = LanguageTagSet()
            for localization in entry.localizations ?? [] {
                guard let locale = localization.locale else { continue }
                if let reason = tags.insert(locale) {
                    throw .invalidCatalog(source: source, line: nil, field: "\(id).localizations", reason: reason)
                }
                firstLocale = firstLocale ?? locale
                locales.insert(Product.normalizedTag(locale))
                localeOrder.append(Product.normalizedTag(locale))
                if let title = localization.displayName { titles[locale] = title }
                if let description = localization.description { descriptions[locale] = description }
            }
            // StoreKit's fallback: the file's default localization where the product has it (or its
            // language in another region), else the product's first.
            let fileLocale = file.settings?._locale.map(Product.normalizedTag)
            let fileLanguage = fileLocale.map { String($0.prefix { $0 != "-" }) }
            let defaultLanguage = fileLocale.flatMap { locales.contains($0) ? $0 : nil }
                ?? localeOrder.first { tag in fileLanguage.map { tag == $0 || tag.hasPrefix($0 + "-") } ?? false }
                ?? firstLocale
            let subscription = try section == "subscriptions"
                ? Self.terms(of: entry, id: id, storefront: storefront, source: source, notes: &notes) : nil
            products.append(
                Product(
                    checkedID: id, prices: [storefront.numericID: price], titles: titles, descriptions: descriptions,
                    subscription: subscription,
                    origin: ProductOrigin(
                        source: source,
                        prices: [storefront.numericID: .init(line: nil, field: "\(id).displayPrice", written: displayPrice)]),
                    defaultTitleLanguage: defaultLanguage))
        }
        self.storefront = storefront
        self.products = ProductList(products, productIDRule: rule)
    }

    /// What kind of property list the bytes are, when they are one: Xcode's other file format.
    private static func propertyListKind(_ data: [UInt8]) -> String? {
        if data.starts(with: Array("bplist".utf8)) { return "a binary property list" }
        var rest = data[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        rest = rest.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        for opening in ["<?xml", "<!DOCTYPE plist", "<plist"] where rest.starts(with: Array(opening.utf8)) {
            return "an XML property list"
        }
        return nil
    }

    /// The period, offers and billing plans of an auto-renewable subscription entry.
    private static func terms(of entry: File.Entry, id: String, storefront: Storefront, source: String, notes: inout [String])
        throws(StorePriceError) -> SubscriptionTerms?
    {
        func fail(_ field: String, _ reason: String) -> StorePriceError {
            .invalidCatalog(source: source, line: nil, field: "\(id).\(field)", reason: reason)
        }
        /// A price as Xcode writes one: none when the text is missing or empty; where it was read.
        func price(_ value: FieldValue?, field: String) throws(StorePriceError) -> ([Int: Price], ProductOrigin) {
            let origin = ProductOrigin(source: source, prices: [:])
            switch value {
            case nil, .null?, .string("")?:
                return ([:], origin)
            case .string(let text)?:
                do {
                    let place = ProductOrigin.PriceSource(line: nil, field: "\(id).\(field)", written: text)
                    return (
                        [storefront.numericID: try Price(text, currency: storefront.currency)],
                        ProductOrigin(source: source, prices: [storefront.numericID: place])
                    )
                } catch {
                    throw fail(field, error.description)
                }
            case .other?:
                throw fail(field, "expected decimal text such as \"0.99\"; JSON numbers lose digits in most tools")
            }
        }
        func list(_ offers: [File.Offer]?, kind: CatalogOffer.Kind, key: String, single: Bool = false)
            throws(StorePriceError) -> OfferList
        {
            var read: [OfferFields] = []
            for (index, offer) in (offers ?? []).enumerated() {
                let field = single ? key : "\(key)[\(index)]"
                // Xcode keeps a free trial's old price when the mode is switched to free: ignored.
                let isFree = offer.paymentMode == "free" || offer.paymentMode == "freeTrial"
                let (prices, origin) = isFree ? ([:], nil) : try price(offer.displayPrice, field: "\(field).displayPrice")
                if !isFree, prices.isEmpty {
                    notes.append(
                        "product '\(id.escapedForMessage)': \(field) has no displayPrice, so no price in "
                            + "\(storefront.countryCode); it is left out")
                }
                var count: Int?
                switch offer.numberOfPeriods {
                case .value(let number)?: count = number
                case .invalid?: throw fail("\(field).numberOfPeriods", "expected a whole number of periods, such as 3")
                case nil: count = nil
                }
                read.append(
                    OfferFields(
                        id: kind == .offerCode ? offer.referenceName : offer.offerID, billingPlan: offer.billingPlanType,
                        paymentMode: offer.paymentMode, period: offer.subscriptionPeriod, periodCount: count,
                        prices: prices, origin: origin))
            }
            return OfferList(kind: kind, key: key, single: single, offers: read)
        }
        let introductory =
            if let offers = entry.introductoryOffers, !offers.isEmpty {
                try list(offers, kind: .introductory, key: "introductoryOffers")
            } else {
                try list(entry.introductoryOffer.map { [$0] }, kind: .introductory, key: "introductoryOffer", single: true)
            }
        var plans: [BillingPlan] = []
        var planTypes: Set<String> = []
        for (index, plan) in (entry.billingPlans ?? []).enumerated() {
            let field = "billingPlans[\(index)]"
            guard let type = plan.billingPlanType, !type.isEmpty else { throw fail("\(field).billingPlanType", "missing") }
            guard type.utf8.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || $0 == UInt8(ascii: "_") }) else {
                throw fail("\(field).billingPlanType", "'\(type.escapedForMessage)' is not a plan type, such as MONTHLY")
            }
            guard planTypes.insert(type).inserted else { throw fail("\(field).billingPlanType", "'\(type.escapedForMessage)' appears twice") }
            guard plan.displayPrice != nil else { throw fail("\(field).displayPrice", "missing") }
            guard plan.isEnabled ?? true else { continue }
            let (prices, origin) = try price(plan.displayPrice, field: "\(field).displayPrice")
            let (commitment, commitmentOrigin) = try price(plan.commitmentDisplayPrice, field: "\(field).commitmentDisplayPrice")
            plans.append(
                BillingPlan(
                    type: type, prices: prices, commitmentPrices: commitment, origin: origin, commitmentOrigin: commitmentOrigin))
        }
        return try SubscriptionTerms.read(
            period: entry.recurringSubscriptionPeriod,
            offers: [
                introductory, try list(entry.adHocOffers, kind: .promotional, key: "adHocOffers"),
                try list(entry.codeOffers, kind: .offerCode, key: "codeOffers"),
                try list(entry.winbackOffers, kind: .winBack, key: "winbackOffers"),
            ],
            billingPlans: plans, planTypes: planTypes, keys: ("recurringSubscriptionPeriod", "subscriptionPeriod", "offerID", "paymentMode"),
            required: true, paidWithoutPrice: true, fail: fail)
    }

    private struct File: Decodable {
        struct Settings: Decodable {
            var _storefront: String?
            var _locale: String?
        }
        struct Entry: Decodable {
            var productID: String?
            var displayPrice: FieldValue?
            var subscriptionOffers: FieldValue?
            var localizations: [Localization]?
            var recurringSubscriptionPeriod: String?
            var introductoryOffer: Offer?
            var introductoryOffers: [Offer]?
            var adHocOffers: [Offer]?
            var codeOffers: [Offer]?
            var winbackOffers: [Offer]?
            var billingPlans: [Plan]?

            /// The keys that only a subscription may have, among those this entry has.
            var subscriptionKeys: [String] {
                [
                    ("recurringSubscriptionPeriod", recurringSubscriptionPeriod != nil),
                    ("introductoryOffer", introductoryOffer != nil),
                    ("introductoryOffers", !(introductoryOffers ?? []).isEmpty),
                    ("adHocOffers", !(adHocOffers ?? []).isEmpty), ("codeOffers", !(codeOffers ?? []).isEmpty),
                    ("winbackOffers", !(winbackOffers ?? []).isEmpty), ("billingPlans", !(billingPlans ?? []).isEmpty),
                ].filter(\.1).map(\.0)
            }
        }
        struct Offer: Decodable {
            var offerID: String?
            var referenceName: String?
            var billingPlanType: String?
            var paymentMode: String?
            var subscriptionPeriod: String?
            var numberOfPeriods: WholeNumber?
            var displayPrice: FieldValue?
        }
        struct Plan: Decodable {
            var billingPlanType: String?
            var displayPrice: FieldValue?
            var commitmentDisplayPrice: FieldValue?
            var isEnabled: Bool?
        }
        /// A JSON number that should be a whole number of periods, kept as invalid when it is not
        /// (2.5, or too large), so the error can name the field.
        enum WholeNumber: Decodable {
            case value(Int)
            case invalid
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                self = (try? container.decode(Int.self)).map(WholeNumber.value) ?? .invalid
            }
        }
        struct Localization: Decodable {
            var locale: String?
            var displayName: String?
            var description: String?
        }
        struct Group: Decodable {
            var subscriptions: [Entry]?
        }
        var settings: Settings?
        var products: [Entry]?
        var nonRenewingSubscriptions: [Entry]?
        var subscriptionGroups: [Group]?
    }
}
