import Crypto
public import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A stand-in for the App Store Connect API on this machine: it answers recorded responses at
/// the API's paths, and checks each request's token as Apple does (ES256 signature by the team's
/// key, `kid`, `iss`, `aud`, and a lifetime of at most 20 minutes); a bad token is Apple's 401.
///
/// A folder of responses is served by each file's `links.self`: a request is answered with the
/// file whose `links.self` has its path and query (`limit` aside, and percent-escapes read), the
/// recorded host replaced by the stand-in's, so that `links.next` leads back to it. A list the
/// folder lacks is an empty list, as for an app that has none of it. `swift run asc-stand-in`
/// serves a folder for a person; StorePrice's tests start one in process.
public final class StandInAppStoreConnect: Sendable {
    /// What the stand-in serves, and how.
    public struct Configuration: Sendable {
        /// The folder of responses.
        public var folder: String
        /// Paths and queries answered otherwise, exactly as requested: a file of ``folder``,
        /// `EMPTY` for an empty list, `LOOP` for a page that is its own next, `REDIRECT` for a 302 to
        /// another host, `WAIT` for a 429 asking for an hour.
        public var routes: [String: String] = [:]
        /// The team's public key, as its raw P-256 bytes (`rawRepresentation`); nil to take any
        /// token that is a signed JSON Web Token.
        public var publicKey: Data?
        /// The key ID and issuer ID tokens must name; nil for any.
        public var keyID: String?
        public var issuerID: String?
        /// Paths and queries answered once with 429 and `Retry-After: 1` before their response.
        public var throttleOnce: Set<String> = []
        /// How long each answer takes, as a server far away.
        public var latency: Duration = .zero
        /// The key's hourly budget: each answer says what is left in `X-Rate-Limit`, and once
        /// none is, requests are refused with 429.
        public var hourlyLimit: Int?
        /// Whether a path the folder lacks is an empty list (or a 404).
        public var unmatchedIsEmpty = true
        /// The `Retry-After` of a throttled answer: seconds, or a date.
        public var retryAfter = "1"
        /// When set, every list longer than this is served in pages of this many resources, each
        /// with every included resource and a `links.next` with a `cursor` to the next.
        public var pageSize: Int?
        public var host = "127.0.0.1"
        public var port = 0

        public init(folder: String) {
            self.folder = folder
        }
    }

    /// What the stand-in was asked, and how each token fared.
    public struct Request: Sendable {
        public var uri: String
        public var tokenProblem: String?
        /// When it came.
        public var time = ContinuousClock.now
    }

    private let configuration: Configuration
    /// The folder's responses by their normalized `links.self`.
    private let files: [String: String]
    private struct State {
        var requests: [Request] = []
        var throttled: Set<String> = []
        var inFlight = 0
        var mostInFlight = 0
        var remaining: Int?
    }
    private let state: Mutex<State>
    private let channel: any Channel
    /// `http://127.0.0.1:PORT`.
    public let baseURL: String

