#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A subscription row's period, price per period, offers and billing plans, in its price locale.
///
/// It encodes as the subscription fields of the row schema (``RowField/period`` to
/// ``RowField/paywall``); a ``RenderedRow`` holds it and decodes it.
public struct RenderedSubscription: Hashable, Sendable, Encodable {
    /// How often the subscription renews.
    public let period: SubscriptionPeriod
    /// The row's price per period: `$4.99/month`.
    public let pricePerPeriod: String
    /// Every offer the row's storefront has, introductory first, then promotional, offer codes
    /// and win-back offers, each in catalog order.
    public let offers: [RenderedOffer]
    /// The billing plans the row's storefront has a price for.
    public let billingPlans: [RenderedBillingPlan]
    /// The paywall lines StorePrice builds for the row: the price billed first with its monthly
    /// (or weekly, or daily) restatement, and the introductory offer then the price, where
    /// StorePrice words the language.
    public let paywall: [RenderedPaywallLine]

    /// The first introductory offer in the row's storefront, if it has one there.
    public var introductoryOffer: SubscriptionOffer? { offers.first { $0.kind == .introductory }?.offer }
    /// That offer as text, `1 week free`; nil without an offer, or without wording for the language.
    public var introductoryOfferText: String? { offers.first { $0.kind == .introductory }?.text }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: RowField.self)
        try container.encode(period, forKey: .period)
        try container.encode(pricePerPeriod, forKey: .pricePerPeriod)
        try container.encode(introductoryOfferText, forKey: .offer)
        try container.encode(introductoryOffer?.description, forKey: .offerTerms)
        try container.encode(offers, forKey: .offers)
        try container.encode(billingPlans, forKey: .billingPlans)
        try container.encode(RenderedPaywallLine.Object(lines: paywall), forKey: .paywall)
    }
}

/// A paywall line of a subscription row: `billed_amount_first` is `$59.99 per year ($4.99 per
/// month)`. A row's lines encode as one object, `{"billed_amount_first":"…","price_per_day":"…",…}`,
/// in ``names`` order.
public struct RenderedPaywallLine: Hashable, Sendable {
    /// The line's name: a built-in template's, or a ``PaywallArgument``'s.
    public let name: String
    /// The line, in the row's price locale.
    public let text: String

    /// The lines a row records, in order: StorePrice's built-in lines that a subscription's
    /// price, period and introductory offer make, besides the row's own `price_per_period` and
    /// `offer`. `offer_then_price` is there only with an introductory offer, in a language
    /// StorePrice words.
    public static let names = ["billed_amount_first", "offer_then_price"]

    /// The lines of a subscription billed `price` every `period`, with its introductory offer
    /// and that offer's text (nil without wording for the language).
    static func lines(
        price: Price, period: SubscriptionPeriod, offer: RenderedOffer?, locale: PriceLocale,
        options: PriceFormatter.Options, wording: OfferWording?
    ) throws(StorePriceError) -> [RenderedPaywallLine] {
        // Only what the lines use is computed.
        let paywall = try Paywall(
            price: price, period: period, offer: offer?.offer, comparedTo: nil, billingPlan: nil, locale: locale, options: options,
            periodStyle: .wide, rounding: .down, offerStart: nil, timeZone: .gmt, offerWording: wording,
            offerText: offer?.text,
            only: Set([.pricePerPeriod, .offer] + [PaywallTemplates.billedAmountFirstRestatement(for: period)].compactMap { $0 }))
        var lines: [RenderedPaywallLine] = []
        // Without the offer's text, there is no line that follows it.
        for name in names where name != "offer_then_price" || offer?.text != nil {
            do {
                lines.append(RenderedPaywallLine(name: name, text: try paywall.render(name)))
            } catch {
                // A line needing what the row lacks (an offer, wording for its language) is left out.
                guard case .invalidTemplate = error else { throw error }
            }
        }
        return lines
    }

    /// A row's lines as one JSON object.
    struct Object: Codable {
        var lines: [RenderedPaywallLine]

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(lines: [RenderedPaywallLine]) {
            self.lines = lines
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for line in lines { try container.encode(line.text, forKey: Key(stringValue: line.name)) }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            for key in container.allKeys where !RenderedPaywallLine.names.contains(key.stringValue) {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container,
                    debugDescription: "'\(key.stringValue)' is not a paywall line; they are \(RenderedPaywallLine.names.joined(separator: ", "))")
            }
            lines = try RenderedPaywallLine.names.compactMap { name in
                try container.decodeIfPresent(String.self, forKey: Key(stringValue: name)).map { RenderedPaywallLine(name: name, text: $0) }
            }
        }
    }
}

