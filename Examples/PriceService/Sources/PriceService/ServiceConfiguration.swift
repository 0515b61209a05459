import Foundation
import Logging
import StorePrice

/// How the service runs, from the environment: where it listens, what it serves, what it logs,
/// and its limits.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `HOST` | the address to listen on | `127.0.0.1` |
/// | `PORT` | the port, 1 to 65535 (0 for any free one) | `8080` |
/// | `CATALOG` | the catalog to serve: any file or folder `storeprice render` reads; reloaded on `SIGHUP` | none |
/// | `CATALOG_FORMAT` | `csv`, `jsonl`, `storekit`, `asc`, or `play` (Google Play documents or Console CSV files, never implied by a name), when the name does not tell it | from the name |
/// | `TEMPLATES` | the app's paywall templates (a JSON file, as `storeprice paywall --templates` reads) | the built-in ones |
/// | `OFFER_WORDING` | the app's offer wording (as `storeprice paywall --offer-wording` reads) | the built-in one |
/// | `LOG_LEVEL` | `trace`, `debug`, `info` (one access-log line per request), `notice`, `warning`, `error`, `critical` | `info` |
/// | `LOG_FORMAT` | `text`, or `json`: one JSON object a line, for log pipelines | `text` |
/// | `MAX_RENDERS` | renders at once; past it, `503` with `Retry-After`; each holds a thread while its client is slow to read | `64` |
/// | `BODY_TIMEOUT` | seconds a client has to send a render's body; past it, `408` | `10` |
/// | `HEAD_TIMEOUT` | seconds a request's head may take to arrive, from its first byte; past it, `408` | `10` |
/// | `WRITE_TIMEOUT` | seconds a connection may go without the client taking a byte; past it, the connection is closed and its render stopped | `10` |
public struct ServiceConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// The catalog to serve and the app's paywall wording; nil without `CATALOG`.
    public var catalog: CatalogConfiguration?
    public var logLevel = Logger.Level.info
    public var logFormat = LogFormat.text
    public var maxRenders = 64
    public var bodyTimeout = Duration.seconds(10)
    public var headTimeout = Duration.seconds(10)
    public var writeTimeout = Duration.seconds(10)

    /// How log lines are written.
    public enum LogFormat: String, Sendable, CaseIterable {
        /// `2026-12-07T16:00:00.123Z info request method=GET path=/v1/price status=200 duration_ms=0.412`.
        case text
        /// `{"time":"2026-12-07T16:00:00.123Z","level":"info","message":"request","method":"GET",…}`.
        case json
    }

    /// The defaults.
    public init() {}

    /// A bad value in the environment: `PORT must be a port number, 1 to 65535; got 'http'`.
    public struct InvalidValue: Error, CustomStringConvertible {
        public let description: String
    }

    /// The configuration the environment gives; a bad value is an ``InvalidValue`` naming the
    /// variable, what it takes and what it got. Files are read when the service starts, not here.
    public init(environment: [String: String]) throws(InvalidValue) {
        func value(_ name: String) -> String? {
            environment[name].map { $0.trimmingCharacters(in: .whitespaces) }
        }
        func number(_ name: String, _ range: ClosedRange<Int>, _ what: String) throws(InvalidValue) -> Int? {
            guard let text = value(name) else { return nil }
            guard let number = Int(text), range.contains(number) else {
                throw InvalidValue(description: "\(name) must be \(what); got '\(text.quotedForMessage)'")
            }
            return number
        }
        func path(_ name: String) throws(InvalidValue) -> String? {
            guard let path = environment[name] else { return nil }
            guard !path.isEmpty else { throw InvalidValue(description: "\(name) is empty; give a file's path, or leave it unset") }
            return path
        }
        if let host = value("HOST") {
            guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || ".:-".contains($0) }) else {
                throw InvalidValue(
                    description: "HOST must be an address or host name, such as 127.0.0.1 or 0.0.0.0; got '\(host.quotedForMessage)'")
            }
            self.host = host
        }
        port = try number("PORT", 0...65535, "a port number, 1 to 65535 (0 for any free one)") ?? port
        if let level = value("LOG_LEVEL") {
            guard let known = Logger.Level(rawValue: level.lowercased()) else {
                let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
                throw InvalidValue(description: "LOG_LEVEL must be one of \(levels); got '\(level.quotedForMessage)'")
            }
            logLevel = known
        }
        if let format = value("LOG_FORMAT") {
            guard let known = LogFormat(rawValue: format.lowercased()) else {
                throw InvalidValue(description: "LOG_FORMAT must be text or json; got '\(format.quotedForMessage)'")
            }
            logFormat = known
        }
        maxRenders = try number("MAX_RENDERS", 1...4096, "a number of renders, 1 to 4096") ?? maxRenders
        bodyTimeout = .seconds(try number("BODY_TIMEOUT", 1...3600, "a number of seconds, 1 to 3600") ?? 10)
        headTimeout = .seconds(try number("HEAD_TIMEOUT", 1...3600, "a number of seconds, 1 to 3600") ?? 10)
        writeTimeout = .seconds(try number("WRITE_TIMEOUT", 1...3600, "a number of seconds, 1 to 3600") ?? 10)
        var format: CatalogFormat?
        if let name = value("CATALOG_FORMAT") {
            guard let known = CatalogFormat(rawValue: name.lowercased()) else {
                let names = CatalogFormat.allCases.map(\.rawValue).joined(separator: ", ")
                throw InvalidValue(description: "CATALOG_FORMAT must be one of \(names); got '\(name.quotedForMessage)'")
            }
            format = known
        }
        let templates = try path("TEMPLATES")
        let offerWording = try path("OFFER_WORDING")
        guard let catalog = try path("CATALOG") else {
            for (name, given) in [("CATALOG_FORMAT", format != nil), ("TEMPLATES", templates != nil), ("OFFER_WORDING", offerWording != nil)]
            where given {
                throw InvalidValue(description: "\(name) goes with CATALOG, the catalog to serve; set CATALOG too")
            }
            return
        }
        self.catalog = CatalogConfiguration(path: catalog, format: format, templates: templates, offerWording: offerWording)
    }
}

/// The files a served catalog is made of: the catalog, and the app's paywall templates and offer
/// wording. Each is read at start and again on `SIGHUP`.
public struct CatalogConfiguration: Sendable {
    /// Any catalog `storeprice render` reads: JSON Lines, CSV, `.storekit`, an App Store Connect
    /// response or a folder of them, `storeprice asc pull`'s output.
    public var path: String
    /// The catalog's format when its name does not tell it.
    public var format: CatalogFormat?
    /// The app's paywall templates, checked as `storeprice paywall --check` checks them.
    public var templates: String?
    /// The app's offer wording.
    public var offerWording: String?

    public init(path: String, format: CatalogFormat? = nil, templates: String? = nil, offerWording: String? = nil) {
        self.path = path
        self.format = format
        self.templates = templates
        self.offerWording = offerWording
    }
}

extension String {
    /// The text as a message quotes it: invisible and non-ASCII characters escaped (`\u{00A0}`),
    /// cut at 64 characters.
    var quotedForMessage: String {
        let escaped = UnicodeEscaping.escapeNonASCII(self)
        return escaped.count > 64 ? escaped.prefix(64) + "…" : escaped
    }
}
