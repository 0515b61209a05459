#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import StorePrice

/// Formats `PRICE_LOCALE<TAB>AMOUNT` lines from standard input, streaming, in input order.
struct BatchFormatter {
    let options: PriceFormatter.Options
    let escape: Bool

    /// The most distinct price locales kept open at once; past it the table starts over.
    static let formatterLimit = 1024

    /// Formats every line of standard input and returns how many failed.
    func run() -> Int {
        var output = OutputBuffer(descriptor: Console.standardOutput)
        var formatters: [String: Result<PriceFormatter, StorePriceError>] = [:]
        var failures = 0
        while var line = readLine(strippingNewline: true) {
            if line.utf8.last == UInt8(ascii: "\r") { line.removeLast() }
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            let localeText = String(fields[0])
            let amountText = fields.count > 1 ? String(fields[1]) : ""
            output.append(localeText)
            output.append(byte: UInt8(ascii: "\t"))
            output.append(amountText)
            output.append(byte: UInt8(ascii: "\t"))

            guard fields.count == 2 else {
                failures += 1
                output.append(
                    line.isEmpty
                        ? "error: empty line; expected PRICE_LOCALE<TAB>AMOUNT"
                        : "error: expected PRICE_LOCALE<TAB>AMOUNT, found \(fields.count) field\(fields.count == 1 ? "" : "s")")
                output.endLine()
                continue
            }
            let formatter: Result<PriceFormatter, StorePriceError>
            // Only ASCII text is looked up: Swift's string keys compare by canonical equivalence
            // (the Kelvin sign equals 'K'), and a non-ASCII locale is refused anyway.
            if localeText.utf8.allSatisfy({ $0 < 0x80 }), let known = formatters[localeText] {
                formatter = known
            } else {
                formatter = Result { () throws(StorePriceError) in
                    try PriceFormatter(locale: PriceLocale(localeText), options: options)
                }
                if formatters.count >= Self.formatterLimit { formatters.removeAll(keepingCapacity: true) }
                formatters[localeText] = formatter
            }
            do {
                let lineFormatter = try formatter.get()
                let amount = try Price(amountText, currency: lineFormatter.locale.currency)
                if escape {
                    output.append(UnicodeEscaping.escapeNonASCII(try lineFormatter.format(amount)))
                } else {
                    try lineFormatter.withFormattedUTF8(amount) { output.append($0) }
                }
            } catch {
                failures += 1
                output.append("error: " + error.description)
            }
            output.endLine()
        }
        output.flush()
        return failures
    }
}
