#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An Xcode StoreKit configuration file (`.storekit`), read as a catalog.
///
/// Every product's `displayPrice` belongs to the file's storefront (`settings._storefront`, an
/// alpha-3 code; USA when the file names none, as in Xcode). Products come from `products`,
/// `nonRenewingSubscriptions` and `subscriptionGroups[].subscriptions`, with titles and
/// descriptions from their `localizations`. Auto-renewable subscriptions also carry their
/// `recurringSubscriptionPeriod`, `introductoryOffer` (`paymentMode`, `subscriptionPeriod`,
/// `numberOfPeriods`, `displayPrice`) and promotional `subscriptionOffers` (with `offerID`).
public struct StoreKitConfiguration: Sendable {
    /// The storefront the file's prices are in.
    public let storefront: Storefront
    /// The products, in file order.
    public let products: ProductList

    /// Reads a `.storekit` file.
    public init(contentsOfFile path: String) throws(StorePriceError) {
        try self.init(data: InputFile(path: path).readAll(), source: path)
    }

    /// Reads `.storekit` JSON.
    public init(data: [UInt8], source: String) throws(StorePriceError) {
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: Data(data))
        } catch {
            throw .invalidCatalog(source: source, line: nil, field: nil, reason: "not a StoreKit configuration (\(describe(error)))")
        }
        let code = file.settings?._storefront ?? "USA"
        var storefronts = StorefrontCodes()
        let storefront = try storefronts.storefront(code, source: source, line: nil, field: "settings._storefront")
        var seen: Set<String> = []
        var products: [Product] = []
        let entries = (file.products ?? []).map { ("products", $0) }
            + (file.nonRenewingSubscriptions ?? []).map { ("nonRenewingSubscriptions", $0) }
            + (file.subscriptionGroups ?? []).flatMap { group in (group.subscriptions ?? []).map { ("subscriptions", $0) } }
        for (section, entry) in entries {
            guard let id = entry.productID, !id.isEmpty else {
                throw .invalidCatalog(source: source, line: nil, field: "\(section).productID", reason: "missing")
            }
            guard seen.insert(id).inserted else {
                throw .invalidCatalog(source: source, line: nil, field: "productID", reason: "product '\(id.escapedForMessage)' again")
            }
            guard let displayPrice = entry.displayPrice else {
                throw .invalidCatalog(source: source, line: nil, field: "\(id).displayPrice", reason: "missing")
            }
            let price: Price
            do {
                price = try Price(displayPrice, currency: storefront.currency)
            } catch {
                throw .invalidCatalog(source: source, line: nil, field: "\(id).displayPrice", reason: error.description)
            }
            var titles: [String: String] = [:]
            var descriptions: [String: String] = [:]
            for localization in entry.localizations ?? [] {
                guard let locale = localization.locale else { continue }
                if let title = localization.displayName { titles[locale] = title }
                if let description = localization.description { descriptions[locale] = description }
            }
            let subscription = try section == "subscriptions"
                ? Self.terms(of: entry, id: id, storefront: storefront, source: source) : nil
            products.append(
                Product(
                    checkedID: id, prices: [storefront.id: price], titles: titles, descriptions: descriptions,
                    subscription: subscription))
        }
        self.storefront = storefront
        self.products = ProductList(products)
    }

    /// The period and offers of an auto-renewable subscription entry.
    private static func terms(of entry: File.Entry, id: String, storefront: Storefront, source: String)
        throws(StorePriceError) -> SubscriptionTerms?
    {
        func fail(_ field: String, _ reason: String) -> StorePriceError {
            .invalidCatalog(source: source, line: nil, field: "\(id).\(field)", reason: reason)
        }
        func fields(_ offer: File.Offer, field: String) throws(StorePriceError) -> OfferFields {
            var prices: [Int: Price] = [:]
            if let text = offer.displayPrice {
                do {
                    prices[storefront.id] = try Price(text, currency: storefront.currency)
                } catch {
                    throw fail("\(field).displayPrice", error.description)
                }
            }
            return OfferFields(
                id: offer.offerID, paymentMode: offer.paymentMode, period: offer.subscriptionPeriod,
                periodCount: offer.numberOfPeriods, prices: prices)
        }
        let introductory = try entry.introductoryOffer.map { (offer) throws(StorePriceError) in
            try fields(offer, field: "introductoryOffer")
        }
        var promotional: [OfferFields] = []
        for (index, offer) in (entry.subscriptionOffers ?? []).enumerated() {
            promotional.append(try fields(offer, field: "subscriptionOffers[\(index)]"))
        }
        return try SubscriptionTerms.read(
            period: entry.recurringSubscriptionPeriod, introductory: introductory, promotional: promotional,
            keys: ("recurringSubscriptionPeriod", "subscriptionPeriod", "subscriptionOffers", "offerID"), required: true,
            fail: fail)
    }

    private struct File: Decodable {
        struct Settings: Decodable {
            var _storefront: String?
        }
        struct Entry: Decodable {
            var productID: String?
            var displayPrice: String?
            var localizations: [Localization]?
            var recurringSubscriptionPeriod: String?
            var introductoryOffer: Offer?
            var subscriptionOffers: [Offer]?
        }
        struct Offer: Decodable {
            var offerID: String?
            var paymentMode: String?
            var subscriptionPeriod: String?
            var numberOfPeriods: Int?
            var displayPrice: String?
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
