import Dispatch
public import Logging
import Synchronization

/// Renders every product's price for every target, fast, in a deterministic order.
///
/// Products are read in batches and spread over worker threads; each distinct (price locale,
/// amount) pair is formatted by ICU once and reused. Rows come out in catalog order, and for each
/// product in target order, whatever the number of workers.
///
/// ```swift
/// var catalog = try Catalog.open("Data/catalog-sample.jsonl")
/// let renderer = CatalogRenderer(targets: RenderTarget.storefronts(Storefront.all))
/// let report = try renderer.render(&catalog) { rows in
///     for row in rows { print(row.productID, row.storefront.countryCode, row.formatted) }
/// }
/// print(report.invalidProducts)
/// ```
public struct CatalogRenderer: Sendable {
    /// Who to render for, in output order.
    public let targets: [RenderTarget]
    /// Currency display and rounding.
    public let options: PriceFormatter.Options
    /// Threads that render at once, the calling thread among them: Dispatch runs about one per
    /// processor, so workers past the processors add few threads or none.
    public let workers: Int
    /// Products per batch handed to the workers.
    public let batchSize: Int
    /// Where invalid products are reported, once per run.
    public let logger: Logger

    /// A renderer for these targets; ICU formatters are opened when a run starts.
    ///
    /// - Parameters:
    ///   - targets: storefronts or test accounts, in output order.
    ///   - options: currency display and rounding for every price.
    ///   - workers: threads to render on; by default one per processor.
    ///   - batchSize: products per batch; memory holds about two batches of rows.
    ///   - logger: receives one debug message per invalid product (the report holds them all).
    public init(
        targets: [RenderTarget],
        options: PriceFormatter.Options = .init(),
        workers: Int = CatalogRenderer.processorCount,
        batchSize: Int = 256,
        logger: Logger = Logger(label: "StorePrice.CatalogRenderer")
    ) {
        self.targets = targets
        self.options = options
        self.workers = max(1, workers)
        self.batchSize = max(1, batchSize)
        self.logger = logger
    }

    /// The number of processors this process may run on.
    public static var processorCount: Int { ProcessorCount.active }

    /// Renders a catalog, handing rows to `emit` in order, a batch at a time.
    ///
    /// - Parameters:
    ///   - source: the catalog; read to its end.
    ///   - productIDs: when given, only these products are rendered, and listed IDs the catalog
    ///     lacks are invalid products.
    ///   - progress: called after each batch with the counts so far and how far the source has read.
    ///   - emit: called on the calling thread with each batch's rows, in order. A batch stays
    ///     valid after `emit` returns.
    /// - Returns: counts and the invalid products, which are also logged.
    /// - Throws: the catalog's errors; a price ICU cannot format under the options (such as
    ///   `JPY 160.5` with `.reject`), naming the product and storefront; and what `emit` throws.
    public func render(
        _ source: inout some CatalogSource,
        productIDs: ProductIDList? = nil,
        progress: ((RenderReport, (done: Int, total: Int?)) -> Void)? = nil,
        emit: (RenderedBatch) throws -> Void
    ) throws -> RenderReport {
        let wanted = productIDs.map { ProductIDSet($0.ids) }
        var found = ProductIDSet()
        var report = RenderReport()
        let plan = try RenderPlan(targets: targets, options: options, workers: workers)
        var batch: [Product] = []
        batch.reserveCapacity(batchSize * workers)

        func flush() throws {
            guard !batch.isEmpty else { return }
            let rendered = try plan.render(batch)
            report.rows += rendered.rows.count
            report.invalidProducts += rendered.invalid
            batch.removeAll(keepingCapacity: true)
            try emit(rendered.rows)
            progress?(report, source.progress)
        }

        while let product = try source.nextProduct() {
            if let wanted {
                guard wanted.contains(product.id) else { continue }
                found.insert(product.id)
            }
            report.products += 1
            batch.append(product)
            if batch.count >= batchSize * workers { try flush() }
        }
        try flush()
        if let productIDs {
            for id in productIDs.ids where !found.contains(id) {
                report.invalidProducts.append(InvalidProduct(productID: id, reason: .notInCatalog))
            }
        }
        report.distinctPrices = plan.memo.count
        for invalid in report.invalidProducts {
            // Debug, as libraries log: the products are in the report, which the caller decides
            // how to show.
            logger.debug(
                "invalid product",
                metadata: ["product": "\(invalid.productID)", "reason": "\(invalid.reasonDescription)"])
        }
        return report
    }
}

