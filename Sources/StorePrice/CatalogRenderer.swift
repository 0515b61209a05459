import Dispatch
public import Logging
import Synchronization

/// Who a catalog is rendered for: a storefront, or a test account (which names its storefront).
///
/// Targets are shared by reference between the rows rendered for them.
public final class RenderTarget: Sendable, CustomStringConvertible {
    /// The storefront whose prices are shown.
    public let storefront: Storefront
    /// The test account, when rendering for accounts.
    public let account: TestAccount?
    /// The price locale prices are shown in.
    public let priceLocale: PriceLocale
    let titleChain: TitleChain

    /// A storefront, in its default price locale.
    public init(storefront: Storefront) {
        self.storefront = storefront
        self.account = nil
        self.priceLocale = storefront.priceLocale
        self.titleChain = TitleChain(priceLocale: storefront.priceLocale)
    }

    /// A test account, in its store's price locale.
    public init(account: TestAccount) {
        self.storefront = account.storefront
        self.account = account
        self.priceLocale = account.priceLocale
        self.titleChain = TitleChain(priceLocale: account.priceLocale)
    }

    /// One target per storefront.
    public static func storefronts(_ storefronts: [Storefront]) -> [RenderTarget] {
        storefronts.map(RenderTarget.init(storefront:))
    }

    /// One target per test account.
    public static func accounts(_ accounts: [TestAccount]) -> [RenderTarget] {
        accounts.map(RenderTarget.init(account:))
    }

    public var description: String { account.map { "\($0.name) (\(storefront.alpha3))" } ?? storefront.alpha3 }
}

/// One rendered price: a product, for a target, in its price locale.
public struct RenderedRow: Sendable {
    /// The product ID.
    public let productID: String
    /// The storefront or test account the row is for.
    public let target: RenderTarget
    /// The price in the target's storefront.
    public let price: Price
    /// The price as the target's store shows it.
    public let formatted: String
    /// The product's title in the store language, falling back to the language alone, then English.
    public let title: String?
}

/// A product the store would report as invalid: one the catalog lacks, or one with no price in a
/// requested storefront.
public struct InvalidProduct: Hashable, Sendable, CustomStringConvertible {
    /// Why a product is invalid.
    public enum Reason: Hashable, Sendable {
        /// The product-ID list names it, but the catalog has no such product.
        case notInCatalog
        /// The product has no price in these storefronts (alpha-3 codes, sorted).
        case noPrice(storefronts: [String])
    }

    public let productID: String
    public let reason: Reason

    public init(productID: String, reason: Reason) {
        self.productID = productID
        self.reason = reason
    }

    public var description: String { "\(productID): \(reasonDescription)" }

    /// Why, in words: `not in the catalog`, `no price in BLR, RUS`.
    public var reasonDescription: String {
        switch reason {
        case .notInCatalog: "not in the catalog"
        case .noPrice(let storefronts): "no price in \(storefronts.joined(separator: ", "))"
        }
    }
}

/// What a rendering run did.
public struct RenderReport: Sendable {
    /// Rows rendered.
    public var rows = 0
    /// Products read from the catalog, after any product-ID list.
    public var products = 0
    /// Distinct (price locale, amount) pairs formatted by ICU. Past the memo's limit (262,144
    /// pairs) a pair is formatted each time it appears and counted each time.
    public var distinctPrices = 0
    /// Invalid products, in catalog order, then the listed IDs the catalog lacks in list order.
    public var invalidProducts: [InvalidProduct] = []
}

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
///     for row in rows { print(row.productID, row.target, row.formatted) }
/// }
/// print(report.invalidProducts)
/// ```
public struct CatalogRenderer: Sendable {
    /// Who to render for, in output order.
    public let targets: [RenderTarget]
    /// Currency display and rounding.
    public let options: PriceFormatter.Options
    /// Threads that render at once.
    public let workers: Int
    /// Products per batch handed to the workers.
    public let batchSize: Int
    /// Where invalid products are reported, once per run.
    public let logger: Logger

