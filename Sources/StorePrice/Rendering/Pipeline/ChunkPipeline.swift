/// Runs a bulk job: chunks of input read on the calling thread, rendered there and, for a job of
/// more than one chunk, by up to `workers - 1` helpers of the process's ``HelperPool``, and
/// handed back on the calling thread in input order.
///
/// A job of one chunk, such as a service's small render, runs on the calling thread alone: no
/// thread is asked for, woken or waited for. Chunks come from ``BulkChunk/reused()`` and go back
/// to it, so their buffers are allocated once per process, not per run.
///
/// ``BulkRenderer`` (catalogs to rows) and ``BulkPriceFormatter`` (`PRICE_LOCALE<TAB>AMOUNT`
/// lines) run on it.
struct ChunkPipeline {
    /// The threads to render on, the calling thread included, up to the processors this process
    /// may use (``ProcessorCount``).
    let workers: Int

    /// What renders chunks on one thread, and what to do when that thread is done with the run.
    struct Worker {
        let render: (BulkChunk) -> Void
        var end: () -> Void = {}
    }

    /// The threads that render for a number of workers, the calling thread included.
    static func threads(for workers: Int) -> Int {
        max(1, min(workers, ProcessorCount.active))
    }

    /// Runs the job.
    ///
    /// - Parameters:
    ///   - own: what renders chunks on this thread.
    ///   - makeHelper: called once on each helper that joins the run, on that helper: what
    ///     renders a chunk there, or nil when it should not (it then renders nothing).
    ///   - read: fills a chunk with the next piece of input; false when nothing follows it.
    ///   - finish: called on this thread with each rendered chunk, in input order; what it
    ///     throws ends the run, after the workers have let go of every chunk.
    ///   - stop: called on this thread when the run ends, before it waits for the helpers (on an
    ///     error, also before it waits for the chunks they hold): work they do before taking
    ///     chunks should end. It may be called twice.
    func run(
        own: Worker,
        makeHelper: @escaping @Sendable () -> Worker?,
        read: (BulkChunk) throws -> Bool,
        finish: (BulkChunk) throws -> Void,
        stop: () -> Void = {}
    ) throws {
        let queue = ChunkQueue()
        var jobs: [HelperPool.Job] = []
        var chunks: [BulkChunk] = []
        var spare: [BulkChunk] = []
        var running: [BulkChunk] = []
        defer {
            stop()
            queue.stop()
            for job in jobs { HelperPool.shared.finish(job) }
            own.end()
            BulkChunk.recycle(chunks)
        }
        /// Asks the pool for the helpers, once the job turns out to have a second chunk.
        func callHelpers() {
            for _ in 1..<Self.threads(for: workers) {
                let job = HelperPool.shared.submit {
                    guard let helper = makeHelper() else { return }
                    defer { helper.end() }
                    while let chunk = queue.take() {
                        helper.render(chunk)
                        queue.markDone(chunk)
                    }
                }
                if let job { jobs.append(job) }
            }
        }
        // Chunks read ahead of the one being written: one per thread that renders and six more,
        // so that the helpers keep rendering while this thread renders a chunk, before it writes
        // the chunks they finished meanwhile. Workers past the threads would only hold more
        // chunks (256 workers on 2 cores held 106 MB on the 7M-row catalog).
        let threads = Self.threads(for: workers)
        var window = 1
        do {
            var more = true
            while true {
                while more, running.count < window {
                    let chunk: BulkChunk
                    if let reused = spare.popLast() {
                        chunk = reused
                    } else {
                        chunk = BulkChunk.reused()
                        chunks.append(chunk)
                    }
                    more = try read(chunk)
                    guard more || chunk.input.count > 0 || !chunk.products.isEmpty || chunk.readFailure != nil else {
                        spare.append(chunk)
                        break
                    }
                    running.append(chunk)
                    queue.submit(chunk)
                    if more, window == 1, threads > 1 {
                        window = threads + 6
                        callHelpers()
                    }
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
                    own.render(chunk)
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
