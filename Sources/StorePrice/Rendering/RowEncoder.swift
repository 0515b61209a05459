/// Encodes rendered rows as JSON Lines or CSV: the rows `storeprice render` writes, byte for
/// byte, for every kind of product (subscriptions, offers and billing plans included).
///
/// The bulk pipeline writes rows of products without a subscription from cached parts
/// (``RowLayout``) and makes every other product (a subscription, or a price the options cannot
/// show) into rows as values for this encoder, which copies the same parts and adds the
/// subscription's fields.
package struct RowEncoder {
    package let format: BulkRenderer.Format
    /// Formatted prices and StorePrice's wording with every non-ASCII character as `\u{XXXX}`.
    package let escapeNonASCII: Bool
    package let options: PriceFormatter.Options
    /// CSV cells of catalog text written exactly, formulas included.
    package let rawCSV: Bool
    /// Price locales whose language has no offer wording, for one note at the end.
    package private(set) var localesWithoutWording: Set<String> = []

    /// Starts another run: no locale is without wording yet.
    mutating func forgetLocalesWithoutWording() {
        localesWithoutWording = []
    }
    /// Each target's fixed fields, encoded once, by target index.
    private var fragments: [[UInt8]?] = []

    /// The parts of a row fixed by its product, target and price, and the end of a row without a
    /// subscription: the bulk pipeline's own encoding.
    private let layout: RowLayout
    /// Each price's part (`0.99","formatted":"$0.99"`), by its slot in the run's price store.
    private var priceParts: [[UInt8]?] = []
    /// The store `priceParts` refers to: a new run's store starts them over.
    private var priceStore: PriceStore?

    package init(format: BulkRenderer.Format, escapeNonASCII: Bool, options: PriceFormatter.Options, rawCSV: Bool) {
        self.format = format
        self.escapeNonASCII = escapeNonASCII
        self.options = options
        self.rawCSV = rawCSV
        layout = RowLayout(format: format, targets: [], escapeNonASCII: escapeNonASCII, rawCSV: rawCSV)
    }

    /// Appends every row of a batch, each ending with a line break.
    ///
    /// A row's product, target and price parts and the end of a row without a subscription are
    /// ``RowLayout``'s, each encoded once and copied into every row that shows it; a
    /// subscription's fields are encoded here.
    package mutating func encode(_ rows: RenderedBatch, into output: inout ByteBuffer) throws(StorePriceError) {
        if priceStore !== rows.store {
            priceStore = rows.store
            priceParts.removeAll()
        }
        var product: Int32 = -1
        var productPart: [UInt8] = []
        // Each title's end of row, by its index in the batch's titles.
        var titleSuffixes: [Int32: [UInt8]] = [:]
        for position in rows.indices {
            let entry = rows.entries[position]
            if entry.product != product {
                product = entry.product
                productPart = layout.productPart(rows.products[Int(product)].id)
            }
            output.append(productPart)
            output.append(fragment(for: rows.targets[Int(entry.target)], index: Int(entry.target)))
            output.append(pricePart(of: rows, at: position, slot: entry.price))
            guard let subscription = rows.renderedSubscription(at: position) else {
                if entry.title < 0 {
                    output.append(layout.suffix)
                } else if let known = titleSuffixes[entry.title] {
                    output.append(known)
                } else {
                    let suffix = layout.suffix(title: rows.titles[Int(entry.title)])
                    titleSuffixes[entry.title] = suffix
                    output.append(suffix)
                }
                continue
            }
            if subscription.offers.contains(where: { $0.text == nil }) {
                localesWithoutWording.insert(rows.target(at: position).priceLocale.identifier)
            }
            let cells = SubscriptionCells(subscription, shown: shown)
            switch format {
            case .jsonLines, .json:
                output.append(RowField.title.jsonKey)
                appendJSONOrNull(rows.title(at: position), to: &output)
                output.append(RowField.period.jsonKey)
                output.appendJSONQuoted(cells.period)
                output.append(RowField.pricePerPeriod.jsonKey)
                output.appendJSONQuoted(cells.pricePerPeriod)
                output.append(RowField.offer.jsonKey)
                appendJSONOrNull(cells.offer, to: &output)
                output.append(RowField.offerTerms.jsonKey)
                appendJSONOrNull(cells.offerTerms, to: &output)
                output.append(RowField.offers.jsonKey)
                output.append(byte: UInt8(ascii: "["))
                for (index, offer) in cells.offers.enumerated() {
                    if index > 0 { output.append(byte: UInt8(ascii: ",")) }
                    appendJSON(offer, to: &output)
                }
                output.append(byte: UInt8(ascii: "]"))
                output.append(RowField.billingPlans.jsonKey)
                output.append(byte: UInt8(ascii: "["))
                for (index, plan) in cells.billingPlans.enumerated() {
                    if index > 0 { output.append(byte: UInt8(ascii: ",")) }
                    appendJSON(plan, to: &output)
                }
                output.append(byte: UInt8(ascii: "]"))
                output.append(RowField.paywall.jsonKey)
                output.append(byte: UInt8(ascii: "{"))
                for (index, line) in cells.paywall.enumerated() {
                    if index > 0 { output.append(byte: UInt8(ascii: ",")) }
                    output.appendJSONQuoted(line.name)
                    output.append(byte: UInt8(ascii: ":"))
                    output.appendJSONQuoted(line.text)
                }
                output.append("}}")
            case .csv:
                output.append(byte: UInt8(ascii: ","))
                output.append(CSVText.cell(rows.title(at: position) ?? "", raw: rawCSV))
                // Generated cells (ICU prices and StorePrice's wording) are written as they
                // are; the offers cell holds offer IDs from the catalog.
                for value in [cells.period, cells.pricePerPeriod, cells.offer ?? "", cells.offerTerms ?? ""] {
                    output.append(byte: UInt8(ascii: ","))
                    output.append(CSVText.cell(value, raw: true))
                }
                output.append(byte: UInt8(ascii: ","))
                output.append(CSVText.cell(cells.offersSummary, raw: rawCSV))
                output.append(byte: UInt8(ascii: ","))
                output.append(CSVText.cell(cells.billingPlansSummary, raw: true))
                output.append(byte: UInt8(ascii: ","))
                output.append(CSVText.cell(cells.paywallSummary, raw: true))
            }
            output.append(byte: UInt8(ascii: "\n"))
        }
    }

    /// The price part of row `position`, encoded once per price in the run's store.
    private mutating func pricePart(of rows: RenderedBatch, at position: Int, slot: Int32) -> [UInt8] {
        guard slot >= 0 else { return layout.pricePart(amount: rows.amount(at: position), formatted: rows.formatted(at: position)) }
        let index = Int(slot)
        if index < priceParts.count, let known = priceParts[index] { return known }
        let part = layout.pricePart(amount: rows.amount(at: position), formatted: rows.formatted(at: position))
        if priceParts.count <= index { priceParts += Array(repeating: nil, count: max(index + 1 - priceParts.count, priceParts.count)) }
        priceParts[index] = part
        return part
    }

    /// The fields fixed by a target, from after the product ID to before the amount.
    private mutating func fragment(for target: RenderTarget, index: Int) -> [UInt8] {
        if index < fragments.count, let known = fragments[index] { return known }
        let fragment = RowLayout.targetPart(target, format: format, rawCSV: rawCSV)
        if fragments.count <= index { fragments += Array(repeating: nil, count: index + 1 - fragments.count) }
        fragments[index] = fragment
        return fragment
    }

    /// An offer as a JSON object, in ``RenderedOffer``'s keys: `{"type":"promotional","id":"winback",
    /// "billing_plan":null,"payment_mode":"payUpFront","period":"P2M","period_count":1,"price":"1.99",
    /// "formatted_price":"$1.99","text":"$1.99 for 2 months","terms":"payUpFront:P2M:1.99"}`.
    private func appendJSON(_ offer: RenderedOffer, to output: inout ByteBuffer) {
        typealias Key = RenderedOffer.CodingKeys
        output.append(Key.type.jsonKey(first: true))
        output.appendJSONQuoted(offer.kind.outputName)
        output.append(Key.id.jsonKey())
        appendJSONOrNull(offer.id, to: &output)
        output.append(Key.billingPlan.jsonKey())
        appendJSONOrNull(offer.billingPlan, to: &output)
        output.append(Key.paymentMode.jsonKey())
        output.appendJSONQuoted(offer.offer.paymentMode.rawValue)
        output.append(Key.period.jsonKey())
        output.appendJSONQuoted(offer.offer.period.iso8601)
        output.append(Key.periodCount.jsonKey())
        output.append(String(offer.offer.periodCount))
        output.append(Key.price.jsonKey())
        appendJSONOrNull(offer.offer.price?.amount, to: &output)
        output.append(Key.formattedPrice.jsonKey())
        appendJSONOrNull(offer.formattedPrice.map(shown), to: &output)
        output.append(Key.text.jsonKey())
        appendJSONOrNull(offer.text.map(shown), to: &output)
        output.append(Key.terms.jsonKey())
        output.appendJSONQuoted(offer.offer.description)
        output.append(byte: UInt8(ascii: "}"))
    }

    /// A billing plan as a JSON object, in ``RenderedBillingPlan``'s keys: `{"type":"MONTHLY",
    /// "price":"0.5","formatted_price":"$0.50","commitment_price":"6","formatted_commitment_price":"$6.00"}`.
    private func appendJSON(_ plan: RenderedBillingPlan, to output: inout ByteBuffer) {
        typealias Key = RenderedBillingPlan.CodingKeys
        output.append(Key.type.jsonKey(first: true))
        output.appendJSONQuoted(plan.type)
        output.append(Key.price.jsonKey())
        output.appendJSONQuoted(plan.price.amount)
        output.append(Key.formattedPrice.jsonKey())
        output.appendJSONQuoted(shown(plan.formattedPrice))
        output.append(Key.commitmentPrice.jsonKey())
        appendJSONOrNull(plan.commitmentPrice?.amount, to: &output)
        output.append(Key.formattedCommitmentPrice.jsonKey())
        appendJSONOrNull(plan.formattedCommitmentPrice.map(shown), to: &output)
        output.append(byte: UInt8(ascii: "}"))
    }

    private func appendJSONOrNull(_ text: String?, to output: inout ByteBuffer) {
        if let text { output.appendJSONQuoted(text) } else { output.append("null") }
    }

    private func shown(_ text: String) -> String {
        escapeNonASCII ? UnicodeEscaping.escapeNonASCII(text) : text
    }
}
