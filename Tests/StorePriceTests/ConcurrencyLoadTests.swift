import Foundation
import StorePrice
import TestSupport
import Testing

/// A tenth of the benchmark catalog (1,000 products × 175 storefronts = 175,000 prices) rendered by
/// many tasks at once through the library, each with its own renderer, worker count and batch
/// size, sharing the process-wide formatter cache, every row checked against a single-threaded
/// render. Byte-identical output across worker counts is pinned by the CLI's render tests; this
/// one is about renders running side by side. Not timed: speed is for the benchmarks.
/// STOREPRICE_LOAD_PRODUCTS sets the number of products (10000 for the whole benchmark catalog).
@Suite(.loadTest) struct ConcurrencyLoadTests {
    /// One render's rows, as comparable values.
    struct Rows: Equatable {
        var products: [String] = []
        var targets: [Int] = []
        var formatted: [String] = []
    }

    static func render(_ workload: Workload, workers: Int, batchSize: Int) throws -> Rows {
        var source = ProductList(workload.products)
        let renderer = CatalogRenderer(
            targets: RenderTarget.storefronts(workload.storefronts), workers: workers, batchSize: batchSize)
        var rows = Rows()
        rows.formatted.reserveCapacity(workload.priceCount)
        _ = try renderer.render(&source) { batch in
            for position in batch.indices {
                rows.products.append(batch.productID(at: position))
                rows.targets.append(batch.targetIndex(at: position))
                rows.formatted.append(batch.formatted(at: position))
            }
        }
        return rows
    }

    @Test func manyTasksRenderingAtOnceMatchASingleThread() async throws {
        let products = ProcessInfo.processInfo.environment["STOREPRICE_LOAD_PRODUCTS"].flatMap { Int($0) } ?? 1_000
        let workload = try Workload(products: products)
        let reference = try Self.render(workload, workers: 1, batchSize: 256)
        #expect(reference.formatted.count == products * 175)

        let settings = [(2, 256), (1, 64), (3, 1000), (2, 7), (4, 256), (1, 10_000), (2, 1), (8, 128)]
        let mismatches = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for (task, (workers, batchSize)) in settings.enumerated() {
                group.addTask {
                    let rows = try Self.render(workload, workers: workers, batchSize: batchSize)
                    guard rows.formatted.count == reference.formatted.count else { return (task, -1) }
                    var differing = 0
                    for index in rows.formatted.indices
                    where rows.formatted[index] != reference.formatted[index]
                        || rows.products[index] != reference.products[index]
                        || rows.targets[index] != reference.targets[index]
                    {
                        differing += 1
                    }
                    return (task, differing)
                }
            }
            var results: [(Int, Int)] = []
            for try await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }
        }
        for (task, differing) in mismatches {
            #expect(differing == 0, "task \(task) \(settings[task]): \(differing == -1 ? "a different row count" : "\(differing) rows differ")")
        }
        #expect(mismatches.count == settings.count)
    }
}
