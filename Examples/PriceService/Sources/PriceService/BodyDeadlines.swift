import Synchronization

/// When request bodies must have arrived, watched by one task for the whole process: a read past
/// its deadline is cancelled. A timer task per request (a task group racing the read against a
/// sleep) cost about a sixth of a small render's time under load; this costs a lock and a task.
final class BodyDeadlines: Sendable {
    static let shared = BodyDeadlines()

    private struct Entry {
        var deadline: ContinuousClock.Instant
        var expire: @Sendable () -> Void
    }

    private let entries = Mutex<(next: Int, waiting: [Int: Entry])>((0, [:]))
    /// How often deadlines are checked: a read ends at most this much after its deadline.
    static let granularity = Duration.milliseconds(100)

    private init() {
        Task.detached { [self] in
            while true {
                try? await Task.sleep(for: Self.granularity)
                expireOverdue()
            }
        }
    }

    /// Calls `expire` once `deadline` has passed, unless ``remove(_:)`` comes first.
    func add(_ deadline: ContinuousClock.Instant, expire: @escaping @Sendable () -> Void) -> Int {
        entries.withLock { entries in
            entries.next += 1
            entries.waiting[entries.next] = Entry(deadline: deadline, expire: expire)
            return entries.next
        }
    }

    func remove(_ id: Int) {
        _ = entries.withLock { $0.waiting.removeValue(forKey: id) }
    }

    private func expireOverdue() {
        let now = ContinuousClock.now
        let due = entries.withLock { entries in
            let due = entries.waiting.filter { $0.value.deadline <= now }
            for id in due.keys { entries.waiting[id] = nil }
            return due.values.map(\.expire)
        }
        for expire in due { expire() }
    }
}
