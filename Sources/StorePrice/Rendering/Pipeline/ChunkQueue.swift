/// The chunks of a bulk run waiting for a worker, and which are done.
///
/// The reading thread submits chunks and waits for each, in order; each worker takes the next
/// chunk, renders it and marks it done, until the queue is stopped. Threads that wait sleep on a
/// condition variable, never spin: on two cores, a spinning waiter takes a worker's time.
///
/// Sendable notes: `pending`, `stopping` and every chunk's `isDone` are read and written with the
/// monitor locked.
final class ChunkQueue: @unchecked Sendable {
    private let monitor = ThreadMonitor()
    private var pending: [BulkChunk] = []
    private var next = 0
    private var stopping = false

    init() {}

    /// Queues a chunk for the next free worker.
    func submit(_ chunk: BulkChunk) {
        monitor.lock()
        chunk.isDone = false
        if next > 64 {
            pending.removeFirst(next)
            next = 0
        }
        pending.append(chunk)
        monitor.signal(.ready)
        monitor.unlock()
    }

    /// The next chunk to render; nil once the queue is stopped and empty.
    func take() -> BulkChunk? {
        monitor.lock()
        defer { monitor.unlock() }
        while next == pending.count, !stopping { monitor.wait(.ready) }
        guard next < pending.count else { return nil }
        next += 1
        return pending[next - 1]
    }

    /// The next chunk no worker has taken, without waiting; nil when there is none.
    func takeIfWaiting() -> BulkChunk? {
        monitor.lock()
        defer { monitor.unlock() }
        guard next < pending.count else { return nil }
        next += 1
        return pending[next - 1]
    }

    /// Marks every chunk no worker has taken as done, unrendered, and forgets it.
    func dropWaiting() {
        monitor.lock()
        for chunk in pending[next...] { chunk.isDone = true }
        pending.removeAll()
        next = 0
        monitor.unlock()
    }

    /// Whether a worker has rendered the chunk.
    func isDone(_ chunk: BulkChunk) -> Bool {
        monitor.lock()
        defer { monitor.unlock() }
        return chunk.isDone
    }

    func markDone(_ chunk: BulkChunk) {
        monitor.lock()
        chunk.isDone = true
        monitor.broadcast(.done)
        monitor.unlock()
    }

    /// Waits until a worker has rendered the chunk.
    func wait(for chunk: BulkChunk) {
        monitor.lock()
        while !chunk.isDone { monitor.wait(.done) }
        monitor.unlock()
    }

    /// Lets the workers finish what is queued and return.
    func stop() {
        monitor.lock()
        stopping = true
        monitor.broadcast(.ready)
        monitor.unlock()
    }
}
