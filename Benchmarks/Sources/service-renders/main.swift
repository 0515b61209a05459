// A service's shape, measured: small renders per call, and renders at once, in one run.
//
// 1. The sample catalog (Data/catalog-sample.jsonl, 31 products) for USA and JPN, 62 rows, per
//    call: its 62 prices formatted one by one with cached PriceFormatters (the floor), beside
//    CatalogRenderer.render(products), BulkRenderer.render(products) to JSON Lines, and
//    BulkRenderer.render(catalog:) of the same catalog's bytes.
// 2. The sample for all 175 storefronts (5,425 rows), 8 renders one after another on one thread,
//    beside 8 renders at once on 8 threads.
//
// Prints medians and the ratios against the floor and against one after another. Run from the
// repository root: swift run --package-path Benchmarks -c release service-renders [ROUNDS]
import Foundation
import StorePrice
import Synchronization

let rounds = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 2_001 : 2_001
let catalogPath = "Data/catalog-sample.jsonl"
let products = try Catalog.load(catalogPath)
let catalogBytes = Array(try Data(contentsOf: URL(fileURLWithPath: catalogPath)))
let storefronts = [try Storefront("USA"), try Storefront("JPN")]
let targets = RenderTarget.storefronts(storefronts)

/// The median time of `body` over `count` calls, in microseconds, after one call to warm up.
func median(_ count: Int, _ body: () throws -> Void) rethrows -> Double {
    try body()
    var samples: [Double] = []
    samples.reserveCapacity(count)
    let clock = ContinuousClock()
    for _ in 0..<count {
        let elapsed = try clock.measure(body)
        samples.append(Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12)
    }
    samples.sort()
    return samples[samples.count / 2]
}

func show(_ name: String, _ micros: Double, against floor: Double? = nil) {
    let ratio = floor.map { String(format: "%6.2f×", micros / $0) } ?? "  floor"
    print(String(format: "%-62@ %10.1f µs  %@", name as NSString, micros, ratio))
}

// 1. Per call.
let formatters = try storefronts.map { try PriceFormatter(locale: $0.priceLocale) }
var prices: [(Int, Price)] = []
for product in products {
    for (index, storefront) in storefronts.enumerated() {
        if let price = product.prices[storefront.numericID] { prices.append((index, price)) }
    }
}
let catalogRenderer = CatalogRenderer(targets: targets)
let bulkRenderer = BulkRenderer(targets: targets)
var sink = 0
let floor = try median(rounds) {
    for (index, price) in prices { sink &+= try formatters[index].format(price).utf8.count }
}
print("service-renders: \(ProcessInfo.processInfo.activeProcessorCount) processors, medians of \(rounds) calls")
print("per call: the sample catalog (\(products.count) products) for USA and JPN, \(prices.count) rows")
show("\(prices.count) prices one by one, cached PriceFormatters", floor)
show(
    "CatalogRenderer.render(products), rows as values",
    try median(rounds) { sink &+= try catalogRenderer.render(products).rows.count }, against: floor)
show(
    "BulkRenderer.render(products), JSON Lines bytes",
    try median(rounds) { _ = try bulkRenderer.render(products) { sink &+= $0.count } }, against: floor)
show(
    "BulkRenderer.render(catalog:), the catalog's bytes to JSON Lines",
    try median(rounds) {
        _ = try bulkRenderer.render(catalog: catalogBytes, format: .jsonl, name: "request body") { sink &+= $0.count }
    }, against: floor)

// 2. Renders at once, by renderers of one worker (one thread each, as a service's requests are)
// and of the default workers (helped by the process's pool when a render has several chunks).
let renders = 8
print("at once: the sample for all 175 storefronts (\(products.count * 175) rows), \(renders) renders")
for workers in [1, CatalogRenderer.processorCount] {
let everywhere = CatalogRenderer(targets: RenderTarget.storefronts(Storefront.all), workers: workers)
let oneAfterAnother = try median(max(5, rounds / 100)) {
    for _ in 0..<renders { sink &+= try everywhere.render(products).rows.count }
}
/// `renders` threads started once, each rendering once per round when told to; a round ends
/// when all are done. The threads are not started inside the measured time.
let go = DispatchSemaphore(value: 0)
let done = DispatchSemaphore(value: 0)
let stop = Atomic<Bool>(false)
for _ in 0..<renders {
    Thread.detachNewThread {
        while true {
            go.wait()
            if stop.load(ordering: .relaxed) { return }
            _ = try? everywhere.render(products)
            done.signal()
        }
    }
}
func atOnce() {
    for _ in 0..<renders { go.signal() }
    for _ in 0..<renders { done.wait() }
}
let together = median(max(5, rounds / 100)) { atOnce() }
show("\(renders) renders one after another, \(workers) worker\(workers == 1 ? "" : "s") each", oneAfterAnother)
show("\(renders) renders at once, on \(renders) threads, \(workers) worker\(workers == 1 ? "" : "s") each", together, against: oneAfterAnother)
stop.store(true, ordering: .relaxed)
for _ in 0..<renders { go.signal() }
}
if sink == 42 { print("") }
