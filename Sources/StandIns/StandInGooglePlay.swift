import _CryptoExtras
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A stand-in for the Google Play Developer API on this machine, and for Google's OAuth 2.0
/// token endpoint: it exchanges a service account's signed assertion for an access token, as
/// Google does (RS256 by the account's key, `iss` the account's email, `aud` the token URL, the
/// `androidpublisher` scope, at most an hour), and answers the lists `storeprice play pull` asks
/// for only with a token it issued; anything else is Google's error.
///
/// It serves the documents of a folder: `onetimeproducts.json`, `subscriptions.json` and
/// `offers.json` (Tests/Fixtures/google-play), in pages of ``Configuration/pageSize`` with a
/// `nextPageToken`, and an offers list per subscription (`basePlans/-/offers`).
public final class StandInGooglePlay: Sendable {
    public struct Configuration: Sendable {
        /// The folder of documents.
        public var folder: String
        /// The app's package name; another is Google's 404.
        public var packageName = "com.example.app"
        /// The service account's email; nil for any. Its key is set with ``trust(publicKeyPEM:)``,
        /// once the key is made for the stand-in's token URL.
        public var clientEmail: String?
        /// How many resources a page holds at most (the request's `pageSize` if smaller).
        public var pageSize = 1_000
        /// Paths and queries answered once with 429 (and `Retry-After: 1`), or 503, first.
        public var throttleOnce: Set<String> = []
        public var unavailableOnce: Set<String> = []
        /// How long each answer takes.
        public var latency: Duration = .zero
        public var host = "127.0.0.1"
        public var port = 0

        public init(folder: String) {
            self.folder = folder
        }
    }

    /// A request, and why its credentials were refused (nil: they were good).
    public struct Request: Sendable {
        public var method: String
        public var uri: String
        public var problem: String?
        public var time = ContinuousClock.now
    }

    private struct State {
        var requests: [Request] = []
        var tokens: Set<String> = []
        var publicKeyPEM: String?
        var answeredOnce: Set<String> = []
        var inFlight = 0
        var mostInFlight = 0
    }

    private let configuration: Configuration
    /// Each list's resources, by its key (`oneTimeProducts`): each resource's JSON, with its
    /// product and base plan IDs, read once.
    private let lists: [String: [(json: Data, productID: String?, basePlanID: String?)]]
    private let state = Mutex(State())
    private let channel: any Channel
    /// `http://127.0.0.1:PORT`: the API's base URL.
    public let baseURL: String
    /// The token endpoint, `http://127.0.0.1:PORT/token`, as a service account's `token_uri`.
    public var tokenURL: String { baseURL + "/token" }

    public init(_ configuration: Configuration) throws {
        self.configuration = configuration
        var lists: [String: [(json: Data, productID: String?, basePlanID: String?)]] = [:]
        for (file, key) in [("onetimeproducts.json", "oneTimeProducts"), ("subscriptions.json", "subscriptions"), ("offers.json", "subscriptionOffers")] {
            let data = FileManager.default.contents(atPath: configuration.folder + "/" + file) ?? Data("{}".utf8)
            let items = ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?[key] as? [[String: Any]] ?? []
            lists[key] = items.compactMap { item in
                (try? JSONSerialization.data(withJSONObject: item, options: [.sortedKeys])).map {
                    ($0, item["productId"] as? String, item["basePlanId"] as? String)
                }
            }
        }
        self.lists = lists
        let box = Mutex<StandInGooglePlay?>(nil)
        channel = try StandInHandler.serve(
            host: configuration.host, port: configuration.port, latency: configuration.latency,
            answer: { head, body in box.withLock { $0 }?.answer(head, body) ?? (.serviceUnavailable, [], []) },
            finished: { box.withLock { $0 }?.finished() })
        baseURL = "http://\(configuration.host):\(channel.localAddress?.port ?? 0)"
        box.withLock { $0 = self }
    }

    deinit {
        try? channel.close().wait()
    }

    /// Takes assertions signed by this key only (PEM of its public half); until then, any.
    public func trust(publicKeyPEM: String) {
        state.withLock { $0.publicKeyPEM = publicKeyPEM }
    }

