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
    ///
    /// - Throws: for a line longer than 1 MiB or not UTF-8, which ends the run: standard input is
    ///   read as catalogs are, line by line in bounded memory.
    func run() throws -> Int {
        var output = OutputBuffer(descriptor: Console.standardOutput, path: nil)
        var formatters: [String: Result<PriceFormatter, StorePriceError>] = [:]
        var failures = 0
        let lines = try LineReader(path: "-", lineHolds: "one price locale and amount")
        while true {
            let next: String?
            do {
                next = try Self.nextLine(lines)
            } catch .invalidCatalog(_, _, _, "not valid UTF-8") {
                // A line that is not UTF-8 is a bad line like any other; the rest go on.
                failures += 1
                output.append("\t\terror: line \(lines.lineNumber): not valid UTF-8")
                output.endLine()
                try output.check()
                continue
            } catch {
                // The lines before a bad one are written before the run ends.
                try output.finish()
                throw error
            }
            guard let line = next else { break }
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            let localeText = String(fields[0])
            let amountText = fields.count > 1 ? String(fields[1]) : ""
            // The fields are echoed for a person to read: nothing in them may act on a terminal.
            output.append(echoed(localeText))
            output.append(byte: UInt8(ascii: "\t"))
            output.append(echoed(amountText))
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
            try output.check()
        }
        try output.finish()
        return failures
    }

    /// A field as echoed back: with `--escape`, every non-ASCII character escaped, as in the
    /// price; otherwise control and bidi-control characters escaped.
    private func echoed(_ field: String) -> String {
        escape ? UnicodeEscaping.escapeNonASCII(field) : UnicodeEscaping.escapeForTerminal(field)
    }

    /// The next line of standard input, with a reading error worded for it.
    private static func nextLine(_ lines: LineReader) throws(StorePriceError) -> String? {
        do {
            return try lines.nextLine()
        } catch .invalidCatalog(let source, let line, let field, "not valid UTF-8") {
            throw .invalidCatalog(source: source, line: line, field: field, reason: "not valid UTF-8")
        } catch .invalidCatalog(_, let line, _, let reason) {
            throw .unreadableFile(path: "standard input", reason: "line \(line ?? lines.lineNumber + 1): \(reason)")
        }
    }
}
