import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Has ICU build each of a bulk run's formatters once, one formatter at a time, whatever the
/// number of workers.
///
/// ICU builds a new formatter's data on its first format, taking locks of the whole process about
/// 130 times (ICU 72) as it reads locale data (see `ICUNumberFormatter.compile()`), so builds on
/// two threads take no less time than on one. Workers rendering the same catalog meet new
/// formatters at the same moment, in the same order: at the start of a run they would take ICU's
/// locks in turn for each formatter. Here one thread at a time builds. With more than one worker thread,
/// the first helper builds the formatters of the catalog's first product, in target order, before
/// it takes a chunk (`prepareAll()`), while the calling thread renders the first chunk behind it;
/// a formatter that a worker needs is built next (`prepare`), and one no product has needed yet
/// is built when one does. While the helper builds ahead, it alone builds: when the calling
/// thread also built each formatter it met first, the two took turns, and ICU's data moved
/// between their cores with every turn: the 175 storefront formatters took 7 to 8.5 ms, against
/// about 6 on one thread.
///
/// A worker that needs a formatter another thread is building waits without sleeping at first:
/// a build takes tens of microseconds, and a thread put to sleep for each formatter costs the
/// builder a wake-up each time. It yields its core on each turn, then naps, so that with more
/// workers than cores the builder keeps running.
///
/// Sendable notes: `built` holds atomics only, `expected` is locked; `build` is called by one
/// thread at a time.
final class FormatterCompilation: @unchecked Sendable {
    /// The number of formatters.
    let count: Int
    /// Builds one formatter.
    private let build: @Sendable (Int) -> Void
    /// Whether each formatter is built: set once, after its build.
    private let built: UnsafeMutablePointer<Atomic<Bool>>
    /// Whether a thread is building a formatter.
    private let building = Atomic<Bool>(false)
    /// Whether `prepareAll()` is building ahead: workers then wait rather than build.
    private let buildingAhead = Atomic<Bool>(false)
    /// The formatter a waiting worker needs, for `prepareAll()` to build next; -1 for none.
    private let wanted = Atomic<Int>(-1)
    /// Whether the run is over: `prepareAll()` stops.
    private let cancelled = Atomic<Bool>(false)
    /// The formatters to build ahead, once told (`expect(_:)`).
    private let expected = Mutex<[Int]?>(nil)

    /// Builds each of the formatters.
    convenience init(_ formatters: [PriceFormatter]) {
        self.init(count: formatters.count) { index in formatters[index].compile() }
    }

    /// - Parameters:
    ///   - count: the number of formatters.
    ///   - build: builds formatter `index`; called once for each, on one thread at a time.
    init(count: Int, build: @escaping @Sendable (_ index: Int) -> Void) {
        self.count = count
        self.build = build
        built = .allocate(capacity: max(1, count))
        for index in 0..<count { (built + index).initialize(to: Atomic(false)) }
    }

    deinit {
        built.deinitialize(count: count)
        built.deallocate()
    }

    /// Returns once formatter `index` is built: at once if it is, or after building it on this
    /// thread or waiting for another to build it (always waiting while `prepareAll()` builds).
    func prepare(_ index: Int) {
        var turns = 0
        while !built[index].load(ordering: .acquiring) {
            if !buildingAhead.load(ordering: .relaxed), buildUnlessBusy(index) { return }
            wanted.store(index, ordering: .relaxed)
            turns += 1
            if turns < 200 { sched_yield() } else { usleep(50) }
        }
    }

    /// Says which formatters to build ahead: those of the catalog's first product. Only the
    /// first call counts.
    func expect(_ indices: [Int]) {
        expected.withLock { expected in
            if expected == nil { expected = indices }
        }
    }

    /// Builds the formatters `expect(_:)` names, in order, and any that a worker waits for first,
    /// until ``cancel()``. Waits up to 2 ms to be told which: without word by then (a worker that
    /// renders no product on bytes tells none), it builds none ahead.
    func prepareAll() {
        let deadline = ContinuousClock.now + .milliseconds(2)
        var told = expected.withLock { $0 }
        while told == nil {
            if cancelled.load(ordering: .relaxed) || ContinuousClock.now > deadline { return }
            sched_yield()
            told = expected.withLock { $0 }
        }
        let ahead = Set(told ?? []).sorted()
        buildingAhead.store(true, ordering: .relaxed)
        defer { buildingAhead.store(false, ordering: .relaxed) }
        for index in ahead {
            if cancelled.load(ordering: .relaxed) { return }
            let needed = wanted.exchange(-1, ordering: .relaxed)
            if needed >= 0 { buildAhead(needed) }
            buildAhead(index)
        }
    }

    /// Builds formatter `index` on this thread, unless built, once a worker's build under way ends.
    private func buildAhead(_ index: Int) {
        while !built[index].load(ordering: .acquiring), !buildUnlessBusy(index) { sched_yield() }
    }

    /// The formatter a waiting worker asked for last, or -1: `prepareAll()` builds it next.
    var waitedFor: Int { wanted.load(ordering: .relaxed) }

    /// Ends `prepareAll()` after the build under way: the run needs no more formatters.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    /// Builds formatter `index` unless it is built; false when another thread is building one.
    private func buildUnlessBusy(_ index: Int) -> Bool {
        guard building.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            return false
        }
        if !built[index].load(ordering: .acquiring) {
            build(index)
            built[index].store(true, ordering: .releasing)
        }
        building.store(false, ordering: .releasing)
        return true
    }
}
