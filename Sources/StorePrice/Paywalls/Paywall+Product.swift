#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension Paywall {
    /// The paywall of a catalog's subscription where a storefront or test account shows it: its
    /// price there, its period, its introductory offer there (if it has one there), and savings
    /// against another product of the catalog.
    ///
    /// ```swift
    /// let products = try Catalog.load("Data/catalog-sample.jsonl")
    /// let byID = Dictionary(uniqueKeysWithValues: products.map { ($0.id, $0) })
    /// if let yearly = byID["com.example.pro.yearly"], let weekly = byID["com.example.pro.weekly"] {
    ///     let usa = RenderTarget(storefront: try Storefront("USA"))
    ///     let paywall = try Paywall(subscription: yearly, for: usa, comparedTo: weekly)
    ///     try paywall.render("offer_then_price")  // "1 week free, then $39.99 per year"
    ///     try paywall.render("save")              // "Save 61%"
    ///     paywall.values[.price]?.text            // "$39.99"
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - product: an auto-renewable subscription of a catalog.
    ///   - target: the storefront, or test account, whose price locale the strings are in.
    ///   - comparedTo: a subscription to state savings against, priced in the same storefront.
    ///   - options: how prices are formatted.
    ///   - periodStyle: full words (`per month`), CLDR's short or narrow forms.
    ///   - rounding: how restated prices are rounded to the currency's digits.
    ///   - offerStart: the day the offer starts, for `trial_end_date`.
    ///   - offerWording: the app's wording for `offer`; StorePrice's own by default.
    /// - Throws: ``StorePriceError/invalidPaywall(productID:reason:)`` for a product that is no
    ///   subscription or a compared product that is none or has no price in the storefront;
    ///   ``StorePriceError/invalidProducts(_:)`` when `product` has no price there; and the
    ///   errors of ``init(price:period:offer:comparedTo:billingPlan:locale:options:periodStyle:rounding:offerStart:timeZone:offerWording:)``.
    public init(
        subscription product: Product, for target: RenderTarget, comparedTo: Product? = nil,
        options: PriceFormatter.Options = .init(), periodStyle: SubscriptionPeriod.Style = .wide,
        rounding: ApproximatePrice.Rounding = .down, offerStart: Date? = nil, offerWording: OfferWording? = nil
    ) throws(StorePriceError) {
        let storefront = target.storefront
        guard let terms = product.subscription else {
            throw .invalidPaywall(
                productID: product.id, reason: "not an auto-renewable subscription (it has no period); a paywall is a subscription's")
        }
        guard let price = product.price(inStorefront: storefront.numericID) else {
            throw .invalidProducts([InvalidProduct(productID: product.id, reason: .noPrice(storefronts: [storefront.countryCode]))])
        }
        var compared: Plan?
        if let other = comparedTo {
            guard let otherTerms = other.subscription else {
                throw .invalidPaywall(
                    productID: product.id,
                    reason: "'\(other.id.escapedForMessage)' is not a subscription (it has no period); savings are stated against one")
            }
            guard let otherPrice = other.price(inStorefront: storefront.numericID) else {
                throw .invalidPaywall(
                    productID: product.id,
                    reason: "'\(other.id.escapedForMessage)', to compare it with, has no price in \(storefront.countryCode)")
            }
            compared = Plan(price: otherPrice, period: otherTerms.period)
        }
        // The first introductory offer shown in this storefront: one priced elsewhere only is not.
        let offer = terms.introductoryOffers.lazy.compactMap { $0.offer(inStorefront: storefront.numericID) }.first
        try self.init(
            price: price, period: terms.period, offer: offer, comparedTo: compared, locale: target.priceLocale, options: options,
            periodStyle: periodStyle, rounding: rounding, offerStart: offer == nil ? nil : offerStart, offerWording: offerWording)
    }
}
