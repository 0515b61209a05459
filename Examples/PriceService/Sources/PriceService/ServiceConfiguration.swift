import Foundation
import Logging

/// How the service runs, from the environment: where it listens, what it logs, and its limits.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `HOST` | the address to listen on | `127.0.0.1` |
/// | `PORT` | the port, 1 to 65535 (0 for any free one) | `8080` |
/// | `LOG_LEVEL` | `trace`, `debug`, `info` (one access-log line per request), `notice`, `warning`, `error`, `critical` | `info` |
/// | `MAX_RENDERS` | `POST /v1/render` requests rendering at once; past it, `503` with `Retry-After`; each holds a thread while its client is slow to read | `64` |
/// | `BODY_TIMEOUT` | seconds a client has to send a render's body; past it, `408` | `10` |
/// | `WRITE_TIMEOUT` | seconds a connection may go without the client taking a byte; past it, the connection is closed and its render stopped | `10` |
public struct ServiceConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    public var logLevel = Logger.Level.info
    public var maxRenders = 64
    public var bodyTimeout = Duration.seconds(10)
    public var writeTimeout = Duration.seconds(10)

    /// The defaults.
    public init() {}

    /// A bad value in the environment: `PORT must be a port number, 1 to 65535; got 'http'`.
    public struct InvalidValue: Error, CustomStringConvertible {
        public let description: String
    }

    /// The configuration the environment gives; a bad value is an ``InvalidValue`` naming the
    /// variable, what it takes and what it got.
    public init(environment: [String: String]) throws(InvalidValue) {
        func value(_ name: String) -> String? {
            environment[name].map { $0.trimmingCharacters(in: .whitespaces) }
        }
        func number(_ name: String, _ range: ClosedRange<Int>, _ what: String) throws(InvalidValue) -> Int? {
            guard let text = value(name) else { return nil }
            guard let number = Int(text), range.contains(number) else {
                throw InvalidValue(description: "\(name) must be \(what); got '\(text)'")
            }
            return number
        }
        if let host = value("HOST") {
            guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || ".:-".contains($0) }) else {
                throw InvalidValue(description: "HOST must be an address or host name, such as 127.0.0.1 or 0.0.0.0; got '\(host)'")
            }
            self.host = host
        }
        port = try number("PORT", 0...65535, "a port number, 1 to 65535 (0 for any free one)") ?? port
        if let level = value("LOG_LEVEL") {
            guard let known = Logger.Level(rawValue: level.lowercased()) else {
                let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
                throw InvalidValue(description: "LOG_LEVEL must be one of \(levels); got '\(level)'")
            }
            logLevel = known
        }
        maxRenders = try number("MAX_RENDERS", 1...4096, "a number of renders, 1 to 4096") ?? maxRenders
        bodyTimeout = .seconds(try number("BODY_TIMEOUT", 1...3600, "a number of seconds, 1 to 3600") ?? 10)
        writeTimeout = .seconds(try number("WRITE_TIMEOUT", 1...3600, "a number of seconds, 1 to 3600") ?? 10)
    }
}