    /// Waits until the stand-in is closed.
    public func wait() throws {
        try channel.closeFuture.wait()
    }

    public var requests: [Request] { state.withLock { $0.requests } }
    public var mostInFlight: Int { state.withLock { $0.mostInFlight } }

    private func finished() {
        state.withLock { $0.inFlight -= 1 }
    }

    private func answer(_ head: HTTPRequestHead, _ body: [UInt8]) -> (HTTPResponseStatus, [(String, String)], [UInt8]) {
        let json = [("Content-Type", "application/json; charset=UTF-8")]
        if head.method == .POST, head.uri == "/token" {
            let problem = assertionProblem(body)
            let token = "stand-in-\(UUID().uuidString)"
            state.withLock { state in
                state.requests.append(Request(method: "POST", uri: head.uri, problem: problem))
                if problem == nil { state.tokens.insert(token) }
                state.inFlight += 1
            }
            if let problem {
                return (.badRequest, json, Array(#"{"error":"invalid_grant","error_description":"\#(problem)"}"#.utf8))
            }
            return (.ok, json, Array(#"{"access_token":"\#(token)","expires_in":3599,"token_type":"Bearer"}"#.utf8))
        }
        let authorization = head.headers.first(name: "Authorization") ?? ""
        let (problem, once) = state.withLock { state -> (String?, String?) in
            let token = authorization.hasPrefix("Bearer ") ? String(authorization.dropFirst(7)) : ""
            let problem = state.tokens.contains(token) ? nil : "no access token the stand-in issued"
            state.requests.append(Request(method: "\(head.method)", uri: head.uri, problem: problem))
            state.inFlight += 1
            state.mostInFlight = max(state.mostInFlight, state.inFlight)
            var once: String?
            if problem == nil, !state.answeredOnce.contains(head.uri) {
                if configuration.throttleOnce.contains(head.uri) { once = "429" }
                if configuration.unavailableOnce.contains(head.uri) { once = "503" }
                if once != nil { state.answeredOnce.insert(head.uri) }
            }
            return (problem, once)
        }
        if problem != nil {
            return (.unauthorized, json, Self.error(401, "UNAUTHENTICATED", "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential."))
        }
        if once == "429" {
            return (.tooManyRequests, json + [("Retry-After", "1")], Self.error(429, "RESOURCE_EXHAUSTED", "Quota exceeded for quota metric 'Queries'."))
        }
        if once == "503" {
            return (.serviceUnavailable, json, Self.error(503, "UNAVAILABLE", "The service is currently unavailable."))
        }
        guard head.method == .GET else { return (.methodNotAllowed, json, Self.error(405, "METHOD_NOT_ALLOWED", "Method not allowed.")) }
        let parts = head.uri.split(separator: "?", maxSplits: 1).map(String.init)
        let segments = parts[0].split(separator: "/").map(String.init)
        var query: [String: String] = [:]
        for pair in (parts.count == 2 ? parts[1] : "").split(separator: "&") {
            let item = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if item.count == 2 { query[item[0]] = item[1].removingPercentEncoding ?? item[1] }
        }
        guard segments.count >= 5, segments[0] == "androidpublisher", segments[1] == "v3", segments[2] == "applications" else {
            return (.notFound, json, Self.error(404, "NOT_FOUND", "Not found."))
        }
        guard segments[3] == configuration.packageName else {
            return (.notFound, json, Self.error(404, "NOT_FOUND", "Package not found: \(segments[3])."))
        }
        let rest = Array(segments[4...])
        let key: String
        var items: [Data]
        switch rest.count {
        case 1 where rest[0] == "oneTimeProducts":
            key = "oneTimeProducts"
            items = (lists[key] ?? []).map(\.json)
        case 1 where rest[0] == "subscriptions":
            key = "subscriptions"
            items = (lists[key] ?? []).map(\.json)
        case 5 where rest[0] == "subscriptions" && rest[2] == "basePlans" && rest[4] == "offers":
            key = "subscriptionOffers"
            items = (lists[key] ?? []).filter { $0.productID == rest[1] && (rest[3] == "-" || $0.basePlanID == rest[3]) }.map(\.json)
        default:
            return (.notFound, json, Self.error(404, "NOT_FOUND", "Not found."))
        }
        let size = min(configuration.pageSize, Int(query["pageSize"] ?? "") ?? 50)
        let page = query["pageToken"].flatMap { $0.hasPrefix("page-") ? Int($0.dropFirst(5)) : nil } ?? 0
        if query["pageToken"] != nil, page == 0 {
            return (.badRequest, json, Self.error(400, "INVALID_ARGUMENT", "Invalid page token."))
        }
        let start = min(page * size, items.count)
        // As Google writes a list: its resources, then the next page's token while there is one.
        var body = Array("{".utf8)
        if !items.isEmpty {
            body += Array("\n  \"\(key)\": [".utf8)
            for (index, item) in items[start..<min(start + size, items.count)].enumerated() {
                if index > 0 { body += Array(",".utf8) }
                body += Array(item)
            }
            body += Array("]".utf8)
        }
        if start + size < items.count { body += Array(",\n  \"nextPageToken\": \"page-\(page + 1)\"".utf8) }
        body += Array("\n}\n".utf8)
        return (.ok, json, body)
    }

    /// Why Google would refuse the assertion of a token request, or nil.
    private func assertionProblem(_ body: [UInt8]) -> String? {
        var form: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let item = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if item.count == 2 { form[item[0]] = item[1].removingPercentEncoding ?? item[1] }
        }
        guard form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer", let assertion = form["assertion"] else {
            return "Invalid grant_type or no assertion."
        }
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerData = Self.base64URL(parts[0]), let claimsData = Self.base64URL(parts[1]),
            let signature = Self.base64URL(parts[2]),
            let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: claimsData) as? [String: Any]
        else { return "Invalid JWT." }
        if let pem = state.withLock({ $0.publicKeyPEM }) {
            guard let key = try? _RSA.Signing.PublicKey(pemRepresentation: pem),
                key.isValidSignature(
                    _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: Data((parts[0] + "." + parts[1]).utf8)),
                    padding: .insecurePKCS1v1_5)
            else { return "Invalid JWT Signature." }
        }
        guard header["alg"] as? String == "RS256", header["typ"] as? String == "JWT" else { return "Invalid JWT header." }
        guard configuration.clientEmail.map({ claims["iss"] as? String == $0 }) ?? (claims["iss"] is String) else {
            return "Invalid issuer."
        }
        guard claims["aud"] as? String == tokenURL else { return "Invalid JWT: audience." }
        guard (claims["scope"] as? String)?.split(separator: " ").contains("https://www.googleapis.com/auth/androidpublisher") == true else {
            return "Invalid scope."
        }
        guard let issued = claims["iat"] as? Int, let expires = claims["exp"] as? Int else { return "Invalid JWT: no iat or exp." }
        let now = Int(Date().timeIntervalSince1970)
        guard expires - issued <= 3600, expires > now, issued <= now + 60 else {
            return "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe."
        }
        return nil
    }

    private static func base64URL(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    private static func error(_ code: Int, _ status: String, _ message: String) -> [UInt8] {
        Array(#"{"error":{"code":\#(code),"message":"\#(message)","status":"\#(status)"}}"#.utf8)
    }

    /// A made-up service account key file (JSON, as the Google Cloud console downloads one) whose
    /// `token_uri` is `tokenURL`, and the key's public half (PEM), for the stand-in to check.
    public static func makeServiceAccount(tokenURL: String, email: String = "pull@example-project.iam.gserviceaccount.com")
        throws -> (json: String, publicKeyPEM: String)
    {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let escaped = key.pkcs8PEMRepresentation.replacingOccurrences(of: "\n", with: "\\n")
        let json = """
            {
              "type": "service_account",
              "project_id": "example-project",
              "private_key_id": "0123456789abcdef0123456789abcdef01234567",
              "private_key": "\(escaped)",
              "client_email": "\(email)",
              "client_id": "100000000000000000000",
              "auth_uri": "https://accounts.google.com/o/oauth2/auth",
              "token_uri": "\(tokenURL)"
            }

            """
        return (json, key.publicKey.pemRepresentation)
    }
}
