/// Store text inside UI text: a formatted price placed into a string of the device's language.
///
/// The price keeps the store's formatting; only the text around it follows the device. When the
/// two are written in different directions (an Arabic store price in English text, or a dollar
/// price in Arabic text), the price is wrapped in Unicode bidi isolates, U+2068 FIRST STRONG
/// ISOLATE and U+2069 POP DIRECTIONAL ISOLATE, so that neither reorders the other.
///
/// ```swift
/// let store = try PriceLocale("ar_AE@currency=AED")
/// let price = try PriceFormatter(locale: store).format(amount: "9.99")
/// try PriceLabel.render("Buy %@", price: price, priceLocale: store, uiLocale: "en_US")
/// // "Buy \u{2068}\u{200F}9.99\u{00A0}د.إ.\u{200F}\u{2069}"
/// ```
public enum PriceLabel {
    /// Replaces the one `%@` in `template` with `price`, isolating it when directions differ.
    ///
    /// - Parameters:
    ///   - template: UI text with exactly one `%@`; `%%` stands for a literal `%`.
    ///   - price: the price as the store formatted it.
    ///   - priceLocale: the price locale the price was formatted in.
    ///   - uiLocale: the locale of the UI text, such as `en_GB` or `ar_SA`.
    /// - Throws: ``StorePriceError/invalidLabel(_:reason:)`` when the template has no `%@`, more
    ///   than one, or another `%` directive; ``StorePriceError/unsupportedLocale(_:reason:)`` for a
    ///   UI locale ICU has no data for.
    public static func render(_ template: String, price: String, priceLocale: PriceLocale, uiLocale: String)
        throws(StorePriceError) -> String
    {
        let ui = try LocaleSubtags(parsing: uiLocale, source: uiLocale)
        let isolate = ui.isRightToLeft != priceLocale.subtags.isRightToLeft
        let inserted = isolate ? "\u{2068}" + price + "\u{2069}" : price

        var output = ""
        var placed = false
        var iterator = template.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "%" else {
                output.unicodeScalars.append(scalar)
                continue
            }
            switch iterator.next() {
            case "%":
                output += "%"
            case "@":
                guard !placed else { throw .invalidLabel(template, reason: "has more than one %@") }
                placed = true
                output += inserted
            default:
                throw .invalidLabel(template, reason: "has a '%' that is neither %@ nor %%")
            }
        }
        guard placed else { throw .invalidLabel(template, reason: "has no %@ for the price") }
        return output
    }
}
