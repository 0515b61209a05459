import Foundation
import Logging
import Metrics
import PriceService

// The configuration from the environment (see ServiceConfiguration); a bad value, a catalog it
// cannot serve or a port in use is one line and status 1, not a crash.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("PriceServer: \(message)\n".utf8))
    exit(1)
}

let configuration: ServiceConfiguration
do {
    configuration = try ServiceConfiguration(environment: ProcessInfo.processInfo.environment)
} catch {
    fail(error.description)
}
LoggingSystem.bootstrap { label in
    ServiceLogHandler(label: label, level: configuration.logLevel, format: configuration.logFormat)
}
// The service's metrics are swift-metrics' backend too, so that `/metrics` also shows what the
// libraries under it record.
let metrics = ServiceMetrics()
MetricsSystem.bootstrap(metrics.factory)
if let failure = await PriceService.serve(configuration, metrics: metrics) { fail(failure) }
