import StorePrice

/// Writes rendered rows as JSON Lines, a JSON array, CSV or a table, into an ``OutputBuffer``.
///
/// JSON Lines and CSV rows are the library's ``RowEncoder``'s bytes, as the bulk pipeline writes
/// them; a JSON array frames the same lines; a table is made here, for people.
struct RowWriter: ~Copyable {
    typealias Format = OutputFormat

    let format: Format
    let escape: Bool
    let options: PriceFormatter.Options
    /// Whether CSV cells of catalog text are written exactly, formulas included.
    let rawCSV: Bool
    private var encoder: RowEncoder
    /// One batch's rows, encoded.
    private var encoded = ByteBuffer(capacity: 1 << 16)
    /// Rows kept for a table, which needs every width before the first line.
    private var tableRows: [[String]] = []
    /// Whether the table's second column holds account names rather than storefront codes.
    private var forAccounts = false
    /// The brackets and commas of a JSON array.
    private var array = JSONArrayFraming()
    /// Price locales whose language has no offer wording, for one note at the end.
    private var tableLocalesWithoutWording: Set<String> = []

    init(format: Format, escape: Bool, options: PriceFormatter.Options = .init(), rawCSV: Bool = false) {
        self.format = format
        self.escape = escape
        self.options = options
        self.rawCSV = rawCSV
        encoder = RowEncoder(format: format == .csv ? .csv : .jsonLines, escapeNonASCII: escape, options: options, rawCSV: rawCSV)
    }

    /// Price locales whose language has no offer wording, for one note at the end.
    var localesWithoutWording: Set<String> { encoder.localesWithoutWording.union(tableLocalesWithoutWording) }

    /// The CSV header line, as the library's bulk pipeline writes it.
    static let csvHeader = String(decoding: RowLayout.csvHeader.dropLast(), as: UTF8.self)

    mutating func begin(into output: inout OutputBuffer) {
        if format == .csv {
            output.append(Self.csvHeader)
            output.endLine()
        }
    }

    mutating func write(_ rows: RenderedBatch, into output: inout OutputBuffer) throws(StorePriceError) {
        switch format {
        case .jsonl, .csv:
            encoded.removeAll()
            try encoder.encode(rows, into: &encoded)
            output.append(encoded.bytes)
            output.endRow()
        case .json:
            encoded.removeAll()
            try encoder.encode(rows, into: &encoded)
            array.frame(encoded.bytes).withUnsafeBufferPointer { output.append($0) }
            output.endRow()
        case .table:
            let batchHasSubscriptions = rows.containsSubscriptions
            let escape = escape
            for position in rows.indices {
                var cells: SubscriptionCells?
                if batchHasSubscriptions, let subscription = rows.renderedSubscription(at: position) {
                    if subscription.offers.contains(where: { $0.text == nil }) {
                        tableLocalesWithoutWording.insert(rows.target(at: position).priceLocale.identifier)
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
    }

    mutating func finish(into output: inout OutputBuffer) {
        if format == .json { output.append(array.end) }
        guard format == .table else { return }
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
