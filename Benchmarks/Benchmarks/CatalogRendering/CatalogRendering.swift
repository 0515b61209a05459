// Bulk price rendering: StorePrice against Foundation's formatters and ICU itself, in one run.
//
// The workload is 10,000 products × 175 storefronts = 1.75 million prices, drawn from about 200
// price points per currency. The per-price benchmarks (Foundation, PriceFormatter, raw ICU) format
// prices from the first 100 products (17,500 prices over all 175 storefronts), 1,000 per measured
// iteration (scalingFactor .kilo); their figures are reported per price. The CatalogRenderer benchmarks render the whole
// catalog per iteration. "Cold" benchmarks use a catalog in which no price repeats.

import Benchmark
import BenchmarkWorkload
import Foundation
import ICUBaseline
import StorePrice

let productCount = 10_000

/// Prices of the catalog's first `sampleProducts` products in catalog order, with each one's
/// storefront index: 17,500 prices over every storefront, for the per-price benchmarks.
struct Sample {
    static let sampleProducts = 100
    let storefronts: [Storefront]
    let prices: [(storefront: Int, price: Price)]

    init(_ workload: Workload) {
        storefronts = workload.storefronts
        var prices: [(Int, Price)] = []
        for product in workload.products.prefix(Self.sampleProducts) {
            for (index, storefront) in workload.storefronts.enumerated() {
                if let price = product.prices[storefront.numericID] { prices.append((index, price)) }
            }
        }
        self.prices = prices
    }
}

/// Everything a benchmark needs, built once per process (package-benchmark runs a benchmark's
/// closure once per sample, so setup inside it would be repeated) and read one benchmark at a time.
final class Fixtures: @unchecked Sendable {
    nonisolated(unsafe) static var warm: Fixtures?
    nonisolated(unsafe) static var cold: Fixtures?

    static func get(cold wantCold: Bool) throws -> Fixtures {
        if let existing = wantCold ? cold : warm { return existing }
        let made = try Fixtures(Workload(products: productCount, distinct: wantCold))
        if wantCold { cold = made } else { warm = made }
        return made
    }

    let workload: Workload
    let sample: Sample
    /// Where each per-price benchmark continues in the sample, so successive samples cover it all.
    var cursor = 0

    private init(_ workload: Workload) {
        self.workload = workload
        self.sample = Sample(workload)
    }

    func next() -> Int {
        defer { cursor = cursor + 1 == sample.prices.count ? 0 : cursor + 1 }
        return cursor
    }

    lazy var numberFormatters: [NumberFormatter] = sample.storefronts.map { storefront in
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.locale = Locale(identifier: storefront.priceLocale.identifier)
        return formatter
    }
    lazy var decimalNumbers: [NSDecimalNumber] = sample.prices.map { NSDecimalNumber(decimal: $0.price.decimalValue) }
    lazy var currencyStyles: [Decimal.FormatStyle.Currency] = sample.storefronts.map { storefront in
        Decimal.FormatStyle.Currency(
            code: storefront.currency.code, locale: Locale(identifier: storefront.priceLocale.identifier))
    }
    lazy var decimals: [Decimal] = sample.prices.map { $0.price.decimalValue }
    lazy var icuFormatters: [UnsafeMutableRawPointer?] = sample.storefronts.map { storefront in
        icu_baseline_open("currency/\(storefront.currency.code) unit-width-short", storefront.priceLocale.identifier)
    }
    lazy var icuResult: UnsafeMutableRawPointer? = icu_baseline_open_result()
    lazy var icuAmounts: [[CChar]] = sample.prices.map { Array($0.price.amount.utf8CString) }
    var icuBuffer = [UInt16](repeating: 0, count: 128)
    lazy var priceFormatters: [PriceFormatter] = sample.storefronts.map { storefront in
        // Every storefront's price locale is checked by StorePrice's own tests.
        try! PriceFormatter(locale: storefront.priceLocale)
    }
}

var perPrice: Benchmark.Configuration { .init(
    metrics: [.wallClock, .throughput, .mallocCountTotal],
    scalingFactor: .kilo,
    maxDuration: .seconds(5),
    maxIterations: 3_000
) }