    public init(_ configuration: Configuration) throws {
        self.configuration = configuration
        var files: [String: String] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: configuration.folder)) ?? []
        for name in names.sorted() where name.hasSuffix(".json") {
            guard let data = FileManager.default.contents(atPath: configuration.folder + "/" + name),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let link = (object["links"] as? [String: Any])?["self"] as? String
            else { continue }
            files[Self.normalized(Self.pathAndQuery(link))] = String(decoding: data, as: UTF8.self)
        }
        self.files = files
        state = Mutex(State(remaining: configuration.hourlyLimit))
        let box = Mutex<StandInAppStoreConnect?>(nil)
        channel = try StandInHandler.serve(
            host: configuration.host, port: configuration.port, latency: configuration.latency,
            answer: { head, _ in box.withLock { $0 }?.answer(head) ?? (.serviceUnavailable, [], []) },
            finished: { box.withLock { $0 }?.finished() })
        baseURL = "http://\(configuration.host):\(channel.localAddress?.port ?? 0)"
        box.withLock { $0 = self }
    }

    deinit {
        try? channel.close().wait()
    }

    /// Waits until the stand-in is closed.
    public func wait() throws {
        try channel.closeFuture.wait()
    }

    public var requests: [Request] { state.withLock { $0.requests } }
    /// The most requests it was answering at once.
    public var mostInFlight: Int { state.withLock { $0.mostInFlight } }

    private func finished() {
        state.withLock { $0.inFlight -= 1 }
    }

    /// The answer to one request.
    private func answer(_ head: HTTPRequestHead) -> (HTTPResponseStatus, [(String, String)], [UInt8]) {
        let problem = tokenProblem(head.headers.first(name: "Authorization"))
        let (throttle, spent, remaining) = state.withLock { state -> (Bool, Bool, Int?) in
            state.requests.append(Request(uri: head.uri, tokenProblem: problem))
            state.inFlight += 1
            state.mostInFlight = max(state.mostInFlight, state.inFlight)
            var spent = false
            if let left = state.remaining {
                if left == 0 { spent = true } else { state.remaining = left - 1 }
            }
            guard configuration.throttleOnce.contains(head.uri), !state.throttled.contains(head.uri) else {
                return (false, spent, state.remaining)
            }
            state.throttled.insert(head.uri)
            return (true, spent, state.remaining)
        }
        var fields: [(String, String)] = []
        if let limit = configuration.hourlyLimit, let remaining {
            fields.append(("X-Rate-Limit", "user-hour-lim:\(limit);user-hour-rem:\(remaining);"))
        }
        if problem != nil {
            return (.unauthorized, fields, Self.error(
                "401", "NOT_AUTHORIZED", "Authentication credentials are missing or invalid.",
                "Provide a properly configured and signed bearer token, and make sure that it has not expired."))
        }
        if throttle || spent {
            return (.tooManyRequests, fields + [("Retry-After", configuration.retryAfter)], Self.error(
                "429", "RATE_LIMIT_EXCEEDED", "The request rate limit has been reached.", "We've received too many requests."))
        }
        let uri = head.uri
        switch configuration.routes[uri] {
        case "LOOP"?:
            // A page whose next page is itself.
            let link = baseURL + uri
            return (.ok, fields, Array(#"{"data":[],"links":{"self":"\#(link)","next":"\#(link)"}}"#.utf8))
        case "REDIRECT"?:
            return (.found, fields + [("Location", "http://127.0.0.2:9/v1/apps/1500000000/inAppPurchasesV2?limit=200")], [])
        case "WAIT"?:
            return (.tooManyRequests, fields + [("Retry-After", "3600")], Self.error(
                "429", "RATE_LIMIT_EXCEEDED", "The request rate limit has been reached.", "We've received too many requests."))
        case "EMPTY"?:
            return (.ok, fields + [("Content-Type", "application/json")], emptyList(uri))
        case let file?:
            let recorded = (try? String(contentsOfFile: configuration.folder + "/" + file, encoding: .utf8)) ?? ""
            return (.ok, fields + [("Content-Type", "application/json")], served(recorded, uri: uri))
        case nil:
            break
        }
        if configuration.pageSize != nil, let cursor = uri.range(of: "cursor=stand-in-") {
            // A page the stand-in made: the list without its cursor.
            let plain = uri.replacingCharacters(in: cursor.lowerBound..<(uri[cursor.upperBound...].firstIndex(of: "&").map { uri.index(after: $0) } ?? uri.endIndex), with: "")
            let trimmed = plain.hasSuffix("?") || plain.hasSuffix("&") ? String(plain.dropLast()) : plain
            if let file = configuration.routes[trimmed], !["LOOP", "REDIRECT", "WAIT", "EMPTY"].contains(file) {
                let recorded = (try? String(contentsOfFile: configuration.folder + "/" + file, encoding: .utf8)) ?? ""
                return (.ok, fields + [("Content-Type", "application/json")], served(recorded, uri: uri))
            }
            if let recorded = files[Self.normalized(trimmed)] {
                return (.ok, fields + [("Content-Type", "application/json")], served(recorded, uri: uri))
            }
        }
        if let recorded = files[Self.normalized(uri)] {
            return (.ok, fields + [("Content-Type", "application/json")], served(recorded, uri: uri))
        }
        guard configuration.unmatchedIsEmpty else {
            return (.notFound, fields, Self.error(
                "404", "NOT_FOUND", "The specified resource does not exist",
                "The path provided does not match a defined resource type."))
        }
        return (.ok, fields + [("Content-Type", "application/json")], emptyList(uri))
    }

    /// A recorded response with the recorded host replaced by the stand-in's; one page of it,
    /// when lists are paged.
    private func served(_ recorded: String, uri: String) -> [UInt8] {
        let text = recorded.replacingOccurrences(of: "https://api.appstoreconnect.apple.com", with: baseURL)
        guard let size = configuration.pageSize, size > 0,
            var document = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let data = document["data"] as? [Any], data.count > size, (document["links"] as? [String: Any])?["next"] == nil
        else { return Array(text.utf8) }
        // The page this request asks for, from the stand-in's own cursor.
        var page = 0
        var plain = uri
        if let cursor = uri.range(of: "cursor=stand-in-") {
            let end = uri[cursor.upperBound...].firstIndex(of: "&") ?? uri.endIndex
            page = Int(uri[cursor.upperBound..<end]) ?? 0
            plain = String(uri[..<cursor.lowerBound]) + String(uri[end...].dropFirst())
            if plain.hasSuffix("?") || plain.hasSuffix("&") { plain.removeLast() }
        }
        let start = min(page * size, data.count)
        document["data"] = Array(data[start..<min(start + size, data.count)])
        var links: [String: Any] = ["self": baseURL + uri]
        if start + size < data.count {
            links["next"] = baseURL + plain + (plain.contains("?") ? "&" : "?") + "cursor=stand-in-\(page + 1)"
        }
        document["links"] = links
        return (try? JSONSerialization.data(withJSONObject: document)).map { Array($0) } ?? Array(text.utf8)
    }

    private func emptyList(_ uri: String) -> [UInt8] {
        Array(#"{"data":[],"links":{"self":"\#(baseURL)\#(uri)"},"meta":{"paging":{"total":0,"limit":200}}}"#.utf8)
    }

    /// A URL's path and query.
    static func pathAndQuery(_ url: String) -> String {
        String(url.range(of: "://").map { url[$0.upperBound...].drop { $0 != "/" } } ?? Substring(url))
    }

    /// A path and query as the folder's responses are found by: percent-escapes read, the
    /// query's parameters in order, `limit` left out (a page's size does not choose its data).
    static func normalized(_ uri: String) -> String {
        let parts = uri.split(separator: "?", maxSplits: 1).map(String.init)
        let path = parts[0].removingPercentEncoding ?? parts[0]
        guard parts.count == 2 else { return path }
        let query = parts[1].split(separator: "&").map { ($0.removingPercentEncoding ?? String($0)) }
            .filter { !$0.hasPrefix("limit=") }.sorted()
        return query.isEmpty ? path : path + "?" + query.joined(separator: "&")
    }

    /// Why a token would be refused, or nil.
    private func tokenProblem(_ authorization: String?) -> String? {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return "no bearer token" }
        let parts = authorization.dropFirst(7).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerData = Self.base64URL(parts[0]), let claimsData = Self.base64URL(parts[1]),
            let signatureData = Self.base64URL(parts[2]),
            let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: claimsData) as? [String: Any],
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData)
        else { return "not a JSON Web Token" }
        if let raw = configuration.publicKey {
            guard let key = try? P256.Signing.PublicKey(rawRepresentation: raw),
                key.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8))
            else { return "the signature is not the key's" }
        }
        guard header["alg"] as? String == "ES256", header["typ"] as? String == "JWT",
            configuration.keyID.map({ header["kid"] as? String == $0 }) ?? (header["kid"] is String)
        else {
            return "header \(header)"
        }
        guard configuration.issuerID.map({ claims["iss"] as? String == $0 }) ?? (claims["iss"] is String),
            claims["aud"] as? String == "appstoreconnect-v1", let issued = claims["iat"] as? Int, let expires = claims["exp"] as? Int
        else { return "claims \(claims)" }
        let now = Int(Date().timeIntervalSince1970)
        guard expires - issued <= 20 * 60, expires > now, issued <= now + 60 else { return "lifetime \(issued)…\(expires)" }
        return nil
    }

    private static func base64URL(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    private static func error(_ status: String, _ code: String, _ title: String, _ detail: String) -> [UInt8] {
        Array(#"{"errors":[{"status":"\#(status)","code":"\#(code)","title":"\#(title)","detail":"\#(detail)"}]}"#.utf8)
    }
}
