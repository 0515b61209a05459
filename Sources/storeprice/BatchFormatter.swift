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
        var cache = LineCache()
        var line: [UInt8] = []
        let lines = try LineReader(path: "-", lineHolds: "one price locale and amount")
        while true {
            // A line seen before is written as it was then; only a new one is read as text.
            var repeated = false
            let more: Bool
            do {
                more = try Self.nextLine(lines) { bytes in
                    repeated = cache.lookUp(bytes) { kept, failed in
                        output.append(kept)
                        if failed { failures += 1 }
                    }
                    if !repeated { line = Array(bytes) }
                }
            } catch {
                try output.finish()
                throw error
            }
            guard more else { break }
            if repeated {
                output.endLine()
                try output.check()
                continue
            }
            let start = output.pendingCount
            let failuresBefore = failures
            guard let text = String(validating: line, as: UTF8.self) else {
                // A line that is not UTF-8 is a bad line like any other; the rest go on. Its
                // message names its line, so it is not kept.
                failures += 1
                output.append("\t\terror: line \(lines.lineNumber): not valid UTF-8")
                output.endLine()
                try output.check()
                continue
            }
            let fields = text.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
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
                    text.isEmpty
                        ? "error: empty line; expected PRICE_LOCALE<TAB>AMOUNT"
                        : "error: expected PRICE_LOCALE<TAB>AMOUNT, found \(fields.count) field\(fields.count == 1 ? "" : "s")")
                cache.keep(line, output: output.pending(from: start), failed: true)
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
            cache.keep(line, output: output.pending(from: start), failed: failures > failuresBefore)
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

    /// The next line of standard input as bytes, with a reading error worded for it; false at
    /// the end.
    private static func nextLine(
        _ lines: LineReader, _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(StorePriceError) -> Bool {
        do {
            return try lines.nextLine(bytes: body)
        } catch .invalidCatalog(_, let line, _, let reason) {
            throw .unreadableFile(path: "standard input", reason: "line \(line ?? lines.lineNumber + 1): \(reason)")
        }
    }
}
