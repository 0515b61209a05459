#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Renders a whole CSV or JSON Lines catalog file straight to JSON Lines or CSV bytes, on every
/// core.
///
/// This is `storeprice render` for CSV and JSON Lines catalogs, as a library: the catalog is read
/// in chunks of 32 KiB cut at product boundaries; each worker parses its chunk on its bytes,
/// renders every product for every target and encodes the rows into its own buffer; buffers are
/// written in input order. The part of a row that depends only on its target and price is
/// formatted by ICU and encoded once per run, and copied into every row that shows it. Rows come
/// in catalog order, then target order. ``CatalogRenderer`` is this pipeline handing rows as
/// values; products in memory and a `.storekit` file's products go through it a few at a time.
///
/// ```swift
/// let renderer = BulkRenderer(targets: RenderTarget.storefronts(Storefront.all), format: .jsonLines)
/// let report = try renderer.renderCSV(at: "catalog.csv") { bytes in
///     // Write `bytes` somewhere; they are valid only during the call.
///     _ = bytes.count
/// }
/// print(report.rows, report.invalidProducts)
/// ```
///
/// Memory stays flat whatever the catalog's size: the chunks in flight and their rows (a few
/// MiB), and the amounts and encoded parts the workers share: past 12,288 amounts or 6 MiB of
/// parts, workers move to fresh tables between products, and the full ones go. To find a product
/// that appears twice, each product is kept as a 16-byte digest with its first line: about 70
/// bytes a product. A repeated product stops the run at its line. Invalid products are kept in
/// the report, unless an `invalidProduct` closure takes them as they come.
public struct BulkRenderer: Sendable {
    /// The encoding of the rows.
    public enum Format: String, Sendable, CaseIterable {
        /// One JSON object per row, the keys in a fixed order.
        case jsonLines
        /// RFC 4180 CSV with a header line.
        case csv
        /// A JSON array: the JSON Lines objects, one per line, between `[` and `]`.
        case json
    }

    /// Who to render for, in output order.
    public let targets: [RenderTarget]
    /// The encoding of the rows.
    public let format: Format
    /// Currency display and rounding.
    public let options: PriceFormatter.Options
    /// Threads that render at once: the calling thread and helpers of the process's pool (see
    /// `HelperPool`), one per worker up to the processors this process may use; workers past
    /// those add nothing (on 2 cores, 8 threads took 99 ms for the benchmark catalog where 2
    /// took 73). A run of one chunk renders on the calling thread alone.
    public let workers: Int
    /// Whether formatted prices are written with every non-ASCII character as `\u{XXXX}`.
    public let escapeNonASCII: Bool
    /// Whether CSV cells of catalog text are written exactly, formulas included; by default a
    /// cell that starts with `=`, `+`, `-`, `@` or a control character gets a leading `'`.
    public let rawCSV: Bool
    /// Which product IDs a catalog may have: App Store Connect's by default.
    public let productIDRule: ProductIDRule

    /// Bytes of catalog per chunk: small enough that the chunks in flight and their rows stay
    /// in a core's cache (with 128 KiB chunks, two workers spent a third more time per row than
    /// one, writing rows to memory other cores had used), large enough that a chunk's reading
    /// and writing cost little beside its rows.
    static let chunkSize = 32 << 10
    /// The most bytes one product's rows may take in a catalog.
    static let productLimit = 64 << 20

    /// A bulk renderer for these targets; nothing is opened until a run starts.
    ///
    /// - Parameters:
    ///   - targets: storefronts or test accounts, in output order.
    ///   - format: JSON Lines (the default) or CSV.
    ///   - options: currency display and rounding for every price.
    ///   - workers: threads to render on; by default one per processor this process may use, the
    ///     most a run starts (see ``workers``).
    ///   - escapeNonASCII: write formatted prices with non-ASCII characters escaped.
    ///   - rawCSV: write CSV cells of catalog text exactly, formulas included.
    ///   - rule: which product IDs a catalog may have; App Store Connect's by default.
    public init(
        targets: [RenderTarget],
        format: Format = .jsonLines,
        options: PriceFormatter.Options = .init(),
        workers: Int = CatalogRenderer.processorCount,
        escapeNonASCII: Bool = false,
        rawCSV: Bool = false,
        productIDRule rule: ProductIDRule = .appStore
    ) {
        self.productIDRule = rule
        self.targets = targets
        self.format = format
        self.options = options
        self.workers = max(1, workers)
        self.escapeNonASCII = escapeNonASCII
        self.rawCSV = rawCSV
    }

