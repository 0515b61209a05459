/// How a rendered row of a product without a title or subscription is written, in bytes: the
/// parts fixed by the format, by the target, by the (price locale, amount) pair and by the product.
///
/// A row is `productPart + targetPart + pricePart + suffix`:
///
/// - JSON Lines: `{"product":"com.example.a"` `,"storefront":"USA","account":null,
///   "price_locale":"en_US@currency=USD","amount":"` `0.99","formatted":"$0.99"`
///   `,"title":null,"period":null,…,"paywall":null}` and a newline;
/// - CSV: `com.example.a` `,USA,,en_US@currency=USD,` `0.99,$0.99` `,,,,,,,,` and a newline.
///
/// These are the bytes `storeprice render` writes for such rows through ``CatalogRenderer``, and
/// its tests pin them by checksum.
package struct RowLayout: Sendable {
    let format: BulkRenderer.Format
    /// Formatted prices with every non-ASCII character written `\u{XXXX}`.
    let escapeNonASCII: Bool
    /// CSV cells of catalog text written exactly, formulas included.
    let rawCSV: Bool
    /// Each target's part, by target index.
    let targetParts: [[UInt8]]
    /// Everything after the formatted price, newline included.
    let suffix: [UInt8]

    /// The CSV header line, newline included.
    package static let csvHeader = RowField.csvHeader

    init(format: BulkRenderer.Format, targets: [RenderTarget], escapeNonASCII: Bool, rawCSV: Bool) {
        self.format = format
        self.escapeNonASCII = escapeNonASCII
        self.rawCSV = rawCSV
        targetParts = targets.map { Self.targetPart($0, format: format, rawCSV: rawCSV) }
        switch format {
        case .jsonLines, .json:
            suffix = Array((RowField.title.jsonKey + "null").utf8) + Self.jsonNoSubscription
        case .csv:
            // The title and each subscription field, empty.
            suffix = Array((String(repeating: ",", count: 1 + RowField.subscriptionFields.count) + "\n").utf8)
        }
    }

    /// What ends a row of a product without a subscription, for its title (`,"title":"Level 1",
    /// "period":null,…}` and a line break).
    func suffix(title: String?) -> [UInt8] {
        guard let title else { return suffix }
        switch format {
        case .jsonLines, .json:
            var bytes = Array(RowField.title.jsonKey.utf8)
            JSONText.appendQuoted(title, to: &bytes)
            bytes.append(contentsOf: Self.jsonNoSubscription)
            return bytes
        case .csv:
            return Array(
                ("," + CSVText.cell(title, raw: rawCSV) + String(repeating: ",", count: RowField.subscriptionFields.count) + "\n").utf8)
        }
    }

    private static let jsonNoSubscription = Array(RowField.jsonWithoutSubscription.utf8) + [UInt8(ascii: "\n")]

    /// A target's part of its rows: the fields from after the product ID to before the amount.
    static func targetPart(_ target: RenderTarget, format: BulkRenderer.Format, rawCSV: Bool) -> [UInt8] {
        switch format {
        case .jsonLines, .json:
            var part = RowField.storefront.jsonKey + "\"" + target.storefront.countryCode + "\"" + RowField.account.jsonKey
            part += target.account.map { JSONText.quote($0.name) } ?? "null"
            part += RowField.priceLocale.jsonKey + "\"" + target.priceLocale.identifier + "\"" + RowField.amount.jsonKey + "\""
            return Array(part.utf8)
        case .csv:
            return Array(("," + target.storefront.countryCode + "," + CSVText.cell(target.account?.name ?? "", raw: rawCSV) + ","
                + target.priceLocale.identifier + ",").utf8)
        }
    }

    /// Writes the product's part for an ID given as UTF-8: the bytes themselves when they need no
    /// escaping, quoting or neutralizing, else ``productPart(_:)``.
    func writeProductPart(_ id: UnsafeBufferPointer<UInt8>, into buffer: inout ByteBuffer) {
        guard let base = id.baseAddress else { return buffer.append(productPart("")) }
        switch format {
        case .jsonLines, .json:
            if JSONText.isPlain(id) {
                buffer.append(Self.jsonProductKey)
                buffer.append(base, count: id.count)
                buffer.append(byte: UInt8(ascii: "\""))
                return
            }
        case .csv:
            let formulaLike = CSVText.startsLikeAFormula(first: id.first, second: id.count > 1 ? id[1] : nil)
            if !formulaLike || rawCSV, !CSVText.needsQuotes(id) {
                buffer.append(base, count: id.count)
                return
            }
        }
        buffer.append(productPart(String(decoding: id, as: UTF8.self)))
    }

    private static let jsonProductKey = Array((RowField.product.jsonKey + "\"").utf8)

    /// The product's part: `{"product":"ID"` or the ID's CSV cell.
    func productPart(_ id: String) -> [UInt8] {
        switch format {
        case .jsonLines, .json: Array((RowField.product.jsonKey + JSONText.quote(id)).utf8)
        case .csv: Array(CSVText.cell(id, raw: rawCSV).utf8)
        }
    }

    /// The (price locale, amount) pair's part: `0.99","formatted":"$0.99"` or `0.99,$0.99`.
    func pricePart(amount: String, formatted: String) -> [UInt8] {
        let shown = escapeNonASCII ? UnicodeEscaping.escapeNonASCII(formatted) : formatted
        var bytes: [UInt8] = []
        bytes.reserveCapacity(amount.utf8.count + shown.utf8.count + 24)
        bytes.append(contentsOf: amount.utf8)
        switch format {
        case .jsonLines, .json:
            bytes.append(contentsOf: Self.formattedKey)
            JSONText.appendQuoted(shown, to: &bytes)
        case .csv:
            bytes.append(UInt8(ascii: ","))
            bytes.append(contentsOf: CSVText.cell(shown, raw: true).utf8)
        }
        return bytes
    }

    /// Appends the pair's part, the same bytes as ``pricePart(amount:formatted:)``, for a
    /// formatted price given as UTF-8, without building a string: its bytes as they are when they
    /// need no escaping, and in CSV, quoted with each quote doubled when they need quoting (a
    /// price with a comma, such as `$1,100.00`).
    func appendPricePart(amount: String, formatted: UnsafeBufferPointer<UInt8>, into buffer: inout ByteBuffer) {
        guard let base = formatted.baseAddress, !escapeNonASCII else {
            return buffer.append(pricePart(amount: amount, formatted: String(decoding: formatted, as: UTF8.self)))
        }
        switch format {
        case .jsonLines, .json:
            guard JSONText.isPlain(formatted) else { break }
            buffer.append(amount)
            buffer.append(Self.formattedKey)
            buffer.append(byte: UInt8(ascii: "\""))
            buffer.append(base, count: formatted.count)
            buffer.append(byte: UInt8(ascii: "\""))
            return
        case .csv:
            buffer.append(amount)
            buffer.append(byte: UInt8(ascii: ","))
            CSVText.appendRawCell(formatted, to: &buffer)
            return
        }
        buffer.append(pricePart(amount: amount, formatted: String(decoding: formatted, as: UTF8.self)))
    }

    private static let formattedKey = Array(("\"" + RowField.formatted.jsonKey).utf8)
}
