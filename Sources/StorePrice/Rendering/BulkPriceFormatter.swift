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
    /// Threads that format at once, up to the processors this process may use (see
    /// ``BulkRenderer/workers``).
    public let workers: Int

    /// A formatter of lines; nothing is opened until a run starts.
    ///
    /// - Parameters:
    ///   - options: currency display and rounding for every price.
    ///   - escapeNonASCII: write prices and echoed fields with non-ASCII characters escaped.
    ///   - workers: threads to format on; by default one per processor this process may use, the
    ///     most a run starts (see ``BulkRenderer/workers``).
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
        let reader = try ChunkReader(path: path, cut: .lines, lineHolds: "one price locale and amount", countsLines: true)
        if try reader.skipByteOrderMark() {
            try Self.emptyLineAnswer.withUnsafeBytes { try write($0) }
            return 1
        }
        let shown = path == "-" ? "standard input" : path
        var failures = 0
        let options = options
        let escape = escapeNonASCII
        try ChunkPipeline(workers: workers).run(
            own: .init(render: PriceLineWorker(options: options, escapeNonASCII: escape).render),
            makeHelper: { .init(render: PriceLineWorker(options: options, escapeNonASCII: escape).render) },
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
