import Dispatch
import Foundation
import Synchronization
import Testing

@testable import StorePrice

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bulk pipeline builds each formatter once, one at a time, whichever workers ask; the first
/// helper builds them all ahead, and a formatter a worker waits for comes first.
@Suite struct FormatterCompilationTests {
    /// What the builds did: how many times each formatter was built, and the most at once.
    final class Builds: Sendable {
        let counts: Mutex<[Int]>
        let order = Mutex<[Int]>([])
        let running = Atomic<Int>(0)
        let mostAtOnce = Atomic<Int>(0)

        init(_ count: Int) { counts = Mutex(Array(repeating: 0, count: count)) }

        func build(_ index: Int, pause: useconds_t = 0) {
            let now = running.add(1, ordering: .sequentiallyConsistent).newValue
            mostAtOnce.max(now, ordering: .sequentiallyConsistent)
            if pause > 0 { usleep(pause) }
            counts.withLock { $0[index] += 1 }
            order.withLock { $0.append(index) }
            running.subtract(1, ordering: .sequentiallyConsistent)
        }
    }

    /// Four workers asking for 40 formatters in different orders while a helper builds them all:
    /// each is built once, never two at a time, and each ask returns only once its formatter is built.
    @Test func eachFormatterIsBuiltOnceAndOneAtATime() {
        let count = 40
        let builds = Builds(count)
        let compilation = FormatterCompilation(count: count) { builds.build($0, pause: 200) }
        compilation.expect(Array(0..<count))
        let failures = Mutex<[String]>([])
        let threads = DispatchGroup()
        Self.start(threads) { compilation.prepareAll() }
        for worker in 1...4 {
            Self.start(threads) {
                let order = worker.isMultiple(of: 2) ? Array((0..<count).reversed()) : Array(0..<count)
                for index in order {
                    compilation.prepare(index)
                    if builds.counts.withLock({ $0[index] }) != 1 {
                        failures.withLock { $0.append("worker \(worker): formatter \(index) not built when prepare returned") }
                    }
                }
            }
        }
        threads.wait()
        let early = failures.withLock { $0 }
        #expect(early.isEmpty, "\(early.count) asks returned early; the first: \(early.prefix(3))")
        #expect(builds.counts.withLock { $0 } == Array(repeating: 1, count: count))
        #expect(builds.mostAtOnce.load(ordering: .sequentiallyConsistent) == 1)
    }

    /// While the helper builds ahead, it alone builds: workers asking for formatters, in any
    /// order, wait for them rather than build any themselves.
    @Test func whileTheHelperBuildsAheadNoWorkerBuilds() {
        let count = 200
        let builds = Builds(count)
        let byOthers = Mutex<[Int]>([])
        // The helper, told by its pthread: Foundation's `Thread.current.name` on Linux at times
        // reads back the process's name on the thread that set it (4 failures in 20 runs).
        let helper = Mutex<pthread_t?>(nil)
        let compilation = FormatterCompilation(count: count) { index in
            let isHelper = helper.withLock { $0 }.map { pthread_equal($0, pthread_self()) != 0 } ?? false
            if !isHelper { byOthers.withLock { $0.append(index) } }
            builds.build(index, pause: 20)
        }
        compilation.expect(Array(0..<count))
        let threads = DispatchGroup()
        Self.start(threads) {
            helper.withLock { $0 = pthread_self() }
            compilation.prepareAll()
        }
        while builds.order.withLock({ $0.count }) < 1 { usleep(100) }
        for worker in 1...4 {
            Self.start(threads) {
                let order = worker.isMultiple(of: 2) ? Array((0..<count).reversed()) : Array(0..<count)
                for index in order { compilation.prepare(index) }
            }
        }
        threads.wait()
        #expect(byOthers.withLock { $0 } == [], "built by workers while the helper built ahead")
        #expect(builds.counts.withLock { $0 } == Array(repeating: 1, count: count))
    }

    /// A worker waiting for the last formatter while the helper builds the first has it built
    /// next, not after all the others.
    @Test func aFormatterAWorkerWaitsForIsBuiltNext() {
        let count = 20
        let builds = Builds(count)
        let firstBuildStarted = Atomic<Bool>(false)
        let compilation = Mutex<FormatterCompilation?>(nil)
        compilation.withLock {
            $0 = FormatterCompilation(count: count) { index in
                if index == 0 {
                    // Hold the first build until the worker has asked for the last formatter.
                    firstBuildStarted.store(true, ordering: .sequentiallyConsistent)
                    while compilation.withLock({ $0?.waitedFor }) != count - 1 { usleep(100) }
                }
                builds.build(index)
            }
        }
        compilation.withLock { $0 }?.expect(Array(0..<count))
        let threads = DispatchGroup()
        Self.start(threads) { compilation.withLock { $0 }?.prepareAll() }
        while !firstBuildStarted.load(ordering: .sequentiallyConsistent) { usleep(100) }
        Self.start(threads) { compilation.withLock { $0 }?.prepare(count - 1) }
        threads.wait()
        let order = builds.order.withLock { $0 }
        #expect(Array(order.prefix(2)) == [0, count - 1], "build order \(order)")
        #expect(order.sorted() == Array(0..<count))
    }

    /// The helper builds ahead only the formatters it is told the first product needs (the first
    /// word counts), and none when no word comes.
    @Test func onlyTheFirstProductsFormattersAreBuiltAhead() {
        let builds = Builds(10)
        let compilation = FormatterCompilation(count: 10) { builds.build($0) }
        compilation.expect([7, 2, 2, 5])
        compilation.expect([0, 1])
        compilation.prepareAll()
        #expect(builds.order.withLock { $0 } == [2, 5, 7])

        let untold = Builds(10)
        FormatterCompilation(count: 10) { untold.build($0) }.prepareAll()
        #expect(untold.order.withLock { $0 } == [])
    }

    /// Cancelled, the helper stops after the build under way, and the run's end does not wait
    /// for formatters nobody needs.
    @Test func cancelStopsBuildingAhead() {
        let count = 200
        let builds = Builds(count)
        let compilation = FormatterCompilation(count: count) { builds.build($0, pause: 1_000) }
        compilation.expect(Array(0..<count))
        let threads = DispatchGroup()
        Self.start(threads) { compilation.prepareAll() }
        while builds.order.withLock({ $0.count }) < 3 { usleep(100) }
        compilation.cancel()
        let builtAtCancel = builds.order.withLock { $0.count }
        threads.wait()
        // At most the build under way when it was cancelled.
        let built = builds.order.withLock { $0.count }
        #expect(built <= builtAtCancel + 1, "\(built) of \(count) built, \(builtAtCancel) when cancelled")
        // What a worker asks for is still built.
        compilation.prepare(count - 1)
        #expect(builds.counts.withLock { $0[count - 1] } == 1)
    }

    /// Runs `body` on a thread of its own; `wait()` on the group joins it.
    static func start(_ group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        Thread {
            body()
            group.leave()
        }.start()
    }
}
