import Synchronization

/// What a bulk run renders with, kept for the next run of the same shape: the plan (targets as
/// indices, formatters, row layout), the amounts and encoded parts already made, and a worker
/// (``ChunkRenderer``) per thread that renders.
///
/// A service renders the same few storefronts over and over, a few products at a time: built
/// for each call, these cost hundreds of microseconds where the rows cost tens. Kept here, a run
/// of a shape met before formats only the prices no earlier run met, and finds the others with
/// a load or two, as the workers of one run do.
///
/// Runs at once share a context: each thread that renders leases one of its ``slotCount``
/// worker slots for the run, and a run that finds none free renders with a context of its own.
/// The cache holds up to ``cacheLimit`` contexts; one whose tables grew past
/// ``PriceTables/isLarge`` (a large catalog's run) is not kept after its run, so memory stays
/// bounded.
///
/// Sendable notes: `leases` is atomic; a slot's worker is touched only by the thread that holds
/// the slot's lease, which the lease's compare-and-swap hands from thread to thread.
final class RenderContext: @unchecked Sendable {
    /// What makes two runs' contexts the same: everything ``BulkPlan`` is made from.
    struct Key: Hashable {
        struct Target: Hashable {
            var storefront: Int
            var priceLocale: String
            var account: TestAccount?
        }
        var targets: [Target]
        var options: PriceFormatter.Options
        var format: BulkRenderer.Format
        var escapeNonASCII: Bool
        var rawCSV: Bool
        var titles: Bool
        var handsRows: Bool
        var columns: [Int]
        var source: String
    }

    let plan: BulkPlan
    let generations: PriceTables.Generations
    /// Whether chunks of bytes are JSON Lines rather than CSV.
    let jsonLines: Bool

    /// Threads that may render with one context at once.
    static let slotCount = 16
    private let leases = Atomic<UInt64>(0)
    /// Each slot's worker, made by its first lease holder.
    private let workers: UnsafeMutablePointer<RendererBox?>

    init(plan: BulkPlan, jsonLines: Bool) {
        self.plan = plan
        self.jsonLines = jsonLines
        generations = PriceTables.Generations {
            PriceTables(
                currencies: plan.currencies.count, targets: plan.targets.count, storefronts: plan.storefronts.count,
                workers: RenderContext.slotCount)
        }
        workers = .allocate(capacity: Self.slotCount)
        workers.initialize(repeating: nil, count: Self.slotCount)
    }

    deinit {
        workers.deinitialize(count: Self.slotCount)
        workers.deallocate()
    }

    /// A free worker slot, leased to the calling thread until ``release(_:)``; nil when every
    /// slot is leased.
    func lease() -> Int? {
        var current = leases.load(ordering: .relaxed)
        while true {
            let free = ~current & ((1 << UInt64(Self.slotCount)) - 1)
            guard free != 0 else { return nil }
            let slot = free.trailingZeroBitCount
            let (exchanged, original) = leases.compareExchange(
                expected: current, desired: current | (1 << UInt64(slot)), ordering: .acquiringAndReleasing)
            if exchanged { return slot }
            current = original
        }
    }

    /// The worker of a slot the calling thread leases, ready for a new run.
    func worker(_ slot: Int) -> RendererBox {
        if let worker = workers[slot] {
            worker.renderer.startRun()
            return worker
        }
        let made = RendererBox(ChunkRenderer(plan: plan, generations: generations, worker: slot), jsonLines: jsonLines)
        workers[slot] = made
        return made
    }

    /// Ends a lease.
    func release(_ slot: Int) {
        leases.bitwiseAnd(~(UInt64(1) << UInt64(slot)), ordering: .acquiringAndReleasing)
    }

    /// Whether the tables or the formatted prices grew too large to keep after the run.
    var isLarge: Bool { generations.tables.isLarge || plan.priceStore.count > 16_384 }

    // MARK: The cache

    /// A renderer's contexts for its last runs of products in memory, one handing bytes and one
    /// handing rows: a service's next small render finds its context without building and
    /// hashing a ``Key``. A context that grew large is forgotten, as the cache forgets it.
    final class Memo: Sendable {
        private let last = Mutex<[(source: String, context: RenderContext)?]>([nil, nil])

        init() {}

        func context(source: String, handsRows: Bool) -> RenderContext? {
            last.withLock { last in
                guard let kept = last[handsRows ? 1 : 0], kept.source == source else { return nil }
                return kept.context
            }
        }

        func remember(_ context: RenderContext?, source: String, handsRows: Bool) {
            last.withLock { $0[handsRows ? 1 : 0] = context.map { (source, $0) } }
        }
    }

    /// The most contexts kept.
    static let cacheLimit = 16
    private static let cache = Locked<[Key: RenderContext]>([:])

    /// The context kept for a run of this shape, or nil.
    static func cached(_ key: Key) -> RenderContext? {
        cache.withLock { $0[key] }
    }

    /// Keeps a context for the next runs of its shape, unless its tables grew large; a full
    /// cache forgets one context to make room.
    static func keep(_ context: RenderContext, for key: Key) {
        let large = context.isLarge
        cache.withLock { cache in
            if large {
                if cache[key] === context { cache[key] = nil }
                return
            }
            if cache[key] == nil, cache.count >= cacheLimit, let some = cache.keys.first { cache[some] = nil }
            cache[key] = context
        }
    }
}
