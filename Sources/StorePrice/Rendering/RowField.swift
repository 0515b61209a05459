/// The fields of a rendered row, in the order every output writes them: the one definition of
/// the row schema.
///
/// They are the keys of a JSON Lines row and of a JSON array's objects, the columns of the CSV
/// header, and the coding keys of ``RenderedRow``, so a service that returns
/// `JSONEncoder().encode(row)` returns the keys and values `storeprice render` writes:
///
/// ```swift
/// RowField.allCases.map(\.rawValue).joined(separator: ",")
/// // "product,storefront,account,price_locale,amount,formatted,title,period,price_per_period,offer,offer_terms,offers,billing_plans,paywall"
/// ```
public enum RowField: String, CaseIterable, CodingKey, Sendable {
    /// The product ID.
    case product
    /// The storefront's alpha-3 code: `JPN`.
    case storefront
    /// The test account's name, or null when rendering for storefronts.
    case account
    /// The price locale: `ja_JP@currency=JPY`.
    case priceLocale = "price_locale"
    /// The amount, in canonical decimal text: `"0.99"`, never a JSON number.
    case amount
    /// The price as the store shows it: `￥160`.
    case formatted
    /// The title in the store language, or null.
    case title
    /// A subscription's period, `P1M`; null for other products (as are the fields after it).
    case period
    /// The price per period: `$4.99/month`.
    case pricePerPeriod = "price_per_period"
    /// The first introductory offer as text: `1 week free`.
    case offer
    /// That offer's terms: `free:P1W`.
    case offerTerms = "offer_terms"
    /// Every offer, as objects (see ``RenderedOffer``).
    case offers
    /// Every billing plan, as objects (see ``RenderedBillingPlan``).
    case billingPlans = "billing_plans"
    /// The paywall lines, as one object (see ``RenderedPaywallLine``).
    case paywall

    /// The fields a subscription adds, null for other products.
    static let subscriptionFields: [RowField] = [.period, .pricePerPeriod, .offer, .offerTerms, .offers, .billingPlans, .paywall]

    /// The CSV header: every field's name, comma-separated, and a line break.
    static let csvHeader = Array((allCases.map(\.rawValue).joined(separator: ",") + "\n").utf8)

    /// The JSON text that opens this field's value: `{"product":` for the first field,
    /// `,"storefront":` for the others.
    var jsonKey: String { jsonKey(first: self == .product) }

    /// The end of a JSON row without a subscription: each subscription field null, then `}`.
    static let jsonWithoutSubscription = subscriptionFields.map { $0.jsonKey + "null" }.joined() + "}"
}

extension CodingKey {
    /// The JSON text that opens this key's value in an object: `{"type":` for the first key,
    /// `,"price":` for the others.
    func jsonKey(first: Bool = false) -> String { (first ? "{" : ",") + "\"\(stringValue)\":" }
}
