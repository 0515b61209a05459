#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The Play Developer API's documents (androidpublisher v3) as StorePrice reads them: only the
/// fields that decide a price, a title or an offer; the API's other fields are left unread.
///
/// Field names and shapes follow Google's reference
/// (developers.google.com/android-publisher/api-ref/rest/v3): `monetization.onetimeproducts`,
/// `monetization.subscriptions` and their base plans' offers, and the legacy `inappproducts`.
enum PlayDocument {
    /// `Money`: whole `units` (an int64 the API writes as a string) and `nanos`.
    struct Money: Decodable {
        var currencyCode: String?
        var units: String?
        var nanos: Int?
    }

    /// A `listings[]` entry of a one-time product or subscription.
    struct Listing: Decodable {
        var languageCode: String?
        var title: String?
        var description: String?
    }

    struct RegionsVersion: Decodable {
        var version: String?
    }

    // MARK: monetization.onetimeproducts

    struct OneTimeProduct: Decodable {
        var productId: String?
        var listings: [Listing]?
        var purchaseOptions: [PurchaseOption]?
        var regionsVersion: RegionsVersion?
    }

    struct PurchaseOption: Decodable {
        struct BuyOption: Decodable {
            var legacyCompatible: Bool?
        }
        struct Empty: Decodable {}
        var purchaseOptionId: String?
        var state: String?
        var buyOption: BuyOption?
        var rentOption: Empty?
        var regionalPricingAndAvailabilityConfigs: [RegionalPrice]?
        /// Play's dollar and euro prices for regions it adds later: never shown, noted.
        var newRegionsConfig: Empty?
    }

    struct RegionalPrice: Decodable {
        var regionCode: String?
        var price: Money?
        var availability: String?
    }

    // MARK: monetization.subscriptions

    struct Subscription: Decodable {
        var productId: String?
        var listings: [Listing]?
        var basePlans: [BasePlan]?
    }

    struct BasePlan: Decodable {
        struct Period: Decodable {
            var billingPeriodDuration: String?
        }
        var basePlanId: String?
        var state: String?
        var autoRenewingBasePlanType: Period?
        var prepaidBasePlanType: Period?
        var installmentsBasePlanType: Period?
        var regionalConfigs: [RegionalConfig]?
        /// Play's dollar and euro prices for the other regions: never shown, noted.
        var otherRegionsConfig: PurchaseOption.Empty?
    }

    struct RegionalConfig: Decodable {
        var regionCode: String?
        var newSubscriberAvailability: Bool?
        var price: Money?
    }

    /// `monetization.subscriptions.basePlans.offers`: a `SubscriptionOffer`.
    struct Offer: Decodable {
        struct Targeting: Decodable {
            struct Rule: Decodable {}
            var acquisitionRule: Rule?
            var upgradeRule: Rule?
        }
        var productId: String?
        var basePlanId: String?
        var offerId: String?
        var state: String?
        var phases: [Phase]?
        var regionalConfigs: [RegionalAvailability]?
        var targeting: Targeting?
    }

    struct RegionalAvailability: Decodable {
        var regionCode: String?
        var newSubscriberAvailability: Bool?
    }

    struct Phase: Decodable {
        var recurrenceCount: Int?
        var duration: String?
        var regionalConfigs: [PhaseRegionalConfig]?
    }

    struct PhaseRegionalConfig: Decodable {
        struct Free: Decodable {}
        var regionCode: String?
        var free: Free?
        var price: Money?
        var absoluteDiscount: Money?
        /// Read as written (`0.3`, never `0.29999…`).
        var relativeDiscount: Decimal?
    }

    // MARK: inappproducts (legacy)

    struct InAppProduct: Decodable {
        struct Listing: Decodable {
            var title: String?
            var description: String?
        }
        struct Price: Decodable {
            var priceMicros: String?
            var currency: String?
        }
        var sku: String?
        var status: String?
        var purchaseType: String?
        var defaultPrice: Price?
        var prices: [String: Price]?
        var listings: [String: Listing]?
        var defaultLanguage: String?
        var subscriptionPeriod: String?
        var trialPeriod: String?
    }

    // MARK: Documents

    /// A file: a list response (one page of one kind) or one resource.
    struct File: Decodable {
        var oneTimeProducts: [OneTimeProduct]?
        var subscriptions: [Subscription]?
        var subscriptionOffers: [Offer]?
        var inappproduct: [InAppProduct]?
        var nextPageToken: String?
        var tokenPagination: TokenPagination?

        struct TokenPagination: Decodable {
            var nextPageToken: String?
        }
    }
}
