// A service's shape, measured: small renders per call, and renders at once, in one run.
//
// 1. The sample catalog (Data/catalog-sample.jsonl, 31 products) for USA and JPN, 62 rows, per
//    call: its 62 prices formatted one by one with cached PriceFormatters (the floor), beside
//    renderers of one worker, as the service's are: CatalogRenderer.render(products),
//    BulkRenderer.render(products) to JSON Lines, and BulkRenderer.render(catalog:) of the same
//    catalog's bytes. The calls take turns, so that a
//    noisy moment of a shared machine falls on each alike.
// 2. The sample for all 175 storefronts (5,425 rows), 8 renders one after another on one thread,
//    beside 8 renders at once on 8 threads.
//
// Prints medians and the ratios against the floor and against one after another. Run in release,
// from Examples/PriceService:
//
//   swift run -c release service-renders [ROUNDS]
//   swift run -c release service-renders --check [ROUNDS]
//
// --check measures part 1 only and exits with status 1 when a small render costs more than its
// limit times the floor (3× for rows as values, 5× for JSON Lines bytes, 20× from the catalog's
// bytes, which it parses too; about half of each today): a renderer that builds its plan and
// formatters on every call costs 21× to 82× and fails. CI runs it (Scripts/check-render-cost.sh).
import Foundation
import StorePrice
import Synchronization

var arguments = Array(CommandLine.arguments.dropFirst())
let checking = arguments.first == "--check"
if checking { arguments.removeFirst() }
let rounds = arguments.first.flatMap { Int($0) } ?? 2_001
// StorePrice's sample catalog, found from this source file: the command runs from any folder.
let catalogPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../../Data/catalog-sample.jsonl").standardized.path
let products = try Catalog.load(catalogPath)
let catalogBytes = Array(try Data(contentsOf: URL(fileURLWithPath: catalogPath)))
let storefronts = [try Storefront("USA"), try Storefront("JPN")]
let targets = RenderTarget.storefronts(storefronts)

/// The median time of each of `bodies` over `count` rounds, in microseconds, after one call of
/// each to warm up; in each round every body is called once, in turn.
func medians(_ count: Int, _ bodies: [() throws -> Void]) throws -> [Double] {
    for body in bodies { try body() }
    var samples = Array(repeating: [Double](), count: bodies.count)
    let clock = ContinuousClock()
    for _ in 0..<count {
        for (index, body) in bodies.enumerated() {
            let elapsed = try clock.measure(body)
            samples[index].append(Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12)
        }
    }
    return samples.map { $0.sorted()[$0.count / 2] }
}

func median(_ count: Int, _ body: @escaping () throws -> Void) throws -> Double {
    try medians(count, [body])[0]
}

func show(_ name: String, _ micros: Double, against floor: Double? = nil) {
    let ratio = floor.map { String(format: "%6.2f×", micros / $0) } ?? "  floor"
    print(String(format: "%-66@ %10.1f µs  %@", name as NSString, micros, ratio))
}

// 1. Per call.
let formatters = try storefronts.map { try PriceFormatter(locale: $0.priceLocale) }
var prices: [(Int, Price)] = []
for product in products {
    for (index, storefront) in storefronts.enumerated() {
        if let price = product.prices[storefront.numericID] { prices.append((index, price)) }
    }
}
// One worker each, as the service's renderers have: a request renders on the thread it has.
let catalogRenderer = CatalogRenderer(targets: targets, workers: 1)
let bulkRenderer = BulkRenderer(targets: targets, workers: 1)
var sink = 0
/// Each small render, with the most it may cost as a multiple of the floor under --check.
let smallRenders: [(name: String, limit: Double, render: () throws -> Void)] = [
    ("CatalogRenderer.render(products), rows as values", 3, { sink &+= try catalogRenderer.render(products).rows.count }),
    ("BulkRenderer.render(products), JSON Lines bytes", 5, { _ = try bulkRenderer.render(products) { sink &+= $0.count } }),
    ("BulkRenderer.render(catalog:), the catalog's bytes to JSON Lines", 20, {
        _ = try bulkRenderer.render(catalog: catalogBytes, format: .jsonl, name: "request body") { sink &+= $0.count }
    }),
]
let perCall = try medians(
    rounds, [{ for (index, price) in prices { sink &+= try formatters[index].format(price).utf8.count } }] + smallRenders.map(\.render))
let floor = perCall[0]
print("service-renders: \(ProcessInfo.processInfo.activeProcessorCount) processors, medians of \(rounds) calls")
print("per call: the sample catalog (\(products.count) products) for USA and JPN, \(prices.count) rows")
show("\(prices.count) prices one by one, cached PriceFormatters", floor)
var over: [String] = []
for (render, micros) in zip(smallRenders, perCall.dropFirst()) {
    show(render.name, micros, against: floor)
    if micros > floor * render.limit { over.append(String(format: "%@ costs %.2f×, over %.0f×", render.name, micros / floor, render.limit)) }
}

if checking {
    guard over.isEmpty else {
        for line in over { print("service-renders: FAILED: \(line) formatting its prices one by one") }
        exit(1)
    }
    print("service-renders: every small render within its limit (3×, 5×, 20× formatting its prices one by one)")
    exit(0)
}

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
let together = try median(max(5, rounds / 100)) { atOnce() }
show("\(renders) renders one after another, \(workers) worker\(workers == 1 ? "" : "s") each", oneAfterAnother)
show("\(renders) renders at once, on \(renders) threads, \(workers) worker\(workers == 1 ? "" : "s") each", together, against: oneAfterAnother)
stop.store(true, ordering: .relaxed)
for _ in 0..<renders { go.signal() }
}
if sink == 42 { print("") }