    /// - Parameters:
    ///   - targets: storefronts or test accounts, in output order.
    ///   - options: currency display and rounding for every price.
    ///   - workers: threads to render on; by default one per processor.
    ///   - batchSize: products per batch; memory holds about two batches of rows.
    ///   - logger: receives one warning per invalid product.
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
    ///   - emit: called on the calling thread with each batch's rows, in order.
    /// - Returns: counts and the invalid products, which are also logged.
    /// - Throws: the catalog's errors; a price ICU cannot format under the options (such as
    ///   `JPY 160.5` with `.reject`), naming the product and storefront; and what `emit` throws.
    public func render(
        _ source: inout some CatalogSource,
        productIDs: ProductIDList? = nil,
        progress: ((RenderReport, (done: Int, total: Int?)) -> Void)? = nil,
        emit: ([RenderedRow]) throws -> Void
    ) throws -> RenderReport {
        let wanted = productIDs.map { Set($0.ids) }
        var found: Set<String> = []
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
            logger.warning(
                "invalid product",
                metadata: ["product_id": "\(invalid.productID)", "reason": "\(invalid.reasonDescription)"])
        }
        return report
    }
}

/// The per-run state of a rendering: targets grouped by price locale, and the format memo.
final class RenderPlan: Sendable {
    let targets: [RenderTarget]
    /// Each target's storefront ID, read once per row.
    let storefrontIDs: [Int]
    let localeIndex: [Int]
    /// Each target's title chain, by index into `chains`.
    let chainIndex: [Int]
    let chains: [TitleChain]
    let formatters: [PriceFormatter]
    let workers: Int
    let memo: FormatMemo

    init(targets: [RenderTarget], options: PriceFormatter.Options, workers: Int) throws(StorePriceError) {
        var indexByLocale: [PriceLocale: Int] = [:]
        var formatters: [PriceFormatter] = []
        var localeIndex: [Int] = []
        for target in targets {
            if let index = indexByLocale[target.priceLocale] {
                localeIndex.append(index)
            } else {
                indexByLocale[target.priceLocale] = formatters.count
                localeIndex.append(formatters.count)
                formatters.append(try PriceFormatter(locale: target.priceLocale, options: options))
            }
        }
        var chains: [TitleChain] = []
        var chainIndex: [Int] = []
        for target in targets {
            if let index = chains.firstIndex(of: target.titleChain) {
                chainIndex.append(index)
            } else {
                chainIndex.append(chains.count)
                chains.append(target.titleChain)
            }
        }
        self.targets = targets
        self.storefrontIDs = targets.map(\.storefront.id)
        self.localeIndex = localeIndex
        self.chainIndex = chainIndex
        self.chains = chains
        self.formatters = formatters
        self.workers = workers
        self.memo = FormatMemo(locales: formatters.count, workers: workers)
    }

    /// Renders a batch: contiguous slices on each worker, joined in order.
    func render(_ products: [Product]) throws(StorePriceError) -> (rows: [RenderedRow], invalid: [InvalidProduct]) {
        let slices = min(workers, products.count)
        let results = SliceResults(count: slices)
        let perSlice = (products.count + slices - 1) / slices
        let work: @Sendable (Int) -> Void = { slice in
            let range = (slice * perSlice)..<min(products.count, (slice + 1) * perSlice)
            results.store(slice, Result { () throws(StorePriceError) in try self.render(products[range], worker: slice) })
        }
        if slices == 1 {
            work(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: slices, execute: work)
        }
        var rows: [RenderedRow] = []
        rows.reserveCapacity(products.count * targets.count)
        var invalid: [InvalidProduct] = []
        for slice in 0..<slices {
            let part = try results.take(slice).get()
            rows.append(contentsOf: part.rows)
            invalid.append(contentsOf: part.invalid)
        }
        return (rows, invalid)
    }

