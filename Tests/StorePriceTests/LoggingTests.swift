import Foundation
import Logging
import StorePrice
import TestSupport
import Testing

/// A library logs at debug: what a service's logs show by default is the service's choice.
@Suite struct LoggingTests {
    /// Keeps every message with its level.
    final class Capture: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [(Logger.Level, String)] = []
        var all: [(Logger.Level, String)] { lock.withLock { entries } }
        func add(_ level: Logger.Level, _ message: String) { lock.withLock { entries.append((level, message)) } }
    }

    struct Handler: LogHandler {
        let capture: Capture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            capture.add(event.level, "\(event.message) \(event.metadata?["product"].map { "\($0)" } ?? "")")
        }
    }

    @Test func invalidProductsAreDebugMessages() throws {
        let capture = Capture()
        let logger = Logger(label: "test", factory: { _ in Handler(capture: capture) })
        var catalog = try Catalog.open(repositoryFile("Data/catalog-sample.jsonl").path)
        let report = try CatalogRenderer(targets: RenderTarget.storefronts(Storefront.all), logger: logger).render(&catalog) { _ in }
        #expect(!report.invalidProducts.isEmpty)
        #expect(capture.all.count == report.invalidProducts.count)
        #expect(capture.all.allSatisfy { $0.0 == .debug }, "\(capture.all)")
    }
}