extension CatalogRenderer {
    /// Renders products already in memory, as a service has them: every row, in product order
    /// and then target order, and the report.
    ///
    /// ```swift
    /// let products = [try Product(id: "coins.100", prices: ["USA": "0.99", "JPN": "160"])]
    /// let renderer = CatalogRenderer(targets: RenderTarget.storefronts([try Storefront("USA"), try Storefront("JPN")]))
    /// let (rows, report) = try renderer.render(products)
    /// rows.map(\.formatted)  // ["$0.99", "￥160"]
    /// report.invalidProducts  // []
    /// ```
    ///
    /// - Parameters:
    ///   - products: the catalog; a product ID may appear once.
    ///   - productIDs: when given, only these products are rendered, and listed IDs the catalog
    ///     lacks are invalid products.
    ///   - productIDRule: which product IDs the products may have; App Store Connect's by default.
    /// - Throws: ``StorePriceError`` for a repeated product ID or one the rule does not allow, or
    ///   a price the options cannot show.
    public func render(
        _ products: [Product], productIDs: ProductIDList? = nil, productIDRule: ProductIDRule = .appStore
    ) throws(StorePriceError) -> (rows: [RenderedRow], report: RenderReport) {
        var source = ProductList(products, productIDRule: productIDRule)
        var rows: [RenderedRow] = []
        do {
            let report = try render(&source, productIDs: productIDs) { batch in rows += batch }
            return (rows, report)
        } catch let error as StorePriceError {
            throw error
        } catch {
            // `emit` above throws nothing.
            throw .invalidCatalog(source: "products in memory", line: nil, field: nil, reason: "\(error)")
        }
    }
}

/// The per-run state of a rendering: targets grouped by price locale, and the format memo.
final class RenderPlan: Sendable {
    let targets: [RenderTarget]
    /// Each target's storefront ID, read once per row.
    let storefrontIDs: [Int]
    let localeIndex: [Int]
    /// Storefront IDs less `idBase` index a dense array per worker; `idSpan` is its size.
    let idBase: Int
    let idSpan: Int
    /// Each target's currency, by index into the run's distinct currencies.
    let currencyIndex: [Int]
    let currencyCount: Int
    /// Each target's title chain, by index into `chains`.
    let chainIndex: [Int]
    let chains: [TitleChain]
    let formatters: [PriceFormatter]
    let workers: Int
    let memo: FormatMemo
    let options: PriceFormatter.Options

    init(targets: [RenderTarget], options: PriceFormatter.Options, workers: Int) throws(StorePriceError) {
        let locales = Self.interned(targets.map(\.priceLocale))
        var formatters: [PriceFormatter] = []
        for locale in locales.distinct {
            formatters.append(try PriceFormatter(locale: locale, options: options))
        }
        let chains = Self.interned(targets.map(\.titleChain))
        let currencies = Self.interned(targets.map(\.priceLocale.currency))
        self.targets = targets
        self.storefrontIDs = targets.map(\.storefront.numericID)
        let allIDs = Storefront.all.map(\.numericID) + storefrontIDs
        self.idBase = allIDs.min() ?? 0
        self.idSpan = (allIDs.max() ?? 0) - idBase + 1
        self.localeIndex = locales.index
        self.currencyIndex = currencies.index
        self.currencyCount = currencies.distinct.count
        self.chainIndex = chains.index
        self.chains = chains.distinct
        self.formatters = formatters
        self.workers = workers
        self.options = options
        self.memo = FormatMemo(locales: formatters.count, currencies: currencies.distinct.count, workers: workers)
    }

    /// The distinct values in first-seen order, and each value's index among them.
    private static func interned<Value: Hashable>(_ values: [Value]) -> (distinct: [Value], index: [Int]) {
        var positions: [Value: Int] = [:]
        var distinct: [Value] = []
        let index = values.map { value in
            if let known = positions[value] { return known }
            positions[value] = distinct.count
            distinct.append(value)
            return distinct.count - 1
        }
        return (distinct, index)
    }

