#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The chunks of a bulk run waiting for a worker, and which are done.
///
/// The reading thread submits chunks and waits for each, in order; each worker takes the next
/// chunk, renders it and marks it done, until the queue is stopped. Threads that wait sleep on a
/// condition variable, never spin: on two cores, a spinning waiter takes a worker's time.
///
/// Sendable notes: `pending`, `stopping` and every chunk's `isDone` are read and written with the
/// mutex held.
final class ChunkQueue: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let workReady: UnsafeMutablePointer<pthread_cond_t>
    private let chunkDone: UnsafeMutablePointer<pthread_cond_t>
    private var pending: [BulkChunk] = []
    private var next = 0
    private var stopping = false

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        workReady = .allocate(capacity: 1)
        workReady.initialize(to: pthread_cond_t())
        pthread_cond_init(workReady, nil)
        chunkDone = .allocate(capacity: 1)
        chunkDone.initialize(to: pthread_cond_t())
        pthread_cond_init(chunkDone, nil)
    }

    deinit {
        pthread_cond_destroy(chunkDone)
        chunkDone.deallocate()
        pthread_cond_destroy(workReady)
        workReady.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Queues a chunk for the next free worker.
    func submit(_ chunk: BulkChunk) {
        pthread_mutex_lock(mutex)
        chunk.isDone = false
        if next > 64 {
            pending.removeFirst(next)
            next = 0
        }
        pending.append(chunk)
        pthread_cond_signal(workReady)
        pthread_mutex_unlock(mutex)
    }

    /// The next chunk to render; nil once the queue is stopped and empty.
    func take() -> BulkChunk? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while next == pending.count, !stopping { pthread_cond_wait(workReady, mutex) }
        guard next < pending.count else { return nil }
        next += 1
        return pending[next - 1]
    }

    /// The next chunk no worker has taken, without waiting; nil when there is none.
    func takeIfWaiting() -> BulkChunk? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard next < pending.count else { return nil }
        next += 1
        return pending[next - 1]
    }

    /// Marks every chunk no worker has taken as done, unrendered, and forgets it.
    func dropWaiting() {
        pthread_mutex_lock(mutex)
        for chunk in pending[next...] { chunk.isDone = true }
        pending.removeAll()
        next = 0
        pthread_mutex_unlock(mutex)
    }

    /// Whether a worker has rendered the chunk.
    func isDone(_ chunk: BulkChunk) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return chunk.isDone
    }

    func markDone(_ chunk: BulkChunk) {
        pthread_mutex_lock(mutex)
        chunk.isDone = true
        pthread_cond_broadcast(chunkDone)
        pthread_mutex_unlock(mutex)
    }

    /// Waits until a worker has rendered the chunk.
    func wait(for chunk: BulkChunk) {
        pthread_mutex_lock(mutex)
        while !chunk.isDone { pthread_cond_wait(chunkDone, mutex) }
        pthread_mutex_unlock(mutex)
    }

    /// Lets the workers finish what is queued and return.
    func stop() {
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_broadcast(workReady)
        pthread_mutex_unlock(mutex)
    }
}
