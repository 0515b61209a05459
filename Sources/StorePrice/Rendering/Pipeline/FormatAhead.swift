/// What the calling thread of a bulk run does while it waits for a formatter: it formats ahead,
/// with the formatters built so far, the new prices of the chunks read so far.
///
/// With two or more workers, the first helper builds the formatters of the catalog's first
/// product at the start of a run (see `FormatterCompilation`), one at a time, as ICU's locks
/// require: about 6 ms for the 175 storefronts, in which the calling thread would only wait for
/// each formatter the first product needs. Instead, every 16 formatters built, it makes the parts
/// of the (target, amount) pairs of the chunks it has read whose formatters are built
/// (`ChunkRenderer.formatAhead`), and the workers that render those chunks find them made: on the
/// benchmark catalog, thousands of the prices that the workers would otherwise format once the
/// builds are done. Output is unchanged: a part is the same bytes whoever makes it.
///
/// Sendable notes: made, called and changed on the calling thread only; Sendable so that the
/// calling thread's renderer, made in a Sendable closure, can hold it.
final class FormatAhead: @unchecked Sendable {
    /// A renderer of its own, on the calling thread's worker number: the calling thread's
    /// renderer is waiting, in the middle of a product, when this one runs.
    private var renderer: ChunkRenderer
    private let compilation: FormatterCompilation
    /// The chunks read and not yet finished, oldest first. Their input does not change once read.
    private var chunks: [BulkChunk] = []
    /// Formatters built at the last pass over the chunks.
    private var builtAtLastPass = 0
    /// Prices formatted ahead.
    private(set) var formats = 0

    init(_ renderer: consuming ChunkRenderer, compilation: FormatterCompilation) {
        self.renderer = renderer
        self.compilation = compilation
    }

    /// Adds a chunk just read.
    func read(_ chunk: BulkChunk) {
        chunks.append(chunk)
    }

    /// Drops a chunk being finished, the oldest.
    func finished(_ chunk: BulkChunk) {
        if chunks.first === chunk { chunks.removeFirst() }
    }

    /// Formats ahead over the chunks when 16 formatters or more were built since the last pass;
    /// returns whether it formatted any price.
    func pass() -> Bool {
        let built = compilation.builtSoFar
        guard built >= builtAtLastPass + 16 else { return false }
        builtAtLastPass = built
        var made = 0
        for chunk in chunks { made += renderer.formatAhead(chunk.input.bytes) }
        formats += made
        return made > 0
    }
}