    /// Renders a batch: contiguous slices on each worker, joined in order.
    func render(_ products: [Product]) throws(StorePriceError) -> (rows: RenderedBatch, invalid: [InvalidProduct]) {
        let slices = max(1, min(workers, products.count))
        let results = SliceResults<SliceOutput>(count: slices)
        let perSlice = max(1, (products.count + slices - 1) / slices)
        let work: @Sendable (Int) -> Void = { slice in
            let range = min(products.count, slice * perSlice)..<min(products.count, (slice + 1) * perSlice)
            results.store(slice, Result { () throws(StorePriceError) in try self.render(products, range, worker: slice) })
        }
        if slices == 1 {
            work(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: slices, execute: work)
        }
        var entries: [RenderedBatch.Entry] = []
        var titles: [String] = []
        var overflow: [PriceStore.Slot] = []
        var invalid: [InvalidProduct] = []
        for slice in 0..<slices {
            var part = try results.take(slice).get()
            if slices > 1 {
                // Re-base the slice's own title and overflow indices onto the joined arrays.
                let titleBase = Int32(titles.count)
                let overflowBase = Int32(overflow.count)
                for index in part.entries.indices {
                    if part.entries[index].title >= 0 { part.entries[index].title += titleBase }
                    if part.entries[index].price < 0 { part.entries[index].price -= overflowBase }
                }
            }
            entries += part.entries
            titles += part.titles
            overflow += part.overflow
            invalid += part.invalid
        }
        var batch = RenderedBatch(
            products: products, targets: targets, store: memo.store, overflow: overflow, titles: titles, entries: entries)
        if batch.containsSubscriptions {
            // Part of each row; a price the options cannot show fails the run here.
            batch.subscriptions = try batch.indices.map { (position) throws(StorePriceError) in
                try batch.subscriptionText(at: position, options: options)
            }
        }
        return (batch, invalid)
    }

    private struct SliceOutput {
        var entries: [RenderedBatch.Entry] = []
        var titles: [String] = []
        var overflow: [PriceStore.Slot] = []
        var invalid: [InvalidProduct] = []
    }

