/// Rendered rows as a table for people (``TextTable``): `storeprice render --format table`. Held
/// until the end, to align its columns.
package struct RowTable {
    /// Whether formatted prices and StorePrice's wording are shown with non-ASCII escaped.
    package let escape: Bool
    /// Each row's cells.
    private var rows: [[String]] = []
    /// Whether the table's second column holds account names rather than storefront codes.
    private var forAccounts = false
    /// Price locales whose language has no offer wording, for one note at the end.
    package private(set) var localesWithoutWording: Set<String> = []

    package init(escape: Bool) {
        self.escape = escape
    }

    /// Adds a batch's rows.
    package mutating func add(_ batch: RenderedBatch) {
        let batchHasSubscriptions = batch.containsSubscriptions
        let escape = escape
        for position in batch.indices {
            var cells: SubscriptionCells?
            if batchHasSubscriptions, let subscription = batch.renderedSubscription(at: position) {
                if subscription.offers.contains(where: { $0.text == nil }) {
                    localesWithoutWording.insert(batch.target(at: position).priceLocale.identifier)
                }
                cells = SubscriptionCells(subscription) { escape ? UnicodeEscaping.escapeNonASCII($0) : $0 }
            }
            let target = batch.target(at: position)
            forAccounts = forAccounts || target.account != nil
            // The product ID escapes its combining marks and backslashes too: two IDs that
            // differ look different. The table escapes what could move a terminal's cursor.
            rows.append([
                batch.productID(at: position).escapedIDForReport,
                target.account?.name ?? target.storefront.countryCode,
                target.priceLocale.identifier, shown(batch.formatted(at: position)), batch.title(at: position) ?? "",
                cells?.pricePerPeriod ?? "", cells?.offersSummary ?? "", cells?.billingPlansSummary ?? "",
            ])
        }
    }

    /// The table, a header line and a line per row, without a final line break.
    package var text: String {
        TextTable.text(
            header: ["PRODUCT", forAccounts ? "ACCOUNT" : "STOREFRONT", "PRICE LOCALE", "FORMATTED", "TITLE",
                     "PRICE PER PERIOD", "OFFERS", "BILLING PLANS"],
            rows: rows)
    }

    private func shown(_ text: String) -> String {
        escape ? UnicodeEscaping.escapeNonASCII(text) : text
    }
}
