import Synchronization
import Testing

@testable import StorePrice

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bulk run's helpers are threads of its own: each runs its body once, and `join()` waits for it.
@Suite struct WorkerThreadTests {
    @Test func eachThreadRunsItsBodyOnceAndJoinWaitsForIt() throws {
        let runs = Atomic<Int>(0)
        let finished = Atomic<Int>(0)
        var threads: [WorkerThread] = []
        for _ in 0..<8 {
            threads.append(
                try #require(
                    WorkerThread {
                        runs.add(1, ordering: .relaxed)
                        // Still running when join() is called.
                        usleep(20_000)
                        finished.add(1, ordering: .relaxed)
                    }))
        }
        for thread in threads { thread.join() }
        #expect(runs.load(ordering: .relaxed) == 8)
        #expect(finished.load(ordering: .relaxed) == 8)
    }
}
