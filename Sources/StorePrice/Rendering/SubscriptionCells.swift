/// The subscription columns of a row, as written.
package struct SubscriptionCells {
    package var period: String
    package var pricePerPeriod: String
    package var offer: String?
    package var offerTerms: String?
    package var offers: [RenderedOffer]
    package var billingPlans: [RenderedBillingPlan]
    /// Every offer on one line, for CSV and tables: `introductory: 1 week free; promotional
    /// winback: $1.99 for 2 months; introductory (MONTHLY): 2 months free`, with the terms
    /// (`payUpFront:P2M:1.99`) where there is no wording.
    package var offersSummary: String
    /// Every billing plan on one line: `MONTHLY $0.50 (commitment $6.00)`.
    package var billingPlansSummary: String
    /// The paywall lines, each passed through `shown`.
    package var paywall: [RenderedPaywallLine]
    /// The paywall lines on one line, for CSV: `billed_amount_first: $59.99 per year ($4.99 per
    /// month); price_per_day: $0.16 per day; …`.
    package var paywallSummary: String

    /// The cells of a row's subscription, with generated text passed through `shown` (which
    /// escapes it for `--escape`).
    package init(_ subscription: RenderedSubscription, shown: (String) -> String) {
        period = subscription.period.iso8601
        pricePerPeriod = shown(subscription.pricePerPeriod)
        offer = subscription.introductoryOfferText.map(shown)
        offerTerms = subscription.introductoryOffer?.description
        offers = subscription.offers
        billingPlans = subscription.billingPlans
        offersSummary = subscription.offers.map { offer in
            let name = offer.kind.outputName + (offer.id.map { " \($0)" } ?? "")
                + (offer.billingPlan.map { " (\($0))" } ?? "")
            return "\(name): \(offer.text.map(shown) ?? offer.offer.description)"
        }.joined(separator: "; ")
        billingPlansSummary = subscription.billingPlans.map { plan in
            "\(plan.type) \(shown(plan.formattedPrice))"
                + (plan.formattedCommitmentPrice.map { " (commitment \(shown($0)))" } ?? "")
        }.joined(separator: "; ")
        paywall = subscription.paywall.map { RenderedPaywallLine(name: $0.name, text: shown($0.text)) }
        paywallSummary = paywall.map { "\($0.name): \($0.text)" }.joined(separator: "; ")
    }
}
