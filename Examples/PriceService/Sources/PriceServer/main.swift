import Foundation
import Logging
import PriceService

// HOST, PORT, LOG_LEVEL, MAX_RENDERS, BODY_TIMEOUT and WRITE_TIMEOUT from the environment (see
// ServiceConfiguration); a bad value or a port in use is one line and status 1, not a crash.
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
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = configuration.logLevel
    return handler
}
if let failure = await PriceService.serve(configuration) { fail(failure) }
