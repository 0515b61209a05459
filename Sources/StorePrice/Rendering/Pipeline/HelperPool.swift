#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The threads that help bulk runs render: one fewer than the processors this process may use,
/// started on first need and kept for the process, so that a run pays for no thread of its own.
///
/// A run hands the pool a job per helper it would like (``submit(_:)``) and renders on its own
/// thread meanwhile; when it ends it takes its jobs back (``finish(_:)``): a job no thread has
/// started is dropped, one under way is waited for. So runs never wait for each other's jobs:
/// with several runs at once, a helper serves them in turn, and each run's calling thread
/// renders whatever no helper took.
///
/// Sendable notes: the queue and every job's state are read and written with the mutex held.
final class HelperPool: @unchecked Sendable {
    /// The pool every run shares.
    static let shared = HelperPool(threads: max(0, ProcessorCount.active - 1))

    /// Work handed to the pool, and where it stands.
    final class Job: @unchecked Sendable {
        enum State { case waiting, running, done, dropped }
        fileprivate let body: @Sendable () -> Void
        fileprivate var state = State.waiting
        fileprivate init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// The most threads the pool starts.
    let threadLimit: Int
    private var started = 0
    private var queue: [Job] = []
    private var head = 0
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let jobReady: UnsafeMutablePointer<pthread_cond_t>
    private let jobDone: UnsafeMutablePointer<pthread_cond_t>

    init(threads: Int) {
        threadLimit = threads
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        jobReady = .allocate(capacity: 1)
        jobReady.initialize(to: pthread_cond_t())
        pthread_cond_init(jobReady, nil)
        jobDone = .allocate(capacity: 1)
        jobDone.initialize(to: pthread_cond_t())
        pthread_cond_init(jobDone, nil)
    }

    /// Queues a job for the next free helper, starting a helper when fewer than ``threadLimit``
    /// run; nil when the pool has no thread (one processor), or none could be started.
    func submit(_ body: @escaping @Sendable () -> Void) -> Job? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if started < threadLimit {
            if WorkerThread.start({ [self] in serve() }) { started += 1 }
        }
        guard started > 0 else { return nil }
        let job = Job(body)
        if head > 64 {
            queue.removeFirst(head)
            head = 0
        }
        queue.append(job)
        pthread_cond_signal(jobReady)
        return job
    }

    /// Takes a job back: drops it if no helper has started it, else waits until it returns.
    func finish(_ job: Job) {
        pthread_mutex_lock(mutex)
        if job.state == .waiting { job.state = .dropped }
        while job.state == .running { pthread_cond_wait(jobDone, mutex) }
        pthread_mutex_unlock(mutex)
    }

    /// A helper's life: the next waiting job, run, for ever.
    private func serve() {
        pthread_mutex_lock(mutex)
        while true {
            while head == queue.count { pthread_cond_wait(jobReady, mutex) }
            let job = queue[head]
            head += 1
            guard job.state == .waiting else { continue }
            job.state = .running
            pthread_mutex_unlock(mutex)
            job.body()
            pthread_mutex_lock(mutex)
            job.state = .done
            pthread_cond_broadcast(jobDone)
        }
    }
}
