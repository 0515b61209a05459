import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StorePrice
import Synchronization

/// GET requests to the App Store Connect API, each with a fresh token, many at once.
///
/// A `429 Too Many Requests` is retried after its `Retry-After` (at most 60 seconds, 5 times),
/// unless the hour's requests are spent: App Store Connect sends each key's hourly budget with
/// every answer (`X-Rate-Limit: user-hour-lim:3600;user-hour-rem:3599;`), and once none is left
/// no request is sent and the pull stops. Any other error is Apple's `code` and `detail`. Pages
/// are followed only on the base URL's host, so the token never goes anywhere else. HTTP/2 is used
/// where the server offers it (over TLS), many requests on one connection; HTTP/1.1 otherwise,
/// with a connection for each request at once.
final class AppStoreConnectClient: Sendable {
    /// `https://api.appstoreconnect.apple.com`, or a stand-in's address in tests.
    let baseURL: String
    let token: AppStoreConnectToken
    /// How long each request may take.
    let timeout: TimeAmount = .seconds(60)
    /// Longest wait a `Retry-After` is followed for, and how many times.
    let longestRetryWait = 60
    let retries = 5
    private let http: HTTPClient
    /// What the answers told of the hour's budget, and the requests made.
    let usage = Mutex(Usage())
    /// The largest response read, as the largest catalog file: 64 MiB.
    static let largestResponse = 64 << 20

    /// The requests of this run, and the hour's budget as App Store Connect last told it.
    struct Usage: Sendable {
        var requests = 0
        var inFlight = 0
        var mostInFlight = 0
        /// `user-hour-lim` and the least `user-hour-rem` seen (answers at once may come in any order).
        var hourlyLimit: Int?
        var remaining: Int?
    }

    /// A client making up to `concurrency` requests at once: a connection that cannot be made is
    /// retried for 10 seconds, then fails; a redirect is not followed (it is an error, as any
    /// answer but a page is).
    init(baseURL: String, token: AppStoreConnectToken, concurrency: Int) {
        self.baseURL = baseURL
        self.token = token
        http = Self.httpClient(concurrency: concurrency)
    }