    private func render(_ products: [Product], _ range: Range<Int>, worker: Int) throws(StorePriceError) -> SliceOutput {
        var output = SliceOutput()
        output.entries.reserveCapacity(range.count * targets.count)
        // Titles resolved for the current product, by chain index: -2 not yet looked up, -1 none.
        var titleIndex = [Int32](repeating: -2, count: chains.count)
        // Locals, so the two threads never touch the shared arrays' reference counts per row.
        let storefrontIDs = self.storefrontIDs
        let localeIndex = self.localeIndex
        let currencyIndex = self.currencyIndex
        let chainIndex = self.chainIndex
        let chains = self.chains
        let formatters = self.formatters
        let memo = self.memo
        let idBase = self.idBase
        let idSpan = self.idSpan
        // The current product's amounts by storefront ID, packed (see `PackedAmount`), and which
        // product last set each.
        var packed = [UInt64](repeating: 0, count: idSpan)
        var owner = [Int](repeating: -1, count: idSpan)
        var table = memo.takeTable(worker)
        defer { memo.putBack(table, worker: worker) }
        // The product's last amount and its ID per currency: most storefronts of a currency share one.
        var lastAmount = [UInt64](repeating: 0, count: currencyCount)
        var lastID = [Int32](repeating: -1, count: currencyCount)
        // The targets a product has no price for, and the last invalid product's with their
        // storefronts' codes, sorted.
        var missingTargets: [Int] = []
        var lastMissing: (targets: [Int], codes: [String]) = ([], [])
        for productIndex in range {
            let product = products[productIndex]
            let prices = product.prices
            let hasTitles = !product.titles.isEmpty
            for index in lastID.indices { lastID[index] = -1 }
            // One pass over the product's prices instead of a hashed lookup per target.
            for entry in product.packedPrices {
                let offset = Int(entry.storefrontID) - idBase
                guard offset >= 0, offset < idSpan else { continue }
                packed[offset] = entry.amount
                owner[offset] = productIndex
            }
            if hasTitles {
                for index in titleIndex.indices { titleIndex[index] = -2 }
            }
            var missing = 0
            for index in 0..<storefrontIDs.count {
                let offset = storefrontIDs[index] - idBase
                guard offset >= 0, offset < idSpan, owner[offset] == productIndex else {
                    missing += 1
                    continue
                }
                let amount = packed[offset]
                let locale = localeIndex[index]
                let currency = currencyIndex[index]
                let amountID: Int32
                if amount == 0 {
                    // Longer than 8 bytes: numbered by its text.
                    guard let price = prices[storefrontIDs[index]] else { continue }
                    amountID = table.amountID(price.amount, currency: currency)
                } else if lastID[currency] >= 0, lastAmount[currency] == amount {
                    amountID = lastID[currency]
                } else {
                    amountID = table.amountID(packed: amount, currency: currency)
                    lastAmount[currency] = amount
                    lastID[currency] = amountID
                }
                var known = table.slot(locale: locale, amountID: amountID)
                if known == nil {
                    // A price not yet seen by this worker: the only place that needs the Price.
                    guard let price = prices[storefrontIDs[index]] else { continue }
                    known = memo.slot(price, locale: locale, amountID: amountID, table: &table, formatters: formatters)
                }
                let slot: Int32
                switch known ?? FormatMemo.refused {
                case FormatMemo.full:
                    // The store is full: keep this price with the batch.
                    guard let price = prices[storefrontIDs[index]] else { continue }
                    guard let text = try? formatters[locale].format(price) else {
                        throw refusal(product, price, index)
                    }
                    output.overflow.append(PriceStore.Slot(price: price, formatted: text))
                    slot = Int32(-output.overflow.count)
                case FormatMemo.refused:
                    guard let price = prices[storefrontIDs[index]] else { continue }
                    throw refusal(product, price, index)
                case let stored:
                    slot = stored
                }
                var title: Int32 = -1
                if hasTitles {
                    let chain = chainIndex[index]
                    title = titleIndex[chain]
                    if title == -2 {
                        if let text = product.title(following: chains[chain]) {
                            title = Int32(output.titles.count)
                            output.titles.append(text)
                        } else {
                            title = -1
                        }
                        titleIndex[chain] = title
                    }
                }
                output.entries.append(
                    RenderedBatch.Entry(product: Int32(productIndex), target: Int32(index), price: slot, title: title))
            }
            if missing > 0 {
                missingTargets.removeAll(keepingCapacity: true)
                for index in 0..<storefrontIDs.count where prices[storefrontIDs[index]] == nil {
                    missingTargets.append(index)
                }
                // Products that lack the same storefronts share one list of their codes.
                if missingTargets != lastMissing.targets {
                    lastMissing = (missingTargets, Set(missingTargets.map { targets[$0].storefront.countryCode }).sorted())
                }
                output.invalid.append(InvalidProduct(productID: product.id, reason: .noPrice(storefronts: lastMissing.codes)))
            }
        }
        return output
    }

    /// Why a price cannot be shown under the run's options, naming the product and target.
    private func refusal(_ product: Product, _ price: Price, _ index: Int) -> StorePriceError {
        do {
            _ = try formatters[localeIndex[index]].format(price)
            return .icuFailure(code: "U_INTERNAL_PROGRAM_ERROR", operation: "format \(price)")
        } catch {
            guard let origin = product.origin else {
                return .invalidCatalog(
                    source: "catalog", line: nil, field: "\(product.id) in \(targets[index])", reason: error.description)
            }
            return origin.error(error, storefrontID: targets[index].storefront.numericID, target: targets[index].description)
        }
    }
}

/// Formatted prices by (price locale, amount), each formatted by ICU once per run and kept in a
/// ``PriceStore`` slot that rows refer to by number.
///
/// Each worker keeps its own table, read without a lock; a miss there goes to the shared table
/// under a lock, and a pair not yet there is formatted and stored once. Real
/// catalogs reuse a few hundred price points per currency; when a catalog's prices never repeat
/// the store fills up, and later prices are kept with their batch instead, so memory stays flat.
final class FormatMemo: Sendable {
    /// `slot(…)` results that are not slots.
    static let full: Int32 = -1
    static let refused: Int32 = -2
    /// The most amounts a worker numbers per currency; past it, amounts go through the shared table.
    static let localLimit = 1 << 14

    private struct Key: Hashable {
        var locale: Int
        var amount: String
    }

    /// One worker's view: amounts numbered per currency, and slots by locale and amount number.
    /// A worker moves it out of the memo for its slice and back after, so the hot loop works on a
    /// local value.
    struct WorkerTable {
        private var amountIDs: [[String: Int32]]
        private var packedIDs: [PackedAmount.Table]
        private var slots: [[Int32]]
        private var nextID: [Int32]

