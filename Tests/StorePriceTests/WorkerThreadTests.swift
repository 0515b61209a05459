import Synchronization
import Testing

@testable import StorePrice

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bulk run's helpers are threads of its own: each runs its body once, `join()` waits for it,
/// and a helper started away from the calling thread's core may run on all of the process's cores
/// once it runs.
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

    #if os(Linux)
    /// Started without the calling thread's core, a helper then takes the calling thread's mask,
    /// here the process's: one kept on the other cores would compete with the calling thread for
    /// them, or, with `taskset` to 2 cores, stay on 1.
    @Test func aStartedThreadMayRunOnEveryCoreOfTheProcess() throws {
        let process = try #require(ProcessorCount.affinityCount())
        let seen = Atomic<Int>(-1)
        let thread = try #require(
            WorkerThread {
                seen.store(ProcessorCount.affinityCount(status: "/proc/thread-self/status") ?? 0, ordering: .relaxed)
            })
        thread.join()
        #expect(seen.load(ordering: .relaxed) == process, "cores the thread may use, against the process's \(process)")
    }
    #endif
}
