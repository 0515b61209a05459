/// One piece of a catalog, cut at a product boundary, and what a worker made of it: bytes of a
/// CSV or JSON Lines file, or products already in memory.
///
/// Sendable notes: the reading thread fills `input` and hands the chunk to one worker; the worker
/// writes the results; the reading thread reads them after the worker has signalled `done`. No
/// two threads touch a chunk at once.
final class BulkChunk: @unchecked Sendable {
    var input = ByteBuffer(capacity: BulkRenderer.chunkSize * 2)
    /// Products in memory, in place of `input`: each counts as a line.
    var products: ArraySlice<Product> = []
    var output = ByteBuffer(capacity: BulkRenderer.chunkSize * 8)
    /// A reading failure found at the line after `input`'s lines, such as a line too long.
    var readFailure: BulkFailure?
    /// How far into the file `input` ends, in bytes, or the products read so far.
    var fileOffset = 0
    /// The file's size in bytes, or the number of products, when known.
    var total: Int?
    /// The number of `input`'s first line in the file, when the reader counts lines.
    var firstLine = 1

    var results = ChunkResults()
    /// Whether a worker has rendered it: read and written under the ``ChunkQueue``'s lock.
    var isDone = false

    /// Chunks runs have finished with, for the next runs: a chunk's buffers (about 320 KiB) are
    /// allocated once per process rather than once per run.
    private static let spare = Locked<[BulkChunk]>([])
    /// The most chunks kept: two runs' worth on 8 threads.
    static let spareLimit = 32

    /// A chunk a run finished with, emptied, or a new one.
    static func reused() -> BulkChunk {
        spare.withLock { $0.popLast() } ?? BulkChunk()
    }

    /// Keeps chunks for the next runs, up to ``spareLimit``, but for one whose buffers grew past
    /// four times their usual size (a product of many MiB); no worker may hold them any more.
    static func recycle(_ chunks: [BulkChunk]) {
        let kept = chunks.filter { chunk in
            chunk.input.capacity <= BulkRenderer.chunkSize * 8 && chunk.output.capacity <= BulkRenderer.chunkSize * 32
        }
        for chunk in kept {
            chunk.input.removeAll()
            chunk.output.removeAll()
            chunk.products = []
            chunk.readFailure = nil
            chunk.results = ChunkResults()
            chunk.isDone = false
            chunk.fileOffset = 0
            chunk.total = nil
            chunk.firstLine = 1
        }
        spare.withLock { spare in
            spare.append(contentsOf: kept.prefix(max(0, spareLimit - spare.count)))
        }
    }
}

/// What a worker made of a chunk, besides its rows.
struct ChunkResults {
    /// Lines in the chunk's input, empty ones included.
    var lines = 0
    /// Every product run, with its first line counted from 1 within the input.
    var products: [(id: String, line: Int)] = []
    var invalid: [InvalidProduct] = []
    /// The first line that cannot be used; rendering stopped there.
    var failure: BulkFailure?
    var rows = 0
    var renderedProducts = 0
    var formats = 0
    /// Lines answered with an error (``BulkPriceFormatter``).
    var failedLines = 0
    /// Price locales whose language has no offer wording, in rows encoded by ``RowEncoder``.
    var localesWithoutWording: Set<String> = []
    /// The rows, in a run that hands rows as values.
    var batch: RenderedBatch?
    /// The products read, in a catalog reader's run (``BulkPlan/readsProducts``).
    var read: [Product] = []
}

/// A line of a chunk that cannot be used: its number within the chunk, and the field and reason
/// for ``StorePriceError/invalidCatalog(source:line:field:reason:)``; or an error of the
/// catalog readers or of rows made as values, whose line (when it names one) is counted within
/// the chunk.
struct BulkFailure: Sendable {
    var line: Int
    var field: String?
    var reason: String
    var error: StorePriceError?

    init(line: Int, field: String?, reason: String) {
        self.line = line
        self.field = field
        self.reason = reason
    }

    /// An error kept as it is, whatever line it names: a product in memory's, whose line (if
    /// any) is in the file it was read from.
    init(keeping error: StorePriceError) {
        self.init(line: 0, field: nil, reason: "")
        self.error = error
    }

    init(_ error: StorePriceError) {
        if case .invalidCatalog(_, let line?, let field, let reason) = error {
            self.init(line: line, field: field, reason: reason)
        } else {
            self.init(line: 0, field: nil, reason: "")
            self.error = error
        }
    }
}
