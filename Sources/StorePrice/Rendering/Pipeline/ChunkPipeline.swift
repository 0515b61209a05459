/// Runs a bulk job on every core: chunks of input read on the calling thread, rendered on up to
/// `workers` threads (the calling thread among them, between reading and writing; the others are
/// ``WorkerThread``s), and handed back on the calling thread in input order.
///
/// ``BulkRenderer`` (catalogs to rows) and ``BulkPriceFormatter`` (`PRICE_LOCALE<TAB>AMOUNT`
/// lines) run on it.
struct ChunkPipeline {
    /// The threads to render on, the calling thread included, up to the processors this process
    /// may use (``ProcessorCount``).
    let workers: Int

    /// The threads that render for a number of workers, the calling thread included.
    static func threads(for workers: Int) -> Int {
        max(1, min(workers, ProcessorCount.active))
    }

    /// Runs the job.
    ///
    /// - Parameters:
    ///   - makeWorker: called once on each thread that renders, on that thread: what renders a
    ///     chunk there (its input into its output and results).
    ///   - read: fills a chunk with the next piece of input; false when nothing follows it.
    ///   - finish: called on this thread with each rendered chunk, in input order; what it
    ///     throws ends the run, after the workers have let go of every chunk.
    ///   - stop: called on this thread when the run ends, before it waits for the other workers
    ///     (on an error, also before it waits for the chunks they hold): work they do before
    ///     taking chunks should end. It may be called twice.
    func run(
        makeWorker: @escaping @Sendable () -> (BulkChunk) -> Void,
        read: (BulkChunk) throws -> Bool,
        finish: (BulkChunk) throws -> Void,
        stop: () -> Void = {}
    ) throws {
        let own = makeWorker()
        let queue = ChunkQueue()
        // No more threads than the processors this process may use: on 2 cores, 8 threads took
        // 99 ms for the benchmark catalog where 2 took 73. A helper the system cannot start is
        // done without: this thread renders what is queued.
        let helpers = (1..<Self.threads(for: workers)).compactMap { _ in
            WorkerThread {
                let render = makeWorker()
                while let chunk = queue.take() {
                    render(chunk)
                    queue.markDone(chunk)
                }
            }
        }
        defer {
            stop()
            queue.stop()
            for helper in helpers { helper.join() }
        }
        var spare: [BulkChunk] = []
        var running: [BulkChunk] = []
        // Chunks read ahead of the one being written: one per thread that renders and six more,
        // so that the helpers keep rendering while this thread renders a chunk, before it writes
        // the chunks they finished meanwhile. Workers past the threads would only hold more
        // chunks (256 workers on 2 cores held 106 MB on the 7M-row catalog).
        let threads = helpers.count + 1
        let window = threads == 1 ? 1 : threads + 6
        do {
            var more = true
            while true {
                while more, running.count < window {
                    let chunk = spare.popLast() ?? BulkChunk()
                    more = try read(chunk)
                    guard more || chunk.input.count > 0 || !chunk.products.isEmpty || chunk.readFailure != nil else { break }
                    running.append(chunk)
                    queue.submit(chunk)
                }
                // Whatever is done is handed back, in order.
                while let head = running.first, queue.isDone(head) {
                    running.removeFirst()
                    try finish(head)
                    spare.append(head)
                }
                guard !running.isEmpty else {
                    if more { continue }
                    break
                }
                // Then this thread renders the next waiting chunk, or waits for the first.
                if let chunk = queue.takeIfWaiting() {
                    own(chunk)
                    queue.markDone(chunk)
                } else if let head = running.first {
                    queue.wait(for: head)
                }
            }
        } catch {
            // Chunks no worker has taken are dropped; workers still hold the others: wait for
            // them before the chunks go.
            queue.dropWaiting()
            stop()
            for chunk in running { queue.wait(for: chunk) }
            throw error
        }
    }
}
