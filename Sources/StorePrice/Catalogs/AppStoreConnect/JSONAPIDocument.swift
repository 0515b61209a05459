#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One response of the App Store Connect API, as Apple sends it: a JSON:API document with `data`
/// (one resource or a list), the resources it `included`, and its `links` (`self`, and `next`
/// while there are more pages).
///
/// Only the members StorePrice reads are decoded; any other member is ignored, as a JSON:API
/// client must.
struct JSONAPIDocument: Decodable {
    /// The primary data: one resource or a list, in the order Apple gives them.
    var data: [Resource]
    /// Whether `data` was a list.
    var dataIsList: Bool
    var included: [Resource]
    var links: Links?

    struct Links: Decodable {
        var `self`: String?
        var next: String?
    }

    /// A resource object: its `type` and `id`, its attributes and its relationships.
    struct Resource: Decodable {
        var type: String
        var id: String
        var attributes: Attributes?
        var relationships: [String: Relationship]?

        /// The `id` of the one resource a relationship names, as `territory.data.id`.
        func related(_ name: String) -> Identifier? {
            relationships?[name]?.data
        }
    }

    /// A relationship: `data` is one resource identifier, or absent when Apple sends only
    /// `links` (or, for an included price point's territory, an empty object).
    struct Relationship: Decodable {
        var data: Identifier?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            // A to-many relationship's data is a list; StorePrice reads none of them.
            data = try? container.decodeIfPresent(Identifier.self, forKey: .data)
        }

        enum Key: String, CodingKey { case data }
    }

    struct Identifier: Decodable {
        var type: String
        var id: String
    }

    /// The attributes StorePrice reads, each optional: which ones a resource has depends on its
    /// type. A member of another JSON type than the API's is an error naming its path.
    struct Attributes: Decodable {
        // Price points and territories.
        var customerPrice: String?
        var currency: String?
        // Prices: a day written YYYY-MM-DD, or null for "since always" and "until further notice".
        var startDate: String?
        var endDate: String?
        var manual: Bool?
        /// A subscription price's billing plan: `UPFRONT` (the usual price) or another plan's.
        var planType: String?
        // In-app purchases, subscriptions and apps.
        var productId: String?
        var bundleId: String?
        var name: String?
        var subscriptionPeriod: String?
        // Localizations.
        var locale: String?
        var description: String?
        // Offers: `duration` (ONE_WEEK…), `offerMode` (FREE_TRIAL, PAY_AS_YOU_GO, PAY_UP_FRONT), and
        // how many periods: `numberOfPeriods`, or a win-back offer's `periodCount`.
        var duration: String?
        var offerMode: String?
        var numberOfPeriods: Int?
        var periodCount: Int?
        /// A promotional offer's offer ID, a win-back offer's, an offer code's reference name.
        var offerCode: String?
        var offerId: String?
        var referenceName: String?
        /// Whether an offer code can be redeemed.
        var active: Bool?
    }

    enum Key: String, CodingKey { case data, included, links }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard container.contains(.data) else {
            throw DecodingError.keyNotFound(
                Key.data, .init(codingPath: [], debugDescription: "an App Store Connect response has data"))
        }
        // A list is read element by element, so that an error inside one names its place.
        if var list = try? container.nestedUnkeyedContainer(forKey: .data) {
            var resources: [Resource] = []
            while !list.isAtEnd { resources.append(try list.decode(Resource.self)) }
            data = resources
            dataIsList = true
        } else {
            data = [try container.decode(Resource.self, forKey: .data)]
            dataIsList = false
        }
        included = try container.decodeIfPresent([Resource].self, forKey: .included) ?? []
        links = try container.decodeIfPresent(Links.self, forKey: .links)
    }
}
