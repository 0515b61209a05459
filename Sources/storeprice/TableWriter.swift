import StorePrice

/// Writes rendered rows as a table for people, into an ``OutputBuffer``: held until the end, to
/// align its columns. JSON Lines, JSON and CSV are the library's bulk pipeline's bytes.
struct TableWriter: ~Copyable {
    /// Whether formatted prices and StorePrice's wording are shown with non-ASCII escaped.
    let escape: Bool
    /// Rows kept for the table, which needs every width before the first line.
    private var tableRows: [[String]] = []
    /// Whether the table's second column holds account names rather than storefront codes.
    private var forAccounts = false
    /// Price locales whose language has no offer wording, for one note at the end.
    private(set) var localesWithoutWording: Set<String> = []

    init(escape: Bool) {
        self.escape = escape
    }

    mutating func write(_ rows: RenderedBatch, into output: inout OutputBuffer) throws(StorePriceError) {
        let batchHasSubscriptions = rows.containsSubscriptions
        let escape = escape
        for position in rows.indices {
            var cells: SubscriptionCells?
            if batchHasSubscriptions, let subscription = rows.renderedSubscription(at: position) {
                if subscription.offers.contains(where: { $0.text == nil }) {
                    localesWithoutWording.insert(rows.target(at: position).priceLocale.identifier)
                }
                cells = SubscriptionCells(subscription) { escape ? UnicodeEscaping.escapeNonASCII($0) : $0 }
            }
            // A table is read on a terminal: catalog text cannot move the cursor or forge a line.
            let target = rows.target(at: position)
            forAccounts = forAccounts || target.account != nil
            // The product ID escapes its combining marks and backslashes too: two IDs that
            // differ look different.
            tableRows.append(
                [rows.productID(at: position).escapedIDForReport]
                    + [
                        target.account?.name ?? target.storefront.countryCode,
                        target.priceLocale.identifier, shown(rows.formatted(at: position)), rows.title(at: position) ?? "",
                        cells?.pricePerPeriod ?? "", cells?.offersSummary ?? "", cells?.billingPlansSummary ?? "",
                    ].map(UnicodeEscaping.escapeForTerminal))
        }
    }

    mutating func finish(into output: inout OutputBuffer) {
        output.append(
            Listing.table(
                header: ["PRODUCT", forAccounts ? "ACCOUNT" : "STOREFRONT", "PRICE LOCALE", "FORMATTED", "TITLE",
                         "PRICE PER PERIOD", "OFFERS", "BILLING PLANS"],
                rows: tableRows))
        output.endLine()
        tableRows.removeAll()
    }

    private func shown(_ text: String) -> String {
        escape ? UnicodeEscaping.escapeNonASCII(text) : text
    }
}
