import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import TestSupport

/// A stand-in for the App Store Connect API on 127.0.0.1: it answers recorded responses by path
/// and query, and checks each request's token as Apple does (ES256 signature by the team's key,
/// `kid`, `iss`, `aud`, and a lifetime of at most 20 minutes); a bad token is Apple's 401.
final class StandInAppStoreConnect: Sendable {
    /// What the stand-in was asked, and how each token fared.
    struct Request: Sendable {
        var uri: String
        var tokenProblem: String?
    }

    private let routes: [String: String]
    /// The team's public key, as its bytes (the key type is not Sendable).
    private let publicKey: Data
    private let keyID: String
    private let issuerID: String
    private let state = Mutex<(requests: [Request], throttled: Set<String>)>(([], []))
    /// Paths answered once with 429 and `Retry-After: 1` before their response.
    private let throttleOnce: Set<String>
    private let channel: any Channel
    let baseURL: String

    /// Serves `routes` (path and query → a file of Tests/Fixtures/app-store-connect, `EMPTY` for an
    /// empty list, `LOOP` for a page that is its own next, `REDIRECT` for a 302 to another host,
    /// `WAIT` for a 429 asking for an hour), with the recorded host replaced by the stand-in's.
    init(
        routes: [String: String], publicKey: P256.Signing.PublicKey, keyID: String, issuerID: String,
        throttleOnce: Set<String> = []
    ) throws {
        self.routes = routes
        self.publicKey = publicKey.rawRepresentation
        self.keyID = keyID
        self.issuerID = issuerID
        self.throttleOnce = throttleOnce
        let box = Mutex<StandInAppStoreConnect?>(nil)
        channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler(answer: { head in
                        box.withLock { $0 }?.answer(head) ?? (.serviceUnavailable, [], [])
                    }))
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        baseURL = "http://127.0.0.1:\(channel.localAddress?.port ?? 0)"
        box.withLock { $0 = self }
    }

    deinit {
        try? channel.close().wait()
    }

    var requests: [Request] { state.withLock { $0.requests } }

    /// The answer to one request.
    private func answer(_ head: HTTPRequestHead) -> (HTTPResponseStatus, [(String, String)], [UInt8]) {
        let problem = tokenProblem(head.headers.first(name: "Authorization"))
        let throttle = state.withLock { state -> Bool in
            state.requests.append(Request(uri: head.uri, tokenProblem: problem))
            guard throttleOnce.contains(head.uri), !state.throttled.contains(head.uri) else { return false }
            state.throttled.insert(head.uri)
            return true
        }
        if problem != nil {
            return (.unauthorized, [], Self.error(
                "401", "NOT_AUTHORIZED", "Authentication credentials are missing or invalid.",
                "Provide a properly configured and signed bearer token, and make sure that it has not expired."))
        }
        if throttle {
            return (.tooManyRequests, [("Retry-After", "1")], Self.error(
                "429", "RATE_LIMIT_EXCEEDED", "The request rate limit has been reached.", "We've received too many requests."))
        }
        switch routes[head.uri] {
        case "LOOP"?:
            // A page whose next page is itself.
            let link = baseURL + head.uri
            return (.ok, [], Array(#"{"data":[],"links":{"self":"\#(link)","next":"\#(link)"}}"#.utf8))
        case "REDIRECT"?:
            return (.found, [("Location", "http://127.0.0.2:9/v1/apps/1500000000/inAppPurchasesV2?limit=200")], [])
        case "WAIT"?:
            return (.tooManyRequests, [("Retry-After", "3600")], Self.error(
                "429", "RATE_LIMIT_EXCEEDED", "The request rate limit has been reached.", "We've received too many requests."))
        default: break
        }
        guard let file = routes[head.uri] else {
            return (.notFound, [], Self.error(
                "404", "NOT_FOUND", "The specified resource does not exist",
                "The path provided does not match a defined resource type."))
        }
        let text: String
        if file == "EMPTY" {
            text = #"{"data":[],"links":{"self":"\#(baseURL)\#(head.uri)"},"meta":{"paging":{"total":0,"limit":200}}}"#
        } else {
            let recorded = (try? String(
                contentsOf: repositoryFile("Tests/Fixtures/app-store-connect/\(file)"), encoding: .utf8)) ?? ""
            text = recorded.replacingOccurrences(of: "https://api.appstoreconnect.apple.com", with: baseURL)
        }
        return (.ok, [("Content-Type", "application/json")], Array(text.utf8))
    }

    /// Why a token would be refused, or nil.
    private func tokenProblem(_ authorization: String?) -> String? {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return "no bearer token" }
        let parts = authorization.dropFirst(7).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerData = Self.base64URL(parts[0]), let claimsData = Self.base64URL(parts[1]),
            let signatureData = Self.base64URL(parts[2]),
            let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: claimsData) as? [String: Any]
        else { return "not a JSON Web Token" }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData),
            let key = try? P256.Signing.PublicKey(rawRepresentation: publicKey),
            key.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8))
        else { return "the signature is not the key's" }
        guard header["alg"] as? String == "ES256", header["kid"] as? String == keyID, header["typ"] as? String == "JWT" else {
            return "header \(header)"
        }
        guard claims["iss"] as? String == issuerID, claims["aud"] as? String == "appstoreconnect-v1",
            let issued = claims["iat"] as? Int, let expires = claims["exp"] as? Int
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

    /// Answers each request once its head and body have come.
    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let answer: @Sendable (HTTPRequestHead) -> (HTTPResponseStatus, [(String, String)], [UInt8])
        var head: HTTPRequestHead?

        init(answer: @escaping @Sendable (HTTPRequestHead) -> (HTTPResponseStatus, [(String, String)], [UInt8])) {
            self.answer = answer
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): self.head = head
            case .body: break
            case .end:
                guard let head else { return }
                let (status, fields, body) = answer(head)
                var headers = HTTPHeaders(fields)
                headers.add(name: "Content-Length", value: String(body.count))
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}
