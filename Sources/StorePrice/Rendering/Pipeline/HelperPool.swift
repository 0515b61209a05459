/// The threads that help bulk runs render: one fewer than the processors this process may use,
/// started on first need and kept for the process, so that a run pays for no thread of its own.
///
/// A run hands the pool a job per helper it would like (``submit(_:)``) and renders on its own
/// thread meanwhile; when it ends it takes its jobs back (``finish(_:)``): a job no thread has
/// started is dropped, one under way is waited for. So runs never wait for each other's jobs:
/// with several runs at once, a helper serves them in turn, and each run's calling thread
/// renders whatever no helper took.
///
/// Sendable notes: the queue and every job's state are read and written with the monitor locked.
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
    private let monitor = ThreadMonitor()

    init(threads: Int) {
        threadLimit = threads
    }

    /// Queues a job for the next free helper, starting a helper when fewer than ``threadLimit``
    /// run; nil when the pool has no thread (one processor), or none could be started.
    func submit(_ body: @escaping @Sendable () -> Void) -> Job? {
        monitor.lock()
        defer { monitor.unlock() }
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
        monitor.signal(.ready)
        return job
    }

    /// Takes a job back: drops it if no helper has started it, else waits until it returns.
    func finish(_ job: Job) {
        monitor.lock()
        if job.state == .waiting { job.state = .dropped }
        while job.state == .running { monitor.wait(.done) }
        monitor.unlock()
    }

    /// A helper's life: the next waiting job, run, for ever.
    private func serve() {
        monitor.lock()
        while true {
            while head == queue.count { monitor.wait(.ready) }
            let job = queue[head]
            head += 1
            guard job.state == .waiting else { continue }
            job.state = .running
            monitor.unlock()
            job.body()
            monitor.lock()
            job.state = .done
            monitor.broadcast(.done)
        }
    }
}
