import Synchronization
import Testing

@testable import StorePrice

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bulk runs share the process's helpers: a job runs once, `finish` waits for one under way, and
/// drops one no helper has started, so no run waits for another's work.
@Suite struct HelperPoolTests {
    @Test func finishWaitsForAJobUnderWayAndDropsAWaitingOne() throws {
        let pool = HelperPool(threads: 1)
        let started = Atomic<Bool>(false)
        let finished = Atomic<Bool>(false)
        let running = try #require(
            pool.submit {
                started.store(true, ordering: .releasing)
                // Still running when finish() is called.
                usleep(50_000)
                finished.store(true, ordering: .releasing)
            })
        while !started.load(ordering: .acquiring) { sched_yield() }
        // The one helper is busy: this job waits, and is dropped by finish().
        let waitingRan = Atomic<Bool>(false)
        let waiting = try #require(pool.submit { waitingRan.store(true, ordering: .releasing) })
        pool.finish(waiting)
        pool.finish(running)
        let done = finished.load(ordering: .acquiring)
        #expect(done)
        usleep(20_000)
        let ran = waitingRan.load(ordering: .acquiring)
        #expect(!ran)
    }

    @Test func everyJobRunsOnceOnThePoolsThreads() throws {
        let pool = HelperPool(threads: 2)
        let runs = Atomic<Int>(0)
        var jobs: [HelperPool.Job] = []
        for _ in 0..<8 {
            jobs.append(try #require(pool.submit { runs.add(1, ordering: .relaxed) }))
        }
        // Each job is either run or dropped: wait until all are run, then finish them all.
        while runs.load(ordering: .relaxed) < 8 { sched_yield() }
        for job in jobs { pool.finish(job) }
        let count = runs.load(ordering: .relaxed)
        #expect(count == 8)
        #expect(pool.threadLimit == 2)
    }
}
