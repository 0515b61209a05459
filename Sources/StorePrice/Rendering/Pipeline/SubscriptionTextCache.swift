/// A run's subscription texts, by target, terms and price: each row of a subscription adds its
/// price per period, offers and paywall lines, ICU MessageFormat and all, and the same
/// (target, terms, price) gives the same text. Kept with the run's ``RenderContext``, a text is
/// made once for every run of the same shape, as a formatted price is.
///
/// Holds at most ``limit`` texts, and forgets them all when full.
///
/// Sendable notes: the texts are behind their lock.
final class SubscriptionTextCache: Sendable {
    /// A row's target, product and price: hashed, where the terms (an offer price per
    /// storefront) would cost far more to hash; the terms are compared on a hit, which costs
    /// little when they are the same values (the same product rendered again).
    struct Key: Hashable {
        var target: Int32
        var product: String
        var price: Price
    }

    static let limit = 4096
    private let texts = Locked<[Key: (terms: SubscriptionTerms, text: RenderedSubscription)]>([:])

    /// The text of a row of `batch`, made by `make` when no run has made it yet.
    func text(
        at position: Int, of batch: RenderedBatch, make: () throws(StorePriceError) -> RenderedSubscription?
    ) throws(StorePriceError) -> RenderedSubscription? {
        guard let terms = batch.subscription(at: position) else { return nil }
        let key = Key(target: Int32(batch.targetIndex(at: position)), product: batch.productID(at: position), price: batch.price(at: position))
        if let known = texts.withLock({ $0[key] }), known.terms == terms { return known.text }
        guard let made = try make() else { return nil }
        texts.withLock { texts in
            if texts.count >= Self.limit { texts.removeAll(keepingCapacity: true) }
            texts[key] = (terms, made)
        }
        return made
    }
}