    /// The HTTP client of a store's API, App Store Connect's or Google Play's: a connection that
    /// cannot be made is retried for 10 seconds, an answer may take 60, redirects are not
    /// followed (the token goes nowhere else), HTTP/2 where the server offers it, and up to
    /// `concurrency` HTTP/1.1 connections otherwise.
    static func httpClient(concurrency: Int) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(60))
        configuration.redirectConfiguration = .disallow
        configuration.httpVersion = .automatic
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(1, concurrency)
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Closes the client's connections.
    func shutdown() async {
        try? await http.shutdown()
    }

    /// An answer that is not a page.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The body of a GET of `url`, after any retries.
    func get(_ url: String) async throws -> [UInt8] {
        var attempt = 0
        while true {
            attempt += 1
            try checkBudget(url)
            var request = HTTPClientRequest(url: url)
            request.method = .GET
            request.headers.add(name: "Authorization", value: "Bearer " + (try token.make()))
            request.headers.add(name: "Accept", value: "application/json")
            usage.withLock { usage in
                usage.requests += 1
                usage.inFlight += 1
                usage.mostInFlight = max(usage.mostInFlight, usage.inFlight)
            }
            defer { usage.withLock { $0.inFlight -= 1 } }
            let status: HTTPResponseStatus
            let headers: HTTPHeaders
            let body: [UInt8]
            do {
                let response = try await http.execute(request, timeout: timeout)
                status = response.status
                headers = response.headers
                body = Array(buffer: try await response.body.collect(upTo: Self.largestResponse))
            } catch is NIOTooManyBytesError {
                throw Failure(description: "App Store Connect's answer to \(Self.shown(url)) is larger than 64 MiB; stopped")
            } catch let failure as Failure {
                throw failure
            } catch {
                throw Failure(description: "cannot reach App Store Connect at \(Self.whole(baseURL)) (\(Self.shown(url))): \(Self.reason(error))")
            }
            let spent = noteRateLimit(headers.first(name: "X-Rate-Limit"))
            if status == .tooManyRequests {
                // Spent: waiting would not bring the budget back within the run.
                if spent { throw spentFailure(url) }
                if attempt <= retries {
                    let given = headers.first(name: "Retry-After")
                    if let wait = Self.retryAfter(given) {
                        guard wait <= longestRetryWait else {
                            throw Failure(
                                description: "App Store Connect asks to wait \(wait) s (429 for \(Self.shown(url))), longer than "
                                    + "\(longestRetryWait) s; try again later")
                        }
                        Console.error("note: App Store Connect asks to wait \(wait) s (429 for \(Self.shown(url))); retrying")
                        try await Task.sleep(for: .seconds(wait))
                    } else {
                        // No wait it can read is no reason to retry at once: 2 s, then twice as long each time.
                        let wait = min(longestRetryWait, 2 << (attempt - 1))
                        Console.error(
                            "note: App Store Connect answered 429 for \(Self.shown(url))"
                                + (given.map { " with a Retry-After that is no wait ('\(Self.whole($0))')" } ?? "")
                                + "; retrying in \(wait) s")
                        try await Task.sleep(for: .seconds(wait))
                    }
                    continue
                }
            }
            guard (200..<300).contains(status.code) else {
                throw Failure(description: Self.describe(status: status, body: body, url: url))
            }
            return body
        }
    }

    /// Stops before a request once the hour's budget is spent.
    private func checkBudget(_ url: String) throws {
        if usage.withLock({ $0.remaining == 0 }) { throw spentFailure(url) }
    }

    private func spentFailure(_ url: String) -> Failure {
        let (limit, requests) = usage.withLock { ($0.hourlyLimit, $0.requests) }
        return Failure(
            description: "App Store Connect's hourly limit of \(limit.map(Self.grouped) ?? "an unknown number of") requests for this key "
                + "is spent (\(Self.shown(url)) not sent; this run made \(Self.grouped(requests))); run it again in an hour, or with another key")
    }

    /// Reads `X-Rate-Limit` (`user-hour-lim:3600;user-hour-rem:3599;`); whether the hour's
    /// budget is spent.
    private func noteRateLimit(_ header: String?) -> Bool {
        guard let header else { return false }
        var limit: Int?
        var remaining: Int?
        for part in header.split(separator: ";") {
            let pair = part.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, let value = Int(pair[1]), value >= 0 else { continue }
            if pair[0] == "user-hour-lim" { limit = value }
            if pair[0] == "user-hour-rem" { remaining = value }
        }
        return usage.withLock { usage in
            if let limit { usage.hourlyLimit = limit }
            if let remaining { usage.remaining = min(usage.remaining ?? remaining, remaining) }
            return usage.remaining == 0
        }
    }

    /// The seconds a `Retry-After` asks for, in either of HTTP's forms (RFC 9110, 10.2.3): a
    /// number of seconds, or a date; nil for a value that is neither, or a negative number, which
    /// is no reason to retry at once (the caller waits as it would without one). A date in the
    /// past asks for no wait.
    static func retryAfter(_ value: String?, now: Date = Date()) -> Int? {
        guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            return text.utf8.count > 9 ? Int.max : Int(text)
        }
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) {
                return max(0, Int(date.timeIntervalSince(now).rounded(.up)))
            }
        }
        return nil
    }

    /// Why a connection failed, in words: AsyncHTTPClient's errors describe themselves as Swift values.
    static func reason(_ error: any Error) -> String {
        let text = String(describing: error)
        if text.contains("Connection refused") || text.contains("connectionRefused") { return "connection refused; is the address right?" }
        let lowered = text.lowercased()
        if lowered.contains("timeout") || lowered.contains("timed out") || lowered.contains("deadline") { return "no answer in time" }
        if text.contains("Name or service not known") || text.contains("lookup") || text.contains("resolve") {
            return "the host name does not resolve"
        }
        if lowered.contains("certificate") || text.contains("TLS") || text.contains("SSL") {
            return "the TLS handshake failed"
        }
        return "the connection failed"
    }

    /// Apple's error in one line: `401 NOT_AUTHORIZED: Provide a properly configured…`.
    static func describe(status: HTTPResponseStatus, body: [UInt8], url: String) -> String {
        var words = "App Store Connect answered \(status.code) to \(shown(url))"
        if let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let errors = object["errors"] as? [[String: Any]], let first = errors.first
        {
            let code = first["code"] as? String ?? "\(status.code)"
            let detail = first["detail"] as? String ?? first["title"] as? String ?? ""
            words += ": \(code.escapedForMessage): \(whole(detail))"
            if errors.count > 1 { words += " (and \(errors.count - 1) more)" }
        } else {
            words += " (\(status.reasonPhrase.escapedForMessage))"
        }
        return words
    }

    /// A URL's path and query, for messages: `GET /v1/apps/123/inAppPurchasesV2?limit=200`.
    static func shown(_ url: String) -> String {
        "GET " + whole(path(of: url))
    }

    /// A URL's path and query: `/v1/apps/123/inAppPurchasesV2?limit=200`.
    static func path(of url: String) -> String {
        String(url.range(of: "://").map { url[$0.upperBound...].drop { $0 != "/" } } ?? Substring(url))
    }

    /// Text from Apple or a URL for a message: escaped, and whole up to 500 characters.
    static func whole(_ text: String) -> String {
        let scalars = text.unicodeScalars
        return String(String.UnicodeScalarView(scalars.prefix(500))).escapedPathForMessage + (scalars.count > 500 ? "…" : "")
    }

    /// `3,600`.
    static func grouped(_ number: Int) -> String {
        var text = ""
        for (index, digit) in String(number).reversed().enumerated() {
            if index > 0, index % 3 == 0, digit != "-" { text.append(",") }
            text.append(digit)
        }
        return String(text.reversed())
    }
}