    private func render(_ products: ArraySlice<Product>, worker: Int) throws(StorePriceError)
        -> (rows: [RenderedRow], invalid: [InvalidProduct])
    {
        var rows: [RenderedRow] = []
        rows.reserveCapacity(products.count * targets.count)
        var invalid: [InvalidProduct] = []
        // Titles resolved for the current product, by chain index; .none when not yet looked up.
        var titles = [String??](repeating: .none, count: chains.count)
        for product in products {
            let prices = product.prices
            var missing = 0
            if !product.titles.isEmpty {
                for index in titles.indices { titles[index] = .none }
            }
            for index in 0..<storefrontIDs.count {
                guard let price = prices[storefrontIDs[index]] else {
                    missing += 1
                    continue
                }
                let locale = localeIndex[index]
                guard let formatted = memo.formatted(price, locale: locale, worker: worker, formatters: formatters) else {
                    // Only a price the options cannot show gets here; find out why, once.
                    do {
                        _ = try formatters[locale].format(price)
                    } catch {
                        throw .invalidCatalog(
                            source: "catalog", line: nil, field: "\(product.id) in \(targets[index])",
                            reason: error.description)
                    }
                    continue
                }
                let title: String?
                if product.titles.isEmpty {
                    title = nil
                } else if let known = titles[chainIndex[index]] {
                    title = known
                } else {
                    title = product.title(following: chains[chainIndex[index]])
                    titles[chainIndex[index]] = .some(title)
                }
                rows.append(
                    RenderedRow(productID: product.id, target: targets[index], price: price, formatted: formatted, title: title))
            }
            if missing > 0 {
                var codes: [String] = []
                for index in 0..<storefrontIDs.count where prices[storefrontIDs[index]] == nil {
                    let code = targets[index].storefront.alpha3
                    if !codes.contains(code) { codes.append(code) }
                }
                invalid.append(InvalidProduct(productID: product.id, reason: .noPrice(storefronts: codes.sorted())))
            }
        }
        return (rows, invalid)
    }
}

/// Formatted prices by (price locale, amount): each formatted by ICU once per run.
///
/// Each worker keeps its own table, read without a lock; a miss there goes to the shared table
/// under a `Mutex`, where a pair not yet formatted is formatted, so ICU sees it only once.
/// Real catalogs reuse a few hundred price points per currency; a catalog whose prices never
/// repeat would grow the tables without end, so past `sharedLimit` and `localLimit` entries
/// new pairs are formatted without being kept, and memory stays flat.
final class FormatMemo: Sendable {
    static let sharedLimit = 1 << 18
    static let localLimit = 1 << 16

    private struct Key: Hashable {
        var locale: Int
        var amount: String
    }

    /// One worker's formatted prices by locale index, then amount.
    ///
    /// Sendable notes: only the thread running that worker's slice touches it.
    private final class WorkerTable: @unchecked Sendable {
        var byLocale: [[String: String]]
        var count = 0
        init(locales: Int) { byLocale = Array(repeating: [:], count: locales) }
    }

    private let local: [WorkerTable]
    private let shared = Mutex<[Key: String]>([:])
    private let formattedCount = Atomic<Int>(0)

    init(locales: Int, workers: Int) {
        local = (0..<workers).map { _ in WorkerTable(locales: locales) }
    }

    /// How many pairs ICU has formatted.
    var count: Int { formattedCount.load(ordering: .relaxed) }

    /// The formatted price, or nil when the formatter refuses it.
    func formatted(_ price: Price, locale: Int, worker: Int, formatters: [PriceFormatter]) -> String? {
        let table = local[worker]
        if let known = table.byLocale[locale][price.amount] { return known }
        let key = Key(locale: locale, amount: price.amount)
        let text = shared.withLock { table -> String? in
            if let known = table[key] { return known }
            guard let text = try? formatters[locale].format(price) else { return nil }
            formattedCount.add(1, ordering: .relaxed)
            if table.count < FormatMemo.sharedLimit { table[key] = text }
            return text
        }
        if let text, table.count < FormatMemo.localLimit {
            table.byLocale[locale][price.amount] = text
            table.count += 1
        }
        return text
    }
}

/// One result slot per slice, each written by one worker and read after all have finished.
///
/// Sendable notes: slot `i` is written only by slice `i`, and read only after `concurrentPerform` returns.
final class SliceResults: @unchecked Sendable {
    private var slots: [Result<(rows: [RenderedRow], invalid: [InvalidProduct]), StorePriceError>?]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func store(_ index: Int, _ result: Result<(rows: [RenderedRow], invalid: [InvalidProduct]), StorePriceError>) {
        slots[index] = result
    }

    func take(_ index: Int) -> Result<(rows: [RenderedRow], invalid: [InvalidProduct]), StorePriceError> {
        slots[index] ?? .success(([], []))
    }
}
