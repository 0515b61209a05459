import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StorePrice

/// GET requests to the App Store Connect API, each with a fresh token, every page followed.
///
/// A `429 Too Many Requests` is retried after its `Retry-After` (at most 60 seconds, 5 times); any
/// other error is Apple's `code` and `detail`. Pages are followed only on the base URL's host, so
/// the token never goes anywhere else.
struct AppStoreConnectClient {
    /// `https://api.appstoreconnect.apple.com`, or a stand-in's address in tests.
    let baseURL: String
    let token: AppStoreConnectToken
    /// How long each request may take.
    var timeout: TimeAmount = .seconds(60)
    /// Longest wait a `Retry-After` is followed for, and how many times.
    var longestRetryWait = 60
    var retries = 5
    /// The HTTP client: a connection that cannot be made is retried for 10 seconds, then fails;
    /// a redirect is not followed (it is an error, as any answer but a page is).
    private let http: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(60))
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()
    /// The largest response read, as the largest catalog file: 64 MiB.
    static let largestResponse = 64 << 20

    init(baseURL: String, token: AppStoreConnectToken) {
        self.baseURL = baseURL
        self.token = token
    }

    /// Closes the client's connections.
    func shutdown() {
        try? http.syncShutdown()
    }

    /// One response: the URL it answered and its JSON.
    struct Page {
        var url: String
        var json: [UInt8]
    }

    /// An answer that is not a page.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `path` (such as `/v1/apps/123/inAppPurchasesV2?limit=200`) and every page after it.
    func pages(_ path: String) throws -> [Page] {
        var pages: [Page] = []
        var fetched: Set<String> = []
        var next: String? = baseURL + path
        while let url = next {
            guard fetched.insert(url).inserted else {
                throw Failure(description: "App Store Connect's next page is one already read, \(Self.shown(url)); stopped")
            }
            let json = try get(url)
            pages.append(Page(url: url, json: json))
            next = nil
            if let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
                let link = (object["links"] as? [String: Any])?["next"] as? String
            {
                guard link.hasPrefix(baseURL + "/") else {
                    throw Failure(
                        description: "App Store Connect's next page is not on \(Self.whole(baseURL)), so the token is not sent there: "
                            + "'\(Self.whole(link))'")
                }
                next = link
            }
            if pages.count > 10_000 { throw Failure(description: "more than 10,000 pages from \(path.escapedForMessage)") }
        }
        return pages
    }

    /// The body of a GET, after any retries.
    private func get(_ url: String) throws -> [UInt8] {
        var attempt = 0
        while true {
            attempt += 1
            var request = try HTTPClient.Request(url: url, method: .GET)
            request.headers.add(name: "Authorization", value: "Bearer " + (try token.make()))
            request.headers.add(name: "Accept", value: "application/json")
            let response: HTTPClient.Response
            do {
                let accumulator = ResponseAccumulator(request: request, maxBodySize: Self.largestResponse)
                response = try http.execute(request: request, delegate: accumulator, deadline: .now() + timeout).futureResult.wait()
            } catch is ResponseAccumulator.ResponseTooBigError {
                throw Failure(description: "App Store Connect's answer to \(Self.shown(url)) is larger than 64 MiB; stopped")
            } catch {
                throw Failure(description: "cannot reach App Store Connect at \(Self.whole(baseURL)) (\(Self.shown(url))): \(Self.reason(error))")
            }
            let body = response.body.map { Array($0.readableBytesView) } ?? []
            if response.status == .tooManyRequests, attempt <= retries {
                let wait = response.headers.first(name: "Retry-After").flatMap { Int($0) } ?? 5
                guard wait <= longestRetryWait else {
                    throw Failure(
                        description: "App Store Connect asks to wait \(wait) s (429 for \(Self.shown(url))), longer than "
                            + "\(longestRetryWait) s; try again later")
                }
                Console.error("note: App Store Connect asks to wait \(wait) s (429 for \(Self.shown(url))); retrying")
                Thread.sleep(forTimeInterval: TimeInterval(max(0, wait)))
                continue
            }
            guard (200..<300).contains(response.status.code) else {
                throw Failure(description: Self.describe(status: response.status, body: body, url: url))
            }
            return body
        }
    }

    /// Why a connection failed, in words: AsyncHTTPClient's errors describe themselves as Swift values.
    static func reason(_ error: any Error) -> String {
        let text = String(describing: error)
        if text.contains("Connection refused") { return "connection refused; is the address right?" }
        let lowered = text.lowercased()
        if lowered.contains("timeout") || lowered.contains("timed out") || lowered.contains("deadline") { return "no answer in time" }
        if text.contains("Name or service not known") || text.contains("lookup") || text.contains("resolve") {
            return "the host name does not resolve"
        }
        if text.lowercased().contains("certificate") || text.contains("TLS") || text.contains("SSL") {
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
}
