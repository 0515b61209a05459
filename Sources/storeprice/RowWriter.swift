import StorePrice

/// Writes rendered rows as JSON Lines, a JSON array, CSV or a table, into an ``OutputBuffer``.
struct RowWriter {
    typealias Format = OutputFormat

    let format: Format
    let escape: Bool
    let options: PriceFormatter.Options
    /// Whether CSV cells of catalog text are written exactly, formulas included.
    let rawCSV: Bool
    /// Price locales whose language has no offer wording, for one note at the end.
    private(set) var localesWithoutWording: Set<String> = []
    /// Rows kept for a table, which needs every width before the first line.
    private var tableRows: [[String]] = []
    /// Each target's fixed fields, encoded once, by target index.
    private var fragments: [[UInt8]?] = []
    /// Whether the table's second column holds account names rather than storefront codes.
    private var forAccounts = false
    /// The brackets and commas of a JSON array.
    private var array = JSONArrayFraming()

    init(format: Format, escape: Bool, options: PriceFormatter.Options = .init(), rawCSV: Bool = false) {
        self.format = format
        self.escape = escape
        self.options = options
        self.rawCSV = rawCSV
    }

    /// The CSV header line, as the library's bulk pipeline writes it.
    static let csvHeader = String(decoding: RowLayout.csvHeader.dropLast(), as: UTF8.self)

    mutating func begin(into output: inout OutputBuffer) {
        if format == .csv {
            output.append(Self.csvHeader)
            output.endLine()
        }
    }

