/// The rows of one batch, in order: a collection of ``RenderedRow``.
///
/// Rows are kept as indices into the batch's products, the run's targets and a shared table of
/// formatted prices, so producing them costs no allocation or reference counting per row. Reading
/// a row builds its ``RenderedRow``; the `…(at:)` accessors read one field without building it.
public struct RenderedBatch: RandomAccessCollection, Sendable {
    struct Entry {
        var product: Int32
        var target: Int32
        /// A slot in the run's price store, or, when negative, `-1 - i` for `overflow[i]`.
        var price: Int32
        /// An index into `titles`, or -1 for no title.
        var title: Int32
    }

    let products: [Product]
    let targets: [RenderTarget]
    let store: PriceStore
    let overflow: [PriceStore.Slot]
    let titles: [String]
    let entries: [Entry]
    /// Each row's subscription text, in the renderer's options and StorePrice's wording; empty
    /// when no product of the batch is a subscription.
    var subscriptions: [RenderedSubscription?] = []

    /// The first row's position, 0.
    public var startIndex: Int { 0 }
    /// The position after the last row.
    public var endIndex: Int { entries.count }

    /// The row at a position.
    public subscript(position: Int) -> RenderedRow {
        let slot = slot(position)
        return RenderedRow(
            productID: productID(at: position), target: target(at: position), price: slot.price,
            formatted: slot.formatted, title: title(at: position), subscription: renderedSubscription(at: position))
    }

    /// The period, price per period, offers and billing plans of row `position`, in the
    /// renderer's options and StorePrice's wording; nil when its product is not a subscription.
    public func renderedSubscription(at position: Int) -> RenderedSubscription? {
        subscriptions.isEmpty ? nil : subscriptions[position]
    }

    /// The product ID of row `position`.
    public func productID(at position: Int) -> String { products[Int(entries[position].product)].id }
    /// The storefront or account of row `position`.
    public func target(at position: Int) -> RenderTarget { targets[Int(entries[position].target)] }
    /// The index in the renderer's targets of row `position`'s target.
    public func targetIndex(at position: Int) -> Int { Int(entries[position].target) }
    /// The amount of row `position`, in canonical decimal text.
    public func amount(at position: Int) -> String { slot(position).price.amount }
    /// The formatted price of row `position`.
    public func formatted(at position: Int) -> String { slot(position).formatted }
    /// The title of row `position`, if any.
    public func title(at position: Int) -> String? {
        let index = entries[position].title
        return index < 0 ? nil : titles[Int(index)]
    }

    /// The price of row `position`.
    public func price(at position: Int) -> Price { slot(position).price }
    /// Whether any product of the batch is a subscription; when not, writers can skip the
    /// subscription columns row by row.
    public var containsSubscriptions: Bool { products.contains { $0.subscription != nil } }
    /// The subscription terms of row `position`'s product; nil when it is not a subscription.
    public func subscription(at position: Int) -> SubscriptionTerms? {
        products[Int(entries[position].product)].subscription
    }

    /// What a subscription row adds, in its target's price locale, in given options or wording:
    /// the price per period, every offer as the target's storefront has it, the billing plans,
    /// and the paywall lines.
    /// Nil for other products. ``renderedSubscription(at:)`` (and each row) has it in the
    /// renderer's options and StorePrice's wording.
    ///
    /// - Parameters:
    ///   - position: the row.
    ///   - options: currency display and rounding, as the renderer used.
    ///   - wording: offer phrases; by default StorePrice's built-in wording for the language.
    public func subscriptionText(
        at position: Int, options: PriceFormatter.Options = .init(), wording: OfferWording? = nil
    ) throws(StorePriceError) -> RenderedSubscription? {
        guard let terms = subscription(at: position) else { return nil }
        let target = target(at: position)
        let locale = target.priceLocale
        let builtIn = wording == nil ? try OfferWording.builtIn(for: locale) : nil
        let chosenWording = wording ?? builtIn
        let storefrontID = target.storefront.numericID
        // A price the options cannot show is named as the catalog writes it, where it was read.
        func named<T>(_ origin: ProductOrigin?, _ body: () throws(StorePriceError) -> T) throws(StorePriceError) -> T {
            do {
                return try body()
            } catch {
                throw origin?.error(error, storefrontID: storefrontID, target: target.description) ?? error
            }
        }
        let formatter = try PriceFormatter(locale: locale, options: options)
        var offers: [RenderedOffer] = []
        for catalogOffer in terms.offers {
            guard let offer = catalogOffer.offer(inStorefront: storefrontID) else { continue }
            offers.append(
                try named(catalogOffer.origin) { () throws(StorePriceError) in
                    RenderedOffer(
                        kind: catalogOffer.kind, id: catalogOffer.id, billingPlan: catalogOffer.billingPlan, offer: offer,
                        formattedPrice: try offer.price.map { (price) throws(StorePriceError) in try formatter.format(price) },
                        text: try chosenWording.map { (chosen) throws(StorePriceError) in
                            try offer.text(in: locale, wording: chosen, options: options)
                        })
                })
        }
        var plans: [RenderedBillingPlan] = []
        for plan in terms.billingPlans {
            guard let price = plan.prices[storefrontID] else { continue }
            let commitment = plan.commitmentPrices[storefrontID]
            plans.append(
                RenderedBillingPlan(
                    type: plan.type, price: price,
                    formattedPrice: try named(plan.origin) { () throws(StorePriceError) in try formatter.format(price) },
                    commitmentPrice: commitment,
                    formattedCommitmentPrice: try named(plan.commitmentOrigin) { () throws(StorePriceError) in
                        try commitment.map { (price) throws(StorePriceError) in try formatter.format(price) }
                    }))
        }
        // The row's price is formatted already: only the per-period pattern is added.
        let pricePerPeriod = PriceFormatter.apply(
            try locale.perPeriodPattern(terms.period, style: .wide), price: formatted(at: position))
        let introductory = offers.first { $0.kind == .introductory }
        let paywall = try RenderedPaywallLine.lines(
            price: price(at: position), period: terms.period, offer: introductory, locale: locale, options: options,
            wording: chosenWording)
        return RenderedSubscription(
            period: terms.period, pricePerPeriod: pricePerPeriod, offers: offers, billingPlans: plans, paywall: paywall)
    }

    private func slot(_ position: Int) -> PriceStore.Slot {
        let price = entries[position].price
        return price >= 0 ? store[Int(price)] : overflow[Int(-1 - price)]
    }
}
