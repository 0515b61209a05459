import CoreMetrics
import Foundation
import HTTPTypes
import Prometheus
import StorePrice
import Synchronization

/// The service's metrics, recorded through swift-metrics into a Prometheus registry of its own,
/// which `GET /metrics` writes in Prometheus's text format:
///
/// | metric | what |
/// |---|---|
/// | `http_requests_total{method,route,status}` | requests answered, by route (`/v1/products/{productID}`, not each product) and status |
/// | `http_request_duration_seconds{method,route}` | a histogram of the time from a request's head to its response's end |
/// | `storeprice_renders_in_flight` | renders under way (`POST /v1/render`, `GET /v1/products`) |
/// | `storeprice_catalog_products` | the served catalog's products |
/// | `storeprice_catalog_age_seconds` | seconds since it was loaded |
/// | `storeprice_catalog_loads_total{result}` | catalog loads, `loaded` or `failed` (the old catalog kept) |
/// | `storeprice_info{version,icu,cldr}` | 1, with the versions the strings come from |
///
/// Each service has its own registry (``registry``), so that several in one process, as in the
/// tests, count apart; `PriceServer` also makes it swift-metrics' global backend.
public final class ServiceMetrics: Sendable {
    /// The registry `/metrics` writes.
    public let registry: PrometheusCollectorRegistry
    /// The factory every metric of this service is made with.
    public let factory: PrometheusMetricsFactory
    private let requests = Mutex<[RequestKey: RequestMetrics]>([:])
    private let rendersInFlight: CoreMetrics.Gauge
    private let catalogProducts: CoreMetrics.Gauge
    private let catalogAge: CoreMetrics.Gauge
    private let catalogLoads: CoreMetrics.Counter
    private let catalogFailures: CoreMetrics.Counter
    /// When the served catalog was loaded.
    private let loadedAt = Mutex<Date?>(nil)

    private struct RequestKey: Hashable {
        var method: HTTPRequest.Method
        var route: String
        var status: Int
    }

    private struct RequestMetrics: Sendable {
        var count: CoreMetrics.Counter
        var duration: CoreMetrics.Timer
    }

    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // A price is answered in well under a millisecond: buckets from 0.25 ms.
        factory.defaultDurationHistogramBuckets = [
            .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
            .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
            .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
        ]
        self.factory = factory
        rendersInFlight = CoreMetrics.Gauge(label: "storeprice_renders_in_flight", factory: factory)
        catalogProducts = CoreMetrics.Gauge(label: "storeprice_catalog_products", factory: factory)
        catalogAge = CoreMetrics.Gauge(label: "storeprice_catalog_age_seconds", factory: factory)
        catalogLoads = CoreMetrics.Counter(label: "storeprice_catalog_loads_total", dimensions: [("result", "loaded")], factory: factory)
        catalogFailures = CoreMetrics.Counter(label: "storeprice_catalog_loads_total", dimensions: [("result", "failed")], factory: factory)
        CoreMetrics.Gauge(
            label: "storeprice_info",
            dimensions: [("version", VersionInfo.current), ("icu", VersionInfo.icu), ("cldr", VersionInfo.cldr)],
            factory: factory
        ).record(1)
    }

    /// Counts a request answered with `status` on `route` (the route's pattern, or `NotFound`),
    /// and its duration.
    func record(method: HTTPRequest.Method, route: String, status: HTTPResponse.Status, duration: Duration) {
        // A method no route takes is counted as `other`: a client does not choose the series.
        let method = Self.methods.contains(method) ? method : HTTPRequest.Method("OTHER") ?? .get
        let key = RequestKey(method: method, route: route, status: status.code)
        let metrics = requests.withLock { requests in
            if let known = requests[key] { return known }
            let labels = [("method", method.rawValue), ("route", route), ("status", String(status.code))]
            let made = RequestMetrics(
                count: CoreMetrics.Counter(label: "http_requests_total", dimensions: labels, factory: factory),
                duration: CoreMetrics.Timer(
                    label: "http_request_duration_seconds", dimensions: [("method", method.rawValue), ("route", route)],
                    factory: factory))
            requests[key] = made
            return made
        }
        metrics.count.increment()
        metrics.duration.recordInterval(duration)
    }

    /// The methods counted by name.
    static let methods: Set<HTTPRequest.Method> = [.get, .head, .post, .put, .delete, .patch, .options, .connect, .trace]

    /// A new catalog is served.
    func catalogLoaded(_ catalog: ServedCatalog) {
        loadedAt.withLock { $0 = catalog.loadedAt }
        catalogProducts.record(catalog.products.count)
        catalogLoads.increment()
    }

    /// A catalog could not be loaded.
    func catalogFailed() {
        catalogFailures.increment()
    }

    /// The metrics in Prometheus's text format, the gauges read now: renders under way and the
    /// catalog's age.
    func exposition(rendersInFlight renders: Int, now: Date = Date()) -> [UInt8] {
        rendersInFlight.record(renders)
        if let loaded = loadedAt.withLock({ $0 }) { catalogAge.record(now.timeIntervalSince(loaded)) }
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }
}

extension CoreMetrics.Timer {
    /// Records a Swift `Duration`.
    func recordInterval(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
