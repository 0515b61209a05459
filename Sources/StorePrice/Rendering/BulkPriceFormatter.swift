#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Formats `PRICE_LOCALE<TAB>AMOUNT` lines in bulk, on every core: `storeprice format --batch`,
/// as a library.
///
/// Each line becomes `PRICE_LOCALE<TAB>AMOUNT<TAB>FORMATTED`, or the two fields and
/// `error: …` for a line that cannot be formatted; the rest go on. Lines come out in input
/// order. The fields are echoed for a person to read: control and bidi-control characters are
/// escaped (`\u{202E}`), and with `escapeNonASCII` every non-ASCII character, as in the price.
///
/// ```swift
/// let formatter = BulkPriceFormatter()
/// let failed = try formatter.formatLines(at: "prices.tsv") { bytes in
///     // The lines of one chunk, in order; `bytes` is valid only during the call.
///     _ = bytes.count
/// }
/// ```
///
/// The input is read in chunks cut at lines; each worker formats its chunk's lines into its own
/// buffer, answering a line it has seen before from the bytes it wrote then, without parsing it
/// or calling ICU.
public struct BulkPriceFormatter: Sendable {
    /// Currency display and rounding.
    public let options: PriceFormatter.Options
    /// Whether formatted prices and echoed fields are written with every non-ASCII character as
    /// `\u{XXXX}`.
    public let escapeNonASCII: Bool
    /// Threads that format at once.
    public let workers: Int

    /// A formatter of lines; nothing is opened until a run starts.
    ///
    /// - Parameters:
    ///   - options: currency display and rounding for every price.
    ///   - escapeNonASCII: write prices and echoed fields with non-ASCII characters escaped.
    ///   - workers: threads to format on; by default one per processor this process may use.
    public init(options: PriceFormatter.Options = .init(), escapeNonASCII: Bool = false, workers: Int = CatalogRenderer.processorCount) {
        self.options = options
        self.escapeNonASCII = escapeNonASCII
        self.workers = max(1, workers)
    }

    /// Formats every line of a file, handing the output lines to `write` in order, a chunk at a
    /// time.
    ///
    /// - Parameters:
    ///   - path: the file; `-` is standard input.
    ///   - write: called on the calling thread with each chunk's lines, each ending with a line
    ///     break; the bytes are valid only during the call. What it throws ends the run.
    /// - Returns: how many lines were answered with an error.
    /// - Throws: ``StorePriceError/unreadableFile(path:reason:)`` when the input cannot be read,
    ///   or for a line longer than 1 MiB, naming it (the lines before it are written); and what
    ///   `write` throws.
    public func formatLines(at path: String, write: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        let reader = try CSVChunkReader(path: path, cut: .lines, lineHolds: "one price locale and amount", countsLines: true)
        if try reader.skipByteOrderMark() {
            try Self.emptyLineAnswer.withUnsafeBytes { try write($0) }
            return 1
        }
        let shown = path == "-" ? "standard input" : path
        var failures = 0
        let options = options
        let escape = escapeNonASCII
        try ChunkPipeline(workers: workers).run(
            makeWorker: {
                let worker = PriceLineWorker(options: options, escapeNonASCII: escape)
                return worker.render
            },
            read: reader.next(into:),
            finish: { chunk in
                // A line too long ends the run after the lines before it.
                if chunk.output.count > 0 { try write(UnsafeRawBufferPointer(chunk.output.bytes)) }
                failures += chunk.results.failedLines
                if let failure = chunk.results.failure ?? chunk.readFailure {
                    let line = chunk.firstLine - 1 + (chunk.results.failure == nil ? chunk.results.lines + 1 : failure.line)
                    throw StorePriceError.unreadableFile(path: shown, reason: "line \(line): \(failure.reason)")
                }
            })
        return failures
    }
}

extension BulkPriceFormatter {
    /// The answer to an empty line, line break included.
    static let emptyLineAnswer = Array("\t\terror: \(PriceLineWorker.emptyLineError)\n".utf8)
}

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
        let input = chunk.input.bytes
        guard let base = input.baseAddress else { return }
        let count = input.count
        var position = 0
        var line = 0
        while position < count {
            line += 1
            let lineStart = position
            var lineEnd = count
            if let newline = memchr(base + position, Int32(UInt8(ascii: "\n")), count - position) {
                lineEnd = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
            }
            position = min(count, lineEnd + 1)
            if lineEnd > lineStart, base[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
            let text = UnsafeBufferPointer(start: base + lineStart, count: lineEnd - lineStart)
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
        chunk.results.lines = line
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
        guard let text = String(validating: line, as: UTF8.self) else {
            // A bad line like any other; the rest go on. Its message names its line, so it is
            // not kept.
            results.failedLines += 1
            output.append("\t\terror: line \(number): not valid UTF-8")
            return
        }
        let start = output.count
        let fields = text.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
        let localeText = String(fields[0])
        let amountText = fields.count > 1 ? String(fields[1]) : ""
        output.append(echoed(localeText))
        output.append(byte: UInt8(ascii: "\t"))
        output.append(echoed(amountText))
        output.append(byte: UInt8(ascii: "\t"))
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
