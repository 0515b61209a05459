import Foundation
import Logging
import NIOPosix
import ServiceLifecycle
import Synchronization
import UnixSignals

/// The catalog the service serves, loaded at start and again on each `SIGHUP`.
///
/// A reload reads the new catalog beside the old one, on a thread of its own, and swaps it in
/// whole: a request uses the catalog it found when it started, to its end, and never one half
/// read. A new catalog that cannot be read (or whose templates fail the check) changes nothing:
/// the old one stays, and the reason is logged at `error`. At start there is no old one, and the
/// service stops with the reason.
///
/// A `Service`: it loads, then waits for `SIGHUP` until graceful shutdown.
public final class CatalogStore: Service, Sendable {
    /// The files to serve; nil when `CATALOG` is not set.
    public let configuration: CatalogConfiguration?
    private let current = Mutex<ServedCatalog?>(nil)
    private let logger: Logger
    private let metrics: ServiceMetrics

    public init(configuration: CatalogConfiguration?, logger: Logger, metrics: ServiceMetrics) {
        self.configuration = configuration
        self.logger = logger
        self.metrics = metrics
    }

    /// The catalog being served, or nil before it is loaded (or without `CATALOG`).
    var catalog: ServedCatalog? { current.withLock { $0 } }

    /// Whether a catalog is loaded: `/ready`.
    public var isReady: Bool { catalog != nil }

    /// Reads the catalog again and swaps it in; on failure keeps the one served, logs the reason
    /// at `error` (but for the first load, which the service stops on), and throws it.
    public func reload() async throws {
        guard let configuration else { return }
        let started = ContinuousClock.now
        let result: Result<ServedCatalog, ServedCatalog.LoadFailure> = await Self.loading {
            Result { () throws(ServedCatalog.LoadFailure) in try ServedCatalog.load(configuration) }
        }
        switch result {
        case .success(let loaded):
            current.withLock { $0 = loaded }
            metrics.catalogLoaded(loaded)
            let duration = ContinuousClock.now - started
            var metadata: Logger.Metadata = [
                "catalog": "\(loaded.source)", "products": "\(loaded.products.count)",
                "duration_ms": "\(Self.milliseconds(duration))",
            ]
            if let day = loaded.pricesInEffectOn { metadata["prices_in_effect_on"] = "\(day)" }
            logger.info("catalog loaded", metadata: metadata)
            for note in loaded.notes { logger.notice("catalog note", metadata: ["note": "\(note)"]) }
        case .failure(let failure):
            metrics.catalogFailed()
            // At start the service stops, and says why in its last line.
            guard catalog != nil else { throw failure }
            logger.error(
                "catalog not reloaded; the old one is still served",
                metadata: ["catalog": "\(configuration.path)", "reason": "\(failure.description)"])
            throw failure
        }
    }

    /// Milliseconds of a duration, to three decimals.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.3f", Double(seconds) * 1_000 + Double(attoseconds) / 1e15)
    }

    /// Runs a load on NIO's blocking-work threads, never on Swift's cooperative pool, where a
    /// large catalog's second of reading would hold one of the threads every request runs on.
    private static func loading(_ load: @escaping @Sendable () -> Result<ServedCatalog, ServedCatalog.LoadFailure>) async
        -> Result<ServedCatalog, ServedCatalog.LoadFailure>
    {
        do {
            return try await NIOThreadPool.singleton.runIfActive { load() }
        } catch {
            return load()
        }
    }

    /// Loads the catalog (the service stops if it cannot), then reloads it on each `SIGHUP`, one
    /// reload at a time, until graceful shutdown.
    public func run() async throws {
        guard configuration != nil else {
            try? await gracefulShutdown()
            return
        }
        // Trapped before the first load, so that a SIGHUP during it is not lost.
        let signals = await UnixSignalsSequence(trapping: .sighup)
        try await reload()
        for await _ in signals.cancelOnGracefulShutdown() {
            logger.info("SIGHUP: reloading the catalog")
            try? await reload()
        }
    }
}