var wholeCatalog: Benchmark.Configuration { .init(
    metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
    maxDuration: .seconds(20),
    maxIterations: 7
) }

/// The benchmark catalog written as CSV once per process, for the end-to-end benchmarks.
final class CatalogFile: @unchecked Sendable {
    nonisolated(unsafe) static var shared: CatalogFile?

    static func get() throws -> CatalogFile {
        if let shared { return shared }
        let made = try CatalogFile(Fixtures.get(cold: false).workload)
        shared = made
        return made
    }

    let path: String
    /// The same catalog as JSON Lines, one product per line.
    let jsonLinesPath: String
    let storefronts: [Storefront]
    let rows: Int

    private init(_ workload: Workload) throws {
        let directory = FileManager.default.temporaryDirectory
        path = directory.appendingPathComponent("storeprice-benchmark-catalog.csv").path
        jsonLinesPath = directory.appendingPathComponent("storeprice-benchmark-catalog.jsonl").path
        var text = "product_id,storefront,price\n"
        var lines = ""
        for product in workload.products {
            var prices: [String] = []
            for storefront in workload.storefronts {
                if let price = product.prices[storefront.numericID] {
                    text += "\(product.id),\(storefront.countryCode),\(price.amount)\n"
                    prices.append("\"\(storefront.countryCode)\":\"\(price.amount)\"")
                }
            }
            lines += #"{"product":"\#(product.id)","prices":{"# + prices.joined(separator: ",") + "}}\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try Data(lines.utf8).write(to: URL(fileURLWithPath: jsonLinesPath))
        storefronts = workload.storefronts
        rows = workload.priceCount
    }
}

/// Discards output through the kernel, as `> /dev/null` does.
let devNull = open("/dev/null", O_WRONLY)

var endToEnd: Benchmark.Configuration { .init(
    metrics: [.wallClock, .cpuTotal, .throughput, .peakMemoryResident],
    maxDuration: .seconds(20),
    maxIterations: 9
) }

let benchmarks: @Sendable () -> Void = {
    // MARK: End to end: a CSV catalog file in, every row out (what `storeprice render` does)

    for (format, csv) in [("JSONLines", false), ("CSV", true)] {
        Benchmark("EndToEnd_CSV_to_\(format)_C_ICU_1_thread", configuration: endToEnd) { benchmark in
            let file = try CatalogFile.get()
            let alpha3s = file.storefronts.map { strdup($0.countryCode) }
            let locales = file.storefronts.map { strdup($0.priceLocale.identifier) }
            let currencies = file.storefronts.map { strdup($0.currency.code) }
            defer { for pointer in alpha3s + locales + currencies { free(pointer) } }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let status = alpha3s.map { UnsafePointer($0) }.withUnsafeBufferPointer { codes in
                    locales.map { UnsafePointer($0) }.withUnsafeBufferPointer { locales in
                        currencies.map { UnsafePointer($0) }.withUnsafeBufferPointer { currencies in
                            icu_baseline_render_csv(
                                file.path, Int32(codes.count), codes.baseAddress, locales.baseAddress, currencies.baseAddress,
                                csv ? 1 : 0, devNull)
                        }
                    }
                }
                precondition(status == 0)
            }
        }
        for workers in [1, 2] {
            Benchmark("EndToEnd_CSV_to_\(format)_StorePrice_\(workers)_worker\(workers == 1 ? "" : "s")", configuration: endToEnd) { benchmark in
                let file = try CatalogFile.get()
                let renderer = BulkRenderer(
                    targets: RenderTarget.storefronts(file.storefronts), format: csv ? .csv : .jsonLines, workers: workers)
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    let report = try renderer.renderCSV(at: file.path) { bytes in
                        _ = write(devNull, bytes.baseAddress, bytes.count)
                    }
                    precondition(report.rows == file.rows)
                }
            }
        }
    }

    // MARK: The same catalog already in memory, as a service holds it, to the same bytes; and as
    // a JSON Lines file, one product per line, as products in memory are read

    for workers in [1, 2] {
        Benchmark("EndToEnd_JSONL_to_JSONLines_StorePrice_\(workers)_worker\(workers == 1 ? "" : "s")", configuration: endToEnd) { benchmark in
            let file = try CatalogFile.get()
            let renderer = BulkRenderer(targets: RenderTarget.storefronts(file.storefronts), workers: workers)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let report = try renderer.renderJSONLines(at: file.jsonLinesPath) { bytes in
                    _ = write(devNull, bytes.baseAddress, bytes.count)
                }
                precondition(report.rows == file.rows)
            }
        }
    }

    for (format, csv) in [("JSONLines", false), ("CSV", true)] {
        for workers in [1, 2] {
            Benchmark("EndToEnd_InMemory_to_\(format)_StorePrice_\(workers)_worker\(workers == 1 ? "" : "s")", configuration: endToEnd) { benchmark in
                let file = try CatalogFile.get()
                let products = try Catalog.load(file.path)
                let renderer = BulkRenderer(
                    targets: RenderTarget.storefronts(file.storefronts), format: csv ? .csv : .jsonLines, workers: workers)
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    let report = try renderer.render(products) { bytes in
                        _ = write(devNull, bytes.baseAddress, bytes.count)
                    }
                    precondition(report.rows == file.rows)
                }
            }
        }
    }

    // MARK: Foundation baselines

    Benchmark("Foundation_NumberFormatter_cached_per_locale", configuration: perPrice) { benchmark in
        let fixtures = try Fixtures.get(cold: false)
        let formatters = fixtures.numberFormatters
        let numbers = fixtures.decimalNumbers
        let prices = fixtures.sample.prices
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let index = fixtures.next()
            blackHole(formatters[prices[index].storefront].string(from: numbers[index]))
        }
    }

    Benchmark("Foundation_Decimal_FormatStyle_Currency_cached_per_locale", configuration: perPrice) { benchmark in
        let fixtures = try Fixtures.get(cold: false)
        let styles = fixtures.currencyStyles
        let decimals = fixtures.decimals
        let prices = fixtures.sample.prices
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let index = fixtures.next()
            blackHole(styles[prices[index].storefront].format(decimals[index]))
        }
    }

    // MARK: ICU itself

    for (name, isCold) in [("ICU_unumf_per_price", false), ("ICU_unumf_per_price_cold", true)] {
        Benchmark(name, configuration: perPrice) { benchmark in
            let fixtures = try Fixtures.get(cold: isCold)
            let formatters = fixtures.icuFormatters
            let result = fixtures.icuResult
            let amounts = fixtures.icuAmounts
            let prices = fixtures.sample.prices
            benchmark.startMeasurement()
            fixtures.icuBuffer.withUnsafeMutableBufferPointer { buffer in
                for _ in benchmark.scaledIterations {
                    let index = fixtures.next()
                    let length = amounts[index].withUnsafeBufferPointer { text in
                        icu_baseline_format(
                            formatters[prices[index].storefront], result, text.baseAddress, Int32(text.count - 1),
                            buffer.baseAddress, Int32(buffer.count))
                    }
                    blackHole(length)
                }
            }
        }
    }

    // MARK: StorePrice

    for (name, isCold) in [("PriceFormatter_per_price", false), ("PriceFormatter_per_price_cold", true)] {
        Benchmark(name, configuration: perPrice) { benchmark in
            let fixtures = try Fixtures.get(cold: isCold)
            let formatters = fixtures.priceFormatters
            let prices = fixtures.sample.prices
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let entry = prices[fixtures.next()]
                blackHole(try formatters[entry.storefront].format(entry.price))
            }
        }
    }

    for (name, isCold, workers) in [
        ("CatalogRenderer_1_75M_prices", false, CatalogRenderer.processorCount),
        ("CatalogRenderer_1_75M_prices_1_worker", false, 1),
        ("CatalogRenderer_1_75M_prices_cold", true, CatalogRenderer.processorCount),
    ] {
        Benchmark(name, configuration: wholeCatalog) { benchmark in
            let workload = try Fixtures.get(cold: isCold).workload
            let renderer = CatalogRenderer(targets: RenderTarget.storefronts(workload.storefronts), workers: workers)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                var source = ProductList(workload.products)
                var rows = 0
                let report = try renderer.render(&source) { rows += $0.count }
                precondition(rows == workload.priceCount && report.rows == rows)
                blackHole(rows)
            }
        }
    }
}