    /// The contexts of this renderer's last runs of products in memory.
    private let memo = RenderContext.Memo()

    /// Renders a CSV catalog (header `product,storefront,price`, each product's rows together),
    /// handing the encoded rows to `write` in order, a chunk at a time.
    ///
    /// - Parameters:
    ///   - path: the catalog file; `-` is standard input.
    ///   - productIDs: when given, only these products are rendered, and listed IDs the catalog
    ///     lacks are invalid products.
    ///   - progress: called after each chunk with the counts so far and how far the file has been read.
    ///   - invalidProduct: when given, called on the calling thread with each invalid product,
    ///     in the report's order, as its chunk is written, and the report keeps none: memory
    ///     then stays flat however many products are invalid. What it throws ends the run.
    ///   - write: called on the calling thread with the CSV header (for CSV) and each chunk's
    ///     rows; the bytes are valid only during the call. What it throws ends the run.
    /// - Returns: counts and the invalid products. `distinctPrices` counts the prices this run
    ///   formatted with ICU (see ``RenderReport/distinctPrices``).
    /// - Throws: ``StorePriceError`` for the catalog's first unusable line, naming the file,
    ///   line and field, or a price the options cannot show; and what `write` and
    ///   `invalidProduct` throw.
    public func renderCSV(
        at path: String,
        productIDs: ProductIDList? = nil,
        progress: ((RenderReport, (done: Int, total: Int?)) -> Void)? = nil,
        invalidProduct: ((InvalidProduct) throws -> Void)? = nil,
        write: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> RenderReport {
        try run(
            file: ChunkReader(path: path, cut: .products), csv: true, path: path, productIDs: productIDs,
            progress: progress, invalidProduct: invalidProduct, write: write)
    }

    /// Renders a JSON Lines catalog (one product per line, as ``Catalog/open(_:format:productIDRule:effectiveOn:)`` reads
    /// it, subscriptions and offers included), handing the encoded rows to `write` in order, a
    /// chunk at a time.
    ///
    /// Lines of the usual shape (`product`, `prices`, `title`, `description`) are read on their
    /// bytes; any other line is read by the JSON Lines reader's own parser and made into rows as
    /// values, on the worker that has its chunk: its rows and errors are those of the catalog's
    /// products read by ``Catalog/open(_:format:productIDRule:effectiveOn:)``, byte for byte.
    ///
    /// - Parameters: as ``renderCSV(at:productIDs:progress:invalidProduct:write:)``.
    /// - Returns: counts, the invalid products and the price locales without offer wording.
    /// - Throws: as ``renderCSV(at:productIDs:progress:invalidProduct:write:)``.
    public func renderJSONLines(
        at path: String,
        productIDs: ProductIDList? = nil,
        progress: ((RenderReport, (done: Int, total: Int?)) -> Void)? = nil,
        invalidProduct: ((InvalidProduct) throws -> Void)? = nil,
        write: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> RenderReport {
        try run(
            file: ChunkReader(path: path, cut: .lines), csv: false, path: path, productIDs: productIDs,
            progress: progress, invalidProduct: invalidProduct, write: write)
    }

    /// Renders a catalog whose bytes are in memory, such as a request body, as
    /// ``renderJSONLines(at:productIDs:progress:invalidProduct:write:)`` and
    /// ``renderCSV(at:productIDs:progress:invalidProduct:write:)`` render a file: the same
    /// pipeline, checks and bytes.
    ///
    /// ```swift
    /// let body = Array(#"{"product":"coins.100","prices":{"USA":"0.99","JPN":"160"}}"#.utf8)
    /// var rows: [UInt8] = []
    /// let renderer = BulkRenderer(targets: RenderTarget.storefronts([try Storefront("USA"), try Storefront("JPN")]))
    /// _ = try renderer.render(catalog: body, format: .jsonl, name: "request body") { rows += $0 }
    /// ```
    ///
    /// - Parameters:
    ///   - catalog: the catalog's bytes.
    ///   - catalogFormat: ``CatalogFormat/jsonl`` or ``CatalogFormat/csv``; a `.storekit` file is
    ///     read with ``StoreKitConfiguration`` and rendered with ``render(_:productIDs:invalidProduct:write:)``.
    ///   - name: what errors call the catalog: `catalog 'request body', line 3, …`.
    ///   - productIDs: when given, only these products are rendered, and listed IDs the catalog
    ///     lacks are invalid products.
    ///   - progress: called after each chunk with the counts so far and how far the bytes have been read.
    ///   - invalidProduct: when given, called with each invalid product instead of keeping it in
    ///     the report.
    ///   - write: called on the calling thread with the CSV header (for CSV) and each chunk's
    ///     rows; the bytes are valid only during the call.
    /// - Returns: counts, the invalid products and the price locales without offer wording.
    /// - Throws: as for a file, the catalog named `name`.
    public func render(
        catalog: [UInt8],
        format catalogFormat: CatalogFormat,
        name: String,
        productIDs: ProductIDList? = nil,
        progress: ((RenderReport, (done: Int, total: Int?)) -> Void)? = nil,
        invalidProduct: ((InvalidProduct) throws -> Void)? = nil,
        write: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> RenderReport {
        switch catalogFormat {
        case .csv, .jsonl:
            let csv = catalogFormat == .csv
            return try run(
                file: ChunkReader(bytes: catalog, name: name, cut: csv ? .products : .lines), csv: csv, path: name,
                productIDs: productIDs, progress: progress, invalidProduct: invalidProduct, write: write)
        case .storekit:
            let configuration = try StoreKitConfiguration(data: catalog, source: name, productIDRule: productIDRule)
            return try render(
                configuration.products.products, productIDs: productIDs, invalidProduct: invalidProduct, write: write)
        case .appStoreConnect:
            // One response, its prices in effect today.
            let responses = try AppStoreConnectCatalog(documents: [(name, catalog)], effectiveOn: Date(), productIDRule: productIDRule)
            return try render(
                responses.products.products, productIDs: productIDs, invalidProduct: invalidProduct, write: write)
        case .play:
            let documents = try PlayCatalog(documents: [(name, catalog)], productIDRule: productIDRule)
            return try render(
                documents.products.products, productIDs: productIDs, invalidProduct: invalidProduct, write: write)
        }
    }

    /// Renders products already in memory straight to JSON Lines or CSV bytes: the rows
    /// `storeprice render` writes for a catalog of these products, byte for byte, the CSV header
    /// first.
    ///
    /// Products go through the pipeline a catalog file goes through, a few at a time on every
    /// worker, each (target, amount) pair formatted and encoded once; a subscription is rendered
    /// as ``CatalogRenderer`` renders it. The benchmark catalog (10,000 products × 175
    /// storefronts) takes 1.3 times as long from memory as from a JSON Lines file with one
    /// worker, and 1.8 times with two (see <doc:Benchmarks>).
    ///
    /// ```swift
    /// let products = [try Product(id: "coins.100", prices: ["USA": "0.99", "JPN": "160"])]
    /// var body: [UInt8] = []
    /// let renderer = BulkRenderer(targets: RenderTarget.storefronts([try Storefront("JPN")]))
    /// _ = try renderer.render(products) { body += $0 }
    /// // {"product":"coins.100","storefront":"JPN","account":null,"price_locale":"ja_JP@currency=JPY","amount":"160",…}
    /// ```
    ///
    /// - Parameters:
    ///   - products: the catalog; a product ID may appear once.
    ///   - productIDs: when given, only these products are rendered, and listed IDs the catalog
    ///     lacks are invalid products.
    ///   - invalidProduct: when given, called with each invalid product instead of keeping it in
    ///     the report.
    ///   - write: called on the calling thread with the CSV header (for CSV) and each batch's
    ///     rows; the bytes are valid only during the call.
    /// - Returns: counts, the invalid products and the price locales without offer wording.
    /// - Throws: ``StorePriceError`` for a repeated product ID or a price the options cannot show,
    ///   and what `write` and `invalidProduct` throw.
    public func render(
        _ products: [Product],
        productIDs: ProductIDList? = nil,
        invalidProduct: ((InvalidProduct) throws -> Void)? = nil,
        write: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> RenderReport {
        var source = ProductList(products, productIDRule: productIDRule)
        return try withoutActuallyEscaping(write) { write in
            try run(
                nil, columns: nil, products: &source, path: "products in memory", productIDs: productIDs,
                progress: nil, invalidProduct: invalidProduct, output: .bytes(write))
        }
    }

    /// Renders the products of any catalog source (a `.storekit` file read by
    /// ``Catalog/open(_:format:productIDRule:effectiveOn:)``, a ``ProductList``) straight to JSON Lines, JSON or
    /// CSV bytes, as ``render(_:productIDs:invalidProduct:write:)`` renders products in memory. The
    /// source checks its product IDs, by its own rule.
    ///
    /// - Parameters:
    ///   - source: the catalog; read to its end.
    ///   - productIDs: when given, only these products are rendered, and listed IDs the catalog
    ///     lacks are invalid products.
    ///   - progress: called after each batch with the counts so far and how far the source has read.
    ///   - invalidProduct: when given, called with each invalid product instead of keeping it in
    ///     the report.
    ///   - write: called on the calling thread with the CSV header (for CSV) and each batch's
    ///     rows; the bytes are valid only during the call.
    /// - Returns: counts, the invalid products and the price locales without offer wording.
    /// - Throws: the source's errors, a price the options cannot show, and what `write` and
    ///   `invalidProduct` throw.
    public func render(
        _ source: inout some CatalogSource,
        productIDs: ProductIDList? = nil,
        progress: ((RenderReport, (done: Int, total: Int?)) -> Void)? = nil,
        invalidProduct: ((InvalidProduct) throws -> Void)? = nil,
        write: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> RenderReport {
        var batches = OneProductAtATime(source: source)
        defer { source = batches.source }
        return try withoutActuallyEscaping(write) { write in
            try run(
                nil, columns: nil, products: &batches, path: "products in memory", productIDs: productIDs,
                progress: progress, invalidProduct: invalidProduct, output: .bytes(write))
        }
    }

    /// Renders a catalog's products to rows as values, a batch at a time: what
    /// ``CatalogRenderer`` does. The source checks its product IDs.
    func renderRows(
        _ source: inout some ProductBatches, productsPerBatch: Int?, productIDs: ProductIDList?,
        progress: ((RenderReport, (done: Int, total: Int?)) -> Void)?, emit: (RenderedBatch) throws -> Void
    ) throws -> RenderReport {
        try withoutActuallyEscaping(emit) { emit in
            try run(
                nil, columns: nil, products: &source, productsPerChunk: productsPerBatch, path: "products in memory",
                productIDs: productIDs, progress: progress, invalidProduct: nil, output: .rows(emit))
        }
    }

    /// Where a run's rows go: encoded bytes, or rows as values.
    private enum Output {
        case bytes((UnsafeRawBufferPointer) throws -> Void)
        case rows((RenderedBatch) throws -> Void)
    }

    /// Reads a catalog file's start (a CSV header, or a JSON Lines byte order mark), then renders it.
    private func run(
        file reader: ChunkReader, csv: Bool, path: String,
        productIDs: ProductIDList?, progress: ((RenderReport, (done: Int, total: Int?)) -> Void)?,
        invalidProduct: ((InvalidProduct) throws -> Void)?, write: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> RenderReport {
        var columns: (product: Int, storefront: Int, price: Int)?
        if csv {
            columns = try reader.readHeader()
        } else {
            try reader.skipByteOrderMark()
        }
        var none = ProductList([])
        return try withoutActuallyEscaping(write) { write in
            try run(
                reader, columns: columns, products: &none, path: path, productIDs: productIDs, progress: progress,
                invalidProduct: invalidProduct, output: .bytes(write))
        }
    }

    /// Products in memory per chunk: about 2,048 rows, and at least 8 products. A service's
    /// small render (a few products for a few storefronts) is then one chunk, rendered on the
    /// calling thread.
    static func productsPerChunk(targets: Int) -> Int {
        max(8, 2048 / max(1, targets))
    }

    /// Reads, renders and hands on a catalog's chunks, in order: a file's (CSV with its columns,
    /// JSON Lines without), or, without a reader, the products of `products`, a few at a time,
    /// each counted as a line. A file's product IDs are checked here; a source of products
    /// checks its own.
    private func run(
        _ reader: ChunkReader?, columns: (product: Int, storefront: Int, price: Int)?, products: inout some ProductBatches,
        productsPerChunk: Int? = nil, path: String, productIDs: ProductIDList?,
        progress: ((RenderReport, (done: Int, total: Int?)) -> Void)?, invalidProduct: ((InvalidProduct) throws -> Void)?,
        output: Output
    ) throws -> RenderReport {
        let inMemory = reader == nil
        let productsPerChunk = productsPerChunk ?? Self.productsPerChunk(targets: targets.count)
        // Products in memory are read as JSON Lines lines are: each names its product first.
        let jsonLines = columns == nil
        var handsRows = false
        if case .rows = output { handsRows = true }
        // A JSON array's objects are JSON Lines objects, framed as they are written.
        var array = format == .json ? JSONArrayFraming() : nil
        // The context this renderer's last run of products in memory used, found without
        // building and hashing the shape's key; else the one an earlier run of this shape left,
        // with a worker slot free; else a new one.
        let memoized = inMemory && productIDs == nil
        var key: RenderContext.Key?
        let context: RenderContext
        let ownSlot: Int
        if memoized, let last = memo.context(source: path, handsRows: handsRows), let slot = last.lease() {
            (context, ownSlot) = (last, slot)
        } else {
            key = productIDs != nil ? nil : RenderContext.Key(
                targets: targets.map { .init(storefront: $0.storefront.numericID, priceLocale: $0.priceLocale.identifier, account: $0.account) },
                options: options, format: format, escapeNonASCII: escapeNonASCII, rawCSV: rawCSV, titles: jsonLines,
                handsRows: handsRows, columns: columns.map { [$0.product, $0.storefront, $0.price] } ?? [], source: path)
            if let key, let cached = RenderContext.cached(key), let slot = cached.lease() {
                (context, ownSlot) = (cached, slot)
            } else {
                let layout = RowLayout(
                    format: format == .csv ? .csv : .jsonLines, targets: targets, escapeNonASCII: escapeNonASCII, rawCSV: rawCSV)
                context = RenderContext(
                    plan: try BulkPlan(
                        source: path, columns: columns ?? (0, 1, 2), layout: layout, targets: targets, options: options,
                        wanted: productIDs.map { ProductIDSet($0.ids) }, titles: jsonLines, handsRows: handsRows),
                    jsonLines: jsonLines)
                ownSlot = context.lease() ?? 0
            }
        }
        defer {
            if let key { RenderContext.keep(context, for: key) }
            if memoized { memo.remember(context.isLarge ? nil : context, source: path, handsRows: handsRows) }
        }
        let plan = context.plan
        if format == .csv, case .bytes(let write) = output {
            try RowLayout.csvHeader.withUnsafeBytes { try write($0) }
        }
        var report = RenderReport()
        var productsRead = 0
        var registry = ProductRegistry()
        var found = ProductIDSet()
        func repeated(_ id: String, line: Int, first: Int) -> StorePriceError {
            .invalidCatalog(
                source: path, line: line, field: nil,
                reason: "product '\(id.escapedForMessage)' again; line \(first) has it"
                    + (jsonLines ? "" : "; keep each product's rows together"))
        }
        // Lines before the next chunk to finish: a CSV catalog's header is line 1.
        var linesBefore = jsonLines ? 0 : 1
        /// Takes a finished chunk's results in file order: the product-ID checks, its failure,
        /// its rows.
        func finish(_ chunk: BulkChunk) throws {
            let failureLine = chunk.results.failure?.line ?? (chunk.readFailure != nil ? chunk.results.lines + 1 : Int.max)
            // A JSON Lines line names its product before its prices are read: a repeated product
            // is the error, before one in its prices.
            for (id, line) in chunk.results.products
            where line < failureLine || (jsonLines && line == failureLine) || (chunk.results.failure == nil && chunk.readFailure == nil) {
                let absolute = linesBefore + line
                if plan.wanted != nil { found.insert(id) }
                // A source of products has checked its IDs.
                guard !inMemory else { continue }
                if let problem = productIDRule.problem(with: id) {
                    throw StorePriceError.invalidCatalog(source: path, line: absolute, field: "product", reason: problem)
                }
                if let first = registry.insert(id, line: absolute) {
                    throw repeated(id, line: absolute, first: first)
                }
            }
            if let failure = chunk.results.failure ?? chunk.readFailure {
                let line = chunk.results.failure == nil ? chunk.results.lines + 1 : failure.line
                if let error = failure.error { throw error }
                throw StorePriceError.invalidCatalog(
                    source: path, line: linesBefore + line, field: failure.field, reason: failure.reason)
            }
            switch output {
            case .bytes(let write):
                if array != nil {
                    try array?.frame(chunk.output.bytes).withUnsafeBytes { try write($0) }
                } else if chunk.output.count > 0 {
                    try write(UnsafeRawBufferPointer(chunk.output.bytes))
                }
            case .rows(let emit):
                if let batch = chunk.results.batch {
                    chunk.results.batch = nil
                    try emit(batch)
                }
            }
            report.rows += chunk.results.rows
            report.products += chunk.results.renderedProducts
            report.distinctPrices += chunk.results.formats
            if let invalidProduct {
                for invalid in chunk.results.invalid { try invalidProduct(invalid) }
            } else {
                report.invalidProducts += chunk.results.invalid
            }
            report.localesWithoutOfferWording.formUnion(chunk.results.localesWithoutWording)
            linesBefore += chunk.results.lines
            progress?(report, (chunk.fileOffset, chunk.total))
        }

        let own = context.worker(ownSlot)
        let helpers = Atomic<Int>(0)
        try ChunkPipeline(workers: workers).run(
            own: .init(render: own.render, end: { context.release(ownSlot) }),
            makeHelper: {
                guard let slot = context.lease() else { return nil }
                // The first helper builds the formatters while the calling thread starts rendering.
                if helpers.add(1, ordering: .relaxed).oldValue == 0 { plan.compilation.prepareAll() }
                return .init(render: context.worker(slot).render, end: { context.release(slot) })
            },
            read: { chunk in
                guard let reader else {
                    // A source's error ends the run after the chunks before it, as a bad line does.
                    let (read, failure) = products.nextProducts(upTo: productsPerChunk)
                    chunk.readFailure = failure.map { BulkFailure(keeping: $0) }
                    chunk.products = read
                    chunk.firstLine = productsRead + 1
                    productsRead += read.count
                    (chunk.fileOffset, chunk.total) = products.progress
                    return read.count == productsPerChunk && failure == nil
                }
                let more = try reader.next(into: chunk)
                chunk.total = reader.totalBytes
                // The renderer may read a little past a chunk's input (`ChunkRenderer.padding`).
                chunk.input.padWithZeros(ChunkRenderer.padding)
                return more
            },
            finish: finish, stop: plan.compilation.cancel)
        if case .bytes(let write) = output, var end = array?.end {
            try end.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
        }
        if let productIDs {
            for id in productIDs.ids where !found.contains(id) {
                let invalid = InvalidProduct(productID: id, reason: .notInCatalog)
                if let invalidProduct { try invalidProduct(invalid) } else { report.invalidProducts.append(invalid) }
            }
        }
        return report
    }
}