/// One offer of a subscription row, in the row's price locale.
///
/// It encodes as the objects of a row's `offers`: `{"type":"promotional","id":"winback",
/// "billing_plan":null,"payment_mode":"payUpFront","period":"P2M","period_count":1,
/// "price":"1.99","formatted_price":"$1.99","text":"$1.99 for 2 months","terms":"payUpFront:P2M:1.99"}`.
public struct RenderedOffer: Hashable, Sendable, Encodable {
    /// Introductory, promotional, offer code or win-back.
    public let kind: CatalogOffer.Kind
    /// The offer ID or offer-code reference name; nil for an introductory offer.
    public let id: String?
    /// The billing plan the offer applies to, where the catalog says.
    public let billingPlan: String?
    /// The offer's terms and price in the row's storefront.
    public let offer: SubscriptionOffer
    /// The offer's price, formatted; nil for a free trial.
    public let formattedPrice: String?
    /// The offer as text, `$0.99/month for 3 months`; nil without wording for the language.
    public let text: String?

    /// The keys of an offer's object, in the order they are written.
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case type, id
        case billingPlan = "billing_plan"
        case paymentMode = "payment_mode"
        case period
        case periodCount = "period_count"
        case price
        case formattedPrice = "formatted_price"
        case text, terms
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind.outputName, forKey: .type)
        try container.encode(id, forKey: .id)
        try container.encode(billingPlan, forKey: .billingPlan)
        try container.encode(offer.paymentMode.rawValue, forKey: .paymentMode)
        try container.encode(offer.period, forKey: .period)
        try container.encode(offer.periodCount, forKey: .periodCount)
        try container.encode(offer.price?.amount, forKey: .price)
        try container.encode(formattedPrice, forKey: .formattedPrice)
        try container.encode(text, forKey: .text)
        try container.encode(offer.description, forKey: .terms)
    }

    /// An offer's object as read, before its price has a currency (the row's).
    struct Fields: Decodable {
        var type: String
        var id: String?
        var billingPlan: String?
        var terms: String
        var price: String?
        var formattedPrice: String?
        var text: String?

        enum CodingKeys: String, CodingKey {
            case type, id, terms, price, text
            case billingPlan = "billing_plan"
            case formattedPrice = "formatted_price"
        }

        func offer(currency: CurrencyCode) throws -> RenderedOffer {
            guard let kind = CatalogOffer.Kind.allCases.first(where: { $0.outputName == type }) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: [CodingKeys.type], debugDescription: "'\(type.escapedForMessage)' is not an offer type"))
            }
            // The terms end with the amount (`payUpFront:P2M:1.99`), which must be `price`'s.
            let parts = terms.split(separator: ":", omittingEmptySubsequences: false)
            let price = try price.map { (amount) throws(StorePriceError) in try Price(amount, currency: currency) }
            let written = parts.count == 3 ? try Price(String(parts[2]), currency: currency) : nil
            guard written == price else {
                throw StorePriceError.invalidOffer(
                    terms, reason: "the terms' amount and the price (\(price?.amount ?? "none")) differ")
            }
            let offer = try SubscriptionOffer(terms: parts.prefix(2).joined(separator: ":"), price: price)
            return RenderedOffer(
                kind: kind, id: id, billingPlan: billingPlan, offer: offer, formattedPrice: formattedPrice, text: text)
        }
    }
}

/// One billing plan of a subscription row, in the row's price locale.
///
/// It encodes as the objects of a row's `billing_plans`: `{"type":"MONTHLY","price":"0.5",
/// "formatted_price":"$0.50","commitment_price":"6","formatted_commitment_price":"$6.00"}`.
public struct RenderedBillingPlan: Hashable, Sendable, Encodable {
    /// The plan type, such as `MONTHLY`.
    public let type: String
    /// The price of each payment.
    public let price: Price
    /// That price, formatted.
    public let formattedPrice: String
    /// The price of the whole commitment, when the catalog gives it.
    public let commitmentPrice: Price?
    /// That price, formatted.
    public let formattedCommitmentPrice: String?

    /// The keys of a plan's object, in the order they are written.
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case type, price
        case formattedPrice = "formatted_price"
        case commitmentPrice = "commitment_price"
        case formattedCommitmentPrice = "formatted_commitment_price"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(price.amount, forKey: .price)
        try container.encode(formattedPrice, forKey: .formattedPrice)
        try container.encode(commitmentPrice?.amount, forKey: .commitmentPrice)
        try container.encode(formattedCommitmentPrice, forKey: .formattedCommitmentPrice)
    }

    /// A plan's object as read, before its prices have a currency (the row's).
    struct Fields: Decodable {
        var type: String
        var price: String
        var formattedPrice: String
        var commitmentPrice: String?
        var formattedCommitmentPrice: String?

        typealias CodingKeys = RenderedBillingPlan.CodingKeys

        func plan(currency: CurrencyCode) throws -> RenderedBillingPlan {
            RenderedBillingPlan(
                type: type, price: try Price(price, currency: currency), formattedPrice: formattedPrice,
                commitmentPrice: try commitmentPrice.map { (amount) throws(StorePriceError) in try Price(amount, currency: currency) },
                formattedCommitmentPrice: formattedCommitmentPrice)
        }
    }
}
