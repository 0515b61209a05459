#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex with two condition variables, one that says work is ready and one that says
/// work is done: what the pipeline's own threads sleep on (``ChunkQueue``, ``HelperPool``),
/// never spinning and never blocking Swift's cooperative pool.
///
/// Sendable notes: the pthread objects are made for use from many threads; callers guard their
/// own state with ``lock()`` and ``unlock()``.
final class ThreadMonitor: @unchecked Sendable {
    enum Condition { case ready, done }

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let ready: UnsafeMutablePointer<pthread_cond_t>
    private let done: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        ready = .allocate(capacity: 1)
        ready.initialize(to: pthread_cond_t())
        pthread_cond_init(ready, nil)
        done = .allocate(capacity: 1)
        done.initialize(to: pthread_cond_t())
        pthread_cond_init(done, nil)
    }

    deinit {
        pthread_cond_destroy(done)
        done.deallocate()
        pthread_cond_destroy(ready)
        ready.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }

    /// Sleeps until `condition` is signalled; the lock is held before and after.
    func wait(_ condition: Condition) { pthread_cond_wait(self.condition(condition), mutex) }
    /// Wakes one thread waiting on `condition`.
    func signal(_ condition: Condition) { pthread_cond_signal(self.condition(condition)) }
    /// Wakes every thread waiting on `condition`.
    func broadcast(_ condition: Condition) { pthread_cond_broadcast(self.condition(condition)) }

    private func condition(_ condition: Condition) -> UnsafeMutablePointer<pthread_cond_t> {
        condition == .ready ? ready : done
    }
}
