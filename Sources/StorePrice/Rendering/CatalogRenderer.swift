public import Logging

/// Renders every product's price for every target, fast, in a deterministic order, as rows you
/// can read field by field.
///
/// This is ``BulkRenderer``'s pipeline handing rows as values: products are read in batches and
/// spread over worker threads; each (target, amount) pair is formatted by ICU once and reused.
/// Rows come out in catalog order, and for each product in target order, whatever the number of
/// workers.
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
    /// Threads that render at once, the calling thread among them: no more threads render than
    /// the processors this process may use, so workers past them add none.
    public let workers: Int
    /// Products per batch handed to a worker, and to `emit`; nil for about 2,048 rows a batch
    /// (and at least 8 products), so that a small render is one batch on the calling thread.
    public let batchSize: Int?
    /// Where invalid products are reported, once per run.
    public let logger: Logger
    /// The pipeline that renders, made once so that its runs find their context again.
    private let bulk: BulkRenderer

    /// A renderer for these targets; ICU formatters are opened when a run starts.
    ///
    /// - Parameters:
    ///   - targets: storefronts or test accounts, in output order.
    ///   - options: currency display and rounding for every price.
    ///   - workers: threads to render on; by default one per processor.
    ///   - batchSize: products per batch; memory holds about two batches of rows per worker. By
    ///     default about 2,048 rows' worth.
    ///   - logger: receives one debug message per invalid product (the report holds them all).
    public init(
        targets: [RenderTarget],
        options: PriceFormatter.Options = .init(),
        workers: Int = CatalogRenderer.processorCount,
        batchSize: Int? = nil,
        logger: Logger = Logger(label: "StorePrice.CatalogRenderer")
    ) {
        self.targets = targets
        self.options = options
        self.workers = max(1, workers)
        self.batchSize = batchSize.map { max(1, $0) }
        self.logger = logger
        bulk = BulkRenderer(targets: targets, options: options, workers: workers)
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
        var batches = OneProductAtATime(source: source)
        defer { source = batches.source }
        return try render(batches: &batches, productIDs: productIDs, progress: progress, emit: emit)
    }

    /// Renders a catalog read a chunk at a time, and logs its invalid products.
    private func render(
        batches: inout some ProductBatches, productIDs: ProductIDList?,
        progress: ((RenderReport, (done: Int, total: Int?)) -> Void)?, emit: (RenderedBatch) throws -> Void
    ) throws -> RenderReport {
        let report = try bulk.renderRows(
            &batches, productsPerBatch: batchSize, productIDs: productIDs, progress: progress, emit: emit)
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
        rows.reserveCapacity(products.count * targets.count)
        do {
            let report = try render(batches: &source, productIDs: productIDs, progress: nil) { batch in rows += batch }
            return (rows, report)
        } catch let error as StorePriceError {
            throw error
        } catch {
            // `emit` above throws nothing.
            throw .invalidCatalog(source: "products in memory", line: nil, field: nil, reason: "\(error)")
        }
    }
}
