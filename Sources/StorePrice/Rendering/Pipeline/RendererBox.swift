/// A worker's renderer, lent to one chunk at a time.
///
/// Sendable notes: taken from and returned to a locked list; one thread holds it at a time.
final class RendererBox: @unchecked Sendable {
    var renderer: ChunkRenderer
    /// Whether chunks are JSON Lines rather than CSV.
    let jsonLines: Bool

    init(_ renderer: consuming ChunkRenderer, jsonLines: Bool) {
        self.renderer = renderer
        self.jsonLines = jsonLines
    }

    /// Renders a chunk into its output and results.
    func render(_ chunk: BulkChunk) {
        chunk.output.removeAll()
        chunk.results = ChunkResults()
        if !chunk.products.isEmpty {
            renderer.lineOffset = chunk.firstLine - 1
            renderer.renderProducts(chunk.products, into: &chunk.output, &chunk.results)
        } else if jsonLines {
            renderer.renderJSONLines(chunk.input.bytes, into: &chunk.output, &chunk.results)
        } else {
            renderer.render(chunk.input.bytes, into: &chunk.output, &chunk.results)
        }
    }
}
