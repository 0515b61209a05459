/// What the calling thread of a bulk run of a CSV catalog does while it waits for a formatter:
/// it formats ahead, with the formatters built so far, the new prices of the chunks read so far
/// (those of the usual shape: see `ChunkRenderer.formatAhead`).
///
/// With two or more worker threads, the first helper builds the formatters of the catalog's first
/// product at the start of a run (see `FormatterCompilation`), one at a time, as ICU's locks
/// require: about 6 ms for the 175 storefronts, in which the calling thread would only wait for
/// each formatter the first product needs. Instead, every 16 formatters built, it goes over the
/// chunks it has read, one chunk each time it would wait, and makes the parts of their (target,
/// amount) pairs whose formatters are built (`ChunkRenderer.formatAhead`); the workers that render
/// those chunks find them made: on the benchmark catalog, about 6,000 of the 35,000 prices the
/// workers would otherwise format once the builds are done. Output is unchanged: a part is the
/// same bytes whoever makes it.
///
/// Sendable notes: made, called and changed on the calling thread only; Sendable so that the
/// calling thread's renderer, made in a Sendable closure, can hold it.
final class FormatAhead: @unchecked Sendable {
    /// A renderer of its own, on the calling thread's worker number: the calling thread's
    /// renderer is waiting, in the middle of a product, when this one runs. Let go once nothing
    /// more is built ahead, with the tables it holds: kept, it held a full generation of tables
    /// for the rest of the run (20M rows with 5,000 amounts per currency peaked 12 MiB higher).
    private var renderer: ChunkRenderer?
    private let compilation: FormatterCompilation
    /// The chunks read and not yet finished, oldest first. Their input does not change once read.
    private var chunks: [BulkChunk] = []
    /// Formatters built when the current round over the chunks began.
    private var builtAtRound = 0
    /// The chunks the current round has yet to go over, counted from the newest.
    private var leftInRound = 0
    /// Prices formatted ahead.
    private(set) var formats = 0

    init(_ renderer: consuming ChunkRenderer, compilation: FormatterCompilation) {
        self.renderer = consume renderer
        self.compilation = compilation
    }

    /// Adds a chunk just read.
    func read(_ chunk: BulkChunk) {
        chunks.append(chunk)
    }

    /// Drops a chunk being finished, the oldest.
    func finished(_ chunk: BulkChunk) {
        if chunks.first === chunk { chunks.removeFirst() }
        if renderer != nil, compilation.isDoneBuildingAhead { renderer = nil }
    }

    /// Formats ahead in one chunk: the next of the current round over the chunks read, a round
    /// beginning when 16 formatters or more were built since the last began. One chunk a call
    /// (up to a millisecond), so that a builder sharing this thread's core waits no longer.
    /// Returns whether it went over a chunk.
    func pass() -> Bool {
        if leftInRound == 0 {
            let built = compilation.builtSoFar
            guard built >= builtAtRound + 16 else { return false }
            builtAtRound = built
            leftInRound = chunks.count
        }
        guard leftInRound > 0, leftInRound <= chunks.count else {
            leftInRound = 0
            return false
        }
        let chunk = chunks[chunks.count - leftInRound]
        leftInRound -= 1
        guard let made = renderer?.formatAhead(chunk.input.bytes) else { return false }
        formats += made
        return true
    }
}
