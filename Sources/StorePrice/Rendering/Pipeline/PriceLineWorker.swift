/// One thread's part of a ``BulkPriceFormatter`` run: its formatters and the output of the lines
/// it has seen.
final class PriceLineWorker {
    let options: PriceFormatter.Options
    let escapeNonASCII: Bool
    /// Formatters by price locale as written; past ``formatterLimit`` the table starts over.
    private var formatters: [String: Result<PriceFormatter, StorePriceError>] = [:]
    private var cache = LineCache()
    static let formatterLimit = 1024
    static let emptyLineError = "empty line; expected PRICE_LOCALE<TAB>AMOUNT"

    init(options: PriceFormatter.Options, escapeNonASCII: Bool) {
        self.options = options
        self.escapeNonASCII = escapeNonASCII
    }

    /// Formats a chunk's lines into its output, stopping at a line too long.
    func render(_ chunk: BulkChunk) {
        chunk.output.removeAll()
        chunk.results = ChunkResults()
        var lines = ChunkLines(chunk.input.bytes)
        while let text = lines.next() {
            let line = lines.number
            guard text.count <= LineReader.maximumLineLength else {
                chunk.results.failure = BulkFailure(
                    line: line, field: nil,
                    reason: "longer than \(LineReader.maximumLineLength >> 20) MiB; a line holds one price locale and amount")
                chunk.results.lines = line
                return
            }
            format(text, number: chunk.firstLine - 1 + line, into: &chunk.output, &chunk.results)
            chunk.output.append(byte: UInt8(ascii: "\n"))
        }
        chunk.results.lines = lines.number
    }

    /// Writes one line's answer, without its line break.
    private func format(_ line: UnsafeBufferPointer<UInt8>, number: Int, into output: inout ByteBuffer, _ results: inout ChunkResults) {
        // A line seen before is written as it was then; only a new one is read as text.
        var repeated = false
        _ = cache.lookUp(line) { kept, failed in
            output.append(kept)
            if failed { results.failedLines += 1 }
            repeated = true
        }
        if repeated { return }
        // A line that is not UTF-8 is echoed with each bad byte as U+FFFD.
        let valid = String(validating: line, as: UTF8.self)
        let text = valid ?? String(decoding: line, as: UTF8.self)
        let start = output.count
        let fields = text.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
        let localeText = String(fields[0])
        let amountText = fields.count > 1 ? String(fields[1]) : ""
        output.append(echoed(localeText))
        output.append(byte: UInt8(ascii: "\t"))
        output.append(echoed(amountText))
        output.append(byte: UInt8(ascii: "\t"))
        if valid == nil {
            // A bad line like any other; the rest go on. Its message names its line, so it is
            // not kept.
            results.failedLines += 1
            output.append("error: line \(number): not valid UTF-8")
            return
        }
        var failed = false
        if fields.count != 2 {
            failed = true
            output.append(
                text.isEmpty
                    ? "error: " + Self.emptyLineError
                    : "error: expected PRICE_LOCALE<TAB>AMOUNT, found \(fields.count) field\(fields.count == 1 ? "" : "s")")
        } else {
            do throws(StorePriceError) {
                let formatter = try formatter(for: localeText).get()
                let amount = try Price(amountText, currency: formatter.locale.currency)
                if escapeNonASCII {
                    output.append(UnicodeEscaping.escapeNonASCII(try formatter.format(amount)))
                } else {
                    try formatter.withFormattedUTF8(amount) { output.append($0) }
                }
            } catch {
                failed = true
                output.append("error: " + error.description)
            }
        }
        if failed { results.failedLines += 1 }
        cache.keep(line, output: UnsafeBufferPointer(rebasing: output.bytes[start...]), failed: failed)
    }

    /// The formatter for a price locale as written, or why there is none.
    private func formatter(for localeText: String) -> Result<PriceFormatter, StorePriceError> {
        // Only ASCII text is looked up: Swift's string keys compare by canonical equivalence
        // (the Kelvin sign equals 'K'), and a non-ASCII locale is refused anyway.
        let ascii = localeText.utf8.allSatisfy { $0 < 0x80 }
        if ascii, let known = formatters[localeText] { return known }
        let made = Result { () throws(StorePriceError) in
            try PriceFormatter(locale: PriceLocale(localeText), options: options)
        }
        if ascii {
            if formatters.count >= Self.formatterLimit { formatters.removeAll(keepingCapacity: true) }
            formatters[localeText] = made
        }
        return made
    }

    /// A field as echoed back: with `escapeNonASCII`, every non-ASCII character escaped, as in
    /// the price; otherwise control and bidi-control characters escaped.
    private func echoed(_ field: String) -> String {
        escapeNonASCII ? UnicodeEscaping.escapeNonASCII(field) : UnicodeEscaping.escapeForTerminal(field)
    }
}