    /// The fields fixed by a target, from after the product ID to before the amount.
    private mutating func fragment(for target: RenderTarget, index: Int) -> [UInt8] {
        if index < fragments.count, let known = fragments[index] { return known }
        var bytes = OutputBuffer.Bytes()
        switch format {
        case .jsonl, .json:
            bytes.append(#","storefront":""#)
            bytes.append(target.storefront.alpha3)
            bytes.append(#"","account":"#)
            if let account = target.account { bytes.append(JSONText.quote(account.name)) } else { bytes.append("null") }
            bytes.append(#","price_locale":""#)
            bytes.append(target.priceLocale.identifier)
            bytes.append(#"","amount":""#)
        case .csv:
            bytes.append(",")
            bytes.append(target.storefront.alpha3)
            bytes.append(",")
            bytes.append(Listing.csvCell(target.account?.name ?? "", raw: rawCSV))
            bytes.append(",")
            bytes.append(target.priceLocale.identifier)
            bytes.append(",")
        case .table:
            break
        }
        if fragments.count <= index { fragments += Array(repeating: nil, count: index + 1 - fragments.count) }
        fragments[index] = bytes.storage
        return bytes.storage
    }

    /// The subscription columns of a row, as written.
    private struct SubscriptionCells {
        var period: String
        var pricePerPeriod: String
        var offer: String?
        var offerTerms: String?
        var offers: [RenderedOffer]
        var billingPlans: [RenderedBillingPlan]

        /// Every offer on one line, for CSV and tables: `introductory: 1 week free; promotional
        /// winback: $1.99 for 2 months; introductory (MONTHLY): 2 months free`, with the terms
        /// (`payUpFront:P2M:1.99`) where there is no wording.
        func offersSummary(_ shown: (String) -> String) -> String {
            offers.map { offer in
                let name = offer.kind.outputName + (offer.id.map { " \($0)" } ?? "")
                    + (offer.billingPlan.map { " (\($0))" } ?? "")
                return "\(name): \(offer.text.map(shown) ?? offer.offer.description)"
            }.joined(separator: "; ")
        }

        /// Every billing plan on one line: `MONTHLY $0.50 (commitment $6.00)`.
        func billingPlansSummary(_ shown: (String) -> String) -> String {
            billingPlans.map { plan in
                "\(plan.type) \(shown(plan.formattedPrice))"
                    + (plan.formattedCommitmentPrice.map { " (commitment \(shown($0)))" } ?? "")
            }.joined(separator: "; ")
        }
    }

    /// What rows of products that are not subscriptions end with: written as constant bytes,
    /// since most rows of most catalogs are such rows.
    private static let jsonNoSubscription = Array(
        #","period":null,"price_per_period":null,"offer":null,"offer_terms":null,"offers":null,"billing_plans":null}"#.utf8)
    private static let csvNoSubscription = Array(",,,,,,".utf8)

    mutating func write(_ rows: RenderedBatch, into output: inout OutputBuffer) throws(StorePriceError) {
        let batchHasSubscriptions = rows.containsSubscriptions
        for position in rows.indices {
            let formatted = shown(rows.formatted(at: position))
            var cells: SubscriptionCells?
            if batchHasSubscriptions, let subscription = try rows.subscriptionText(at: position, options: options) {
                if subscription.offers.contains(where: { $0.text == nil }) {
                    localesWithoutWording.insert(rows.target(at: position).priceLocale.identifier)
                }
                cells = SubscriptionCells(
                    period: subscription.period.iso8601, pricePerPeriod: shown(subscription.pricePerPeriod),
                    offer: subscription.introductoryOfferText.map(shown),
                    offerTerms: subscription.introductoryOffer?.description, offers: subscription.offers,
                    billingPlans: subscription.billingPlans)
            }
            switch format {
            case .jsonl, .json:
                if format == .json { output.append(array.beforeObject()) }
                output.append(#"{"product":"#)
                Self.appendJSON(rows.productID(at: position), to: &output)
                output.append(bytes: fragment(for: rows.target(at: position), index: rows.targetIndex(at: position)))
                output.append(rows.amount(at: position))
                output.append(#"","formatted":"#)
                Self.appendJSON(formatted, to: &output)
                output.append(#","title":"#)
                if let title = rows.title(at: position) { Self.appendJSON(title, to: &output) } else { output.append("null") }
                if let cells {
                    output.append(#","period":"#)
                    Self.appendJSON(cells.period, to: &output)
                    output.append(#","price_per_period":"#)
                    Self.appendJSON(cells.pricePerPeriod, to: &output)
                    output.append(#","offer":"#)
                    if let offer = cells.offer { Self.appendJSON(offer, to: &output) } else { output.append("null") }
                    output.append(#","offer_terms":"#)
                    if let terms = cells.offerTerms { Self.appendJSON(terms, to: &output) } else { output.append("null") }
                    output.append(#","offers":["#)
                    for (index, offer) in cells.offers.enumerated() {
                        if index > 0 { output.append(byte: UInt8(ascii: ",")) }
                        appendJSON(offer, to: &output)
                    }
                    output.append(#"],"billing_plans":["#)
                    for (index, plan) in cells.billingPlans.enumerated() {
                        if index > 0 { output.append(byte: UInt8(ascii: ",")) }
                        appendJSON(plan, to: &output)
                    }
                    output.append("]}")
                } else {
                    output.append(bytes: Self.jsonNoSubscription)
                }
                if format == .jsonl { output.endLine() } else { output.endRow() }
            case .csv:
                appendCSV(text: rows.productID(at: position), to: &output)
                output.append(bytes: fragment(for: rows.target(at: position), index: rows.targetIndex(at: position)))
                output.append(rows.amount(at: position))
                output.append(byte: UInt8(ascii: ","))
                Self.appendCSV(formatted: formatted, to: &output)
                output.append(byte: UInt8(ascii: ","))
                appendCSV(text: rows.title(at: position) ?? "", to: &output)
                if let cells {
                    // Generated cells (ICU prices and StorePrice's wording) are written as they
                    // are; the offers cell holds offer IDs from the catalog.
                    for value in [cells.period, cells.pricePerPeriod, cells.offer ?? "", cells.offerTerms ?? ""] {
                        output.append(byte: UInt8(ascii: ","))
                        Self.appendCSV(formatted: value, to: &output)
                    }
                    output.append(byte: UInt8(ascii: ","))
                    appendCSV(text: cells.offersSummary(shown), to: &output)
                    output.append(byte: UInt8(ascii: ","))
                    Self.appendCSV(formatted: cells.billingPlansSummary(shown), to: &output)
                } else {
                    output.append(bytes: Self.csvNoSubscription)
                }
                output.endLine()
            case .table:
                // A table is read on a terminal: catalog text cannot move the cursor or forge a line.
                let target = rows.target(at: position)
                forAccounts = forAccounts || target.account != nil
                tableRows.append([
                    rows.productID(at: position), target.account?.name ?? target.storefront.alpha3,
                    target.priceLocale.identifier, formatted, rows.title(at: position) ?? "",
                    cells?.pricePerPeriod ?? "", cells?.offersSummary(shown) ?? "", cells?.billingPlansSummary(shown) ?? "",
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

    /// An offer as a JSON object: `{"type":"promotional","id":"winback","billing_plan":null,
    /// "payment_mode":"payUpFront","period":"P2M","period_count":1,"price":"1.99","formatted_price":"$1.99",
    /// "text":"$1.99 for 2 months","terms":"payUpFront:P2M:1.99"}`.
    private func appendJSON(_ offer: RenderedOffer, to output: inout OutputBuffer) {
        output.append(#"{"type":""#)
        output.append(offer.kind.outputName)
        output.append(#"","id":"#)
        appendJSONOrNull(offer.id, to: &output)
        output.append(#","billing_plan":"#)
        appendJSONOrNull(offer.billingPlan, to: &output)
        output.append(#","payment_mode":""#)
        output.append(offer.offer.paymentMode.rawValue)
        output.append(#"","period":""#)
        output.append(offer.offer.period.iso8601)
        output.append(#"","period_count":"#)
        output.append(String(offer.offer.periodCount))
        output.append(#","price":"#)
        appendJSONOrNull(offer.offer.price?.amount, to: &output)
        output.append(#","formatted_price":"#)
        appendJSONOrNull(offer.formattedPrice.map(shown), to: &output)
        output.append(#","text":"#)
        appendJSONOrNull(offer.text.map(shown), to: &output)
        output.append(#","terms":"#)
        Self.appendJSON(offer.offer.description, to: &output)
        output.append(byte: UInt8(ascii: "}"))
    }

    /// A billing plan as a JSON object: `{"type":"MONTHLY","price":"0.5","formatted_price":"$0.50",
    /// "commitment_price":"6","formatted_commitment_price":"$6.00"}`.
    private func appendJSON(_ plan: RenderedBillingPlan, to output: inout OutputBuffer) {
        output.append(#"{"type":"#)
        Self.appendJSON(plan.type, to: &output)
        output.append(#","price":""#)
        output.append(plan.price.amount)
        output.append(#"","formatted_price":"#)
        Self.appendJSON(shown(plan.formattedPrice), to: &output)
        output.append(#","commitment_price":"#)
        appendJSONOrNull(plan.commitmentPrice?.amount, to: &output)
        output.append(#","formatted_commitment_price":"#)
        appendJSONOrNull(plan.formattedCommitmentPrice.map(shown), to: &output)
        output.append(byte: UInt8(ascii: "}"))
    }

    private func appendJSONOrNull(_ text: String?, to output: inout OutputBuffer) {
        if let text { Self.appendJSON(text, to: &output) } else { output.append("null") }
    }

    private func shown(_ text: String) -> String {
        escape ? UnicodeEscaping.escapeNonASCII(text) : text
    }

    /// A JSON string literal, as the library writes one.
    static func appendJSON(_ text: String, to output: inout OutputBuffer) {
        output.appendJSON(text)
    }

    /// Appends a cell of catalog text, neutralized as a formula unless `rawCSV`.
    func appendCSV(text: String, to output: inout OutputBuffer) {
        output.append(Listing.csvCell(text, raw: rawCSV))
    }

    /// Appends a cell that StorePrice or ICU wrote, as it is.
    static func appendCSV(formatted text: String, to output: inout OutputBuffer) {
        output.append(Listing.csvCell(formatted: text))
    }
}
