#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// How a whole app or service shows prices, chosen in one place: every formatter, renderer,
/// paywall and snapshot made from it follows its style, currency display and rounding.
///
/// Each of those types takes ``PriceFormatter/Options`` on its own; a service that passes them to
/// each by hand and forgets one mixes two styles without a word. Make them from one value
/// instead:
///
/// ```swift
/// let prices = PriceSettings(options: .init(style: .appStore))
/// let japan = try Storefront("JPN")
/// try prices.formatter(for: japan).format(amount: "800")                      // "¥800"
/// let (rows, _) = try prices.catalogRenderer(for: [japan]).render(
///     [try Product(id: "coins.100", prices: ["JPN": "800"])])
/// rows[0].formatted                                                            // "¥800"
/// let paywall = try prices.paywall(
///     price: Price("9800", currency: japan.currency), period: SubscriptionPeriod("P1Y"), in: japan.priceLocale)
/// try paywall.render("billed_amount_first")                                    // "¥9,800/年 (¥816/月)"
/// ```
///
/// A value, cheap to copy and safe to share: keep one for the process, or one per request when a
/// request chooses its own style.
public struct PriceSettings: Hashable, Sendable {
    /// Style, currency display and rounding for every price.
    public var options: PriceFormatter.Options

    /// Settings with these options; by default ICU's output, the symbol, no rounding.
    public init(options: PriceFormatter.Options = .init()) {
        self.options = options
    }

    /// A formatter for a price locale.
    public func formatter(for locale: PriceLocale) throws(StorePriceError) -> PriceFormatter {
        try PriceFormatter(locale: locale, options: options)
    }

    /// A formatter for a storefront's default price locale.
    public func formatter(for storefront: Storefront) throws(StorePriceError) -> PriceFormatter {
        try PriceFormatter(locale: storefront.priceLocale, options: options)
    }

    /// A renderer of catalogs to rows as values, for storefronts in their default price locales.
    public func catalogRenderer(for storefronts: [Storefront], workers: Int = CatalogRenderer.processorCount) -> CatalogRenderer {
        CatalogRenderer(targets: RenderTarget.storefronts(storefronts), options: options, workers: workers)
    }

    /// A renderer of catalogs to rows as values, for storefronts or test accounts.
    public func catalogRenderer(targets: [RenderTarget], workers: Int = CatalogRenderer.processorCount) -> CatalogRenderer {
        CatalogRenderer(targets: targets, options: options, workers: workers)
    }

    /// A renderer of catalogs to JSON Lines, JSON or CSV bytes, the CLI's; `productIDRule` as
    /// ``BulkRenderer/init(targets:format:options:workers:escapeNonASCII:rawCSV:productIDRule:)`` takes it.
    public func bulkRenderer(
        targets: [RenderTarget], format: BulkRenderer.Format = .jsonLines, workers: Int = CatalogRenderer.processorCount,
        productIDRule: ProductIDRule = .appStore
    ) -> BulkRenderer {
        BulkRenderer(targets: targets, format: format, options: options, workers: workers, productIDRule: productIDRule)
    }

    /// A subscription's paywall arguments, in a price locale: see ``Paywall``.
    ///
    /// - Parameters:
    ///   - price: the price billed each period.
    ///   - period: how often it is billed.
    ///   - offer: an introductory offer.
    ///   - comparedTo: a plan to state savings against.
    ///   - billingPlan: monthly payments of a longer plan.
    ///   - offerStart: the day the offer starts, for `trial_end_date`.
    ///   - locale: the price locale.
    public func paywall(
        price: Price, period: SubscriptionPeriod, offer: SubscriptionOffer? = nil, comparedTo: Paywall.Plan? = nil,
        billingPlan: Paywall.Plan? = nil, offerStart: Date? = nil, in locale: PriceLocale
    ) throws(StorePriceError) -> Paywall {
        try Paywall(
            price: price, period: period, offer: offer, comparedTo: comparedTo, billingPlan: billingPlan, locale: locale,
            options: options, offerStart: offerStart)
    }

    /// A golden snapshot of products in memory, for test accounts: see
    /// ``PriceSnapshot/record(products:accounts:options:productIDRule:workers:)``.
    public func snapshot(products: [Product], accounts: TestAccountFile = .builtIn) throws(StorePriceError) -> PriceSnapshot {
        try PriceSnapshot.record(products: products, accounts: accounts, options: options)
    }
}