        init(locales: Int, currencies: Int) {
            amountIDs = Array(repeating: [:], count: currencies)
            packedIDs = Array(repeating: PackedAmount.Table(), count: currencies)
            nextID = Array(repeating: 0, count: currencies)
            slots = Array(repeating: [], count: locales)
        }

        /// The worker's number for an amount in a currency, or -1 past ``FormatMemo/localLimit``.
        mutating func amountID(_ amount: String, currency: Int) -> Int32 {
            if let known = amountIDs[currency][amount] { return known }
            let id = nextNumber(currency)
            if id >= 0 { amountIDs[currency][amount] = id }
            return id
        }

        /// The same for an amount packed by ``PackedAmount/pack(_:)``; one numbering serves both,
        /// since an amount is always looked up the same way.
        mutating func amountID(packed amount: UInt64, currency: Int) -> Int32 {
            if let known = packedIDs[currency][amount] { return known }
            let id = nextNumber(currency)
            if id >= 0 { packedIDs[currency].insert(amount, id) }
            return id
        }

        private mutating func nextNumber(_ currency: Int) -> Int32 {
            guard nextID[currency] < FormatMemo.localLimit else { return -1 }
            defer { nextID[currency] += 1 }
            return nextID[currency]
        }

        func slot(locale: Int, amountID: Int32) -> Int32? {
            guard amountID >= 0, Int(amountID) < slots[locale].count else { return nil }
            let slot = slots[locale][Int(amountID)]
            return slot >= 0 ? slot : nil
        }

        mutating func remember(_ slot: Int32, locale: Int, amountID: Int32) {
            guard amountID >= 0, slot >= 0 else { return }
            let needed = Int(amountID) + 1
            if slots[locale].count < needed {
                slots[locale].append(contentsOf: repeatElement(-1, count: needed - slots[locale].count))
            }
            slots[locale][Int(amountID)] = slot
        }
    }

    /// Sendable notes: box `i` is touched only by the thread running worker `i`'s slice.
    private final class Box: @unchecked Sendable {
        var table: WorkerTable
        init(_ table: WorkerTable) { self.table = table }
    }

    let store = PriceStore()
    private let local: [Box]
    private let shared = Locked<[Key: Int32]>([:])

    init(locales: Int, currencies: Int, workers: Int) {
        local = (0..<workers).map { _ in Box(WorkerTable(locales: locales, currencies: currencies)) }
    }

    /// Moves worker `worker`'s table out, leaving an empty one until ``putBack(_:worker:)``.
    func takeTable(_ worker: Int) -> WorkerTable {
        let box = local[worker]
        let table = box.table
        box.table = WorkerTable(locales: 0, currencies: 0)
        return table
    }

    func putBack(_ table: consuming WorkerTable, worker: Int) {
        local[worker].table = table
    }

    /// How many pairs ICU has formatted into the store. Read between batches, when no worker runs.
    var count: Int { store.count }

    /// The store slot of a price in a locale, after a miss in the worker's table: formatted on
    /// first sight; ``full`` when the store has no room left, ``refused`` when the formatter
    /// refuses the price.
    func slot(_ price: Price, locale: Int, amountID: Int32, table: inout WorkerTable, formatters: [PriceFormatter]) -> Int32 {
        let key = Key(locale: locale, amount: price.amount)
        if let known = shared.withLock({ $0[key] }) {
            table.remember(known, locale: locale, amountID: amountID)
            return known
        }
        // ICU runs outside the lock, so workers meeting new prices at once do not queue; two
        // that race on the same pair both format it, and the first stored is kept.
        guard !store.isFull else { return FormatMemo.full }
        guard let text = try? formatters[locale].format(price) else { return FormatMemo.refused }
        let slot = shared.withLock { entries -> Int32 in
            if let known = entries[key] { return known }
            guard !store.isFull else { return FormatMemo.full }
            let slot = store.append(PriceStore.Slot(price: price, formatted: text))
            entries[key] = slot
            return slot
        }
        table.remember(slot, locale: locale, amountID: amountID)
        return slot
    }
}

/// Short amount text as one integer: up to 8 ASCII bytes, little-endian. Nonzero for any
/// amount (digits are never NUL); 0 means "longer than 8 bytes".
enum PackedAmount {
    static func pack(_ amount: String) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for byte in amount.utf8 {
            guard shift < 64 else { return 0 }
            value |= UInt64(byte) << shift
            shift += 8
        }
        return value
    }

    /// A small open-addressing table from packed amounts to numbers.
    struct Table {
        private var keys = [UInt64](repeating: 0, count: 64)
        private var values = [Int32](repeating: 0, count: 64)
        private var count = 0

        subscript(key: UInt64) -> Int32? {
            let mask = keys.count - 1
            var index = Self.hash(key) & mask
            while true {
                let found = keys[index]
                if found == key { return values[index] }
                if found == 0 { return nil }
                index = (index + 1) & mask
            }
        }

        mutating func insert(_ key: UInt64, _ value: Int32) {
            if (count + 1) * 2 > keys.count { grow() }
            let mask = keys.count - 1
            var index = Self.hash(key) & mask
            while keys[index] != 0 && keys[index] != key { index = (index + 1) & mask }
            if keys[index] == 0 { count += 1 }
            keys[index] = key
            values[index] = value
        }

        private mutating func grow() {
            let oldKeys = keys
            let oldValues = values
            keys = [UInt64](repeating: 0, count: oldKeys.count * 2)
            values = [Int32](repeating: 0, count: oldKeys.count * 2)
            count = 0
            for (key, value) in zip(oldKeys, oldValues) where key != 0 { insert(key, value) }
        }

        private static func hash(_ key: UInt64) -> Int {
            Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32)
        }
    }
}

/// Formatted prices, each written once into a slot that never moves, read by number.
///
/// Slots live in fixed chunks allocated as needed; the chunk table is allocated whole up front, so
/// appending never moves what readers see.
///
/// Sendable notes: `append` runs under `FormatMemo`'s lock. A slot is read only by a batch made
/// after the workers that wrote it have finished (`concurrentPerform` returns), and never changes.
final class PriceStore: @unchecked Sendable {
    struct Slot: Sendable {
        let price: Price
        let formatted: String
    }

    static let chunkSize = 4096
    static let chunkCount = 64
    /// The most slots: 262,144.
    static let capacity = chunkSize * chunkCount

    private let chunks: UnsafeMutablePointer<UnsafeMutablePointer<Slot>?>
    /// Written under `FormatMemo`'s lock, read without it (workers check `isFull` before asking
    /// ICU), hence atomic.
    private let stored = Atomic<Int>(0)

    var count: Int { stored.load(ordering: .acquiring) }

    init() {
        chunks = .allocate(capacity: Self.chunkCount)
        chunks.initialize(repeating: nil, count: Self.chunkCount)
    }

    deinit {
        for chunk in 0..<Self.chunkCount {
            guard let slots = chunks[chunk] else { continue }
            let used = min(Self.chunkSize, max(0, count - chunk * Self.chunkSize))
            slots.deinitialize(count: used)
            slots.deallocate()
        }
        chunks.deallocate()
    }

    var isFull: Bool { count == Self.capacity }

    func append(_ slot: Slot) -> Int32 {
        let index = count
        let chunk = index / Self.chunkSize
        if chunks[chunk] == nil { chunks[chunk] = .allocate(capacity: Self.chunkSize) }
        (chunks[chunk].unsafelyUnwrapped + index % Self.chunkSize).initialize(to: slot)
        stored.store(index + 1, ordering: .releasing)
        return Int32(index)
    }

    subscript(index: Int) -> Slot {
        chunks[index / Self.chunkSize].unsafelyUnwrapped[index % Self.chunkSize]
    }
}

/// One result slot per slice, each written by one worker and read after all have finished.
///
/// The slots are one fixed allocation, not an array: workers writing different elements of a
/// Swift array at once would each make a modifying access to the whole array, which is a race.
///
/// Sendable notes: slot `i` is written only by slice `i`, and read only after `concurrentPerform` returns.
final class SliceResults<Output>: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<Result<Output, StorePriceError>?>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    func store(_ index: Int, _ result: Result<Output, StorePriceError>) {
        slots[index] = result
    }

    func take(_ index: Int) -> Result<Output, StorePriceError> {
        slots[index] ?? .failure(.icuFailure(code: "U_INTERNAL_PROGRAM_ERROR", operation: "render a batch"))
    }
}
