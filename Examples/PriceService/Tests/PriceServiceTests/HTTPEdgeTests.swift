import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Hummingbird
import HummingbirdTesting
import Logging
import PriceService
import Testing

/// HTTP as RFC 9110 and 9112 ask of a server, over a raw socket: `Expect: 100-continue`
/// answered, one `Host`, no transfer coding but chunked, a head's deadline, a body's charset.
extension PriceServiceTests {
    /// The request's bytes sent, and everything answered until the server closes or `seconds` pass.
    func exchange(_ request: String, configuration: ServiceConfiguration = .init(), seconds: Int = 5) async throws -> String {
        try await withLiveService(configuration) { client in
            let socket = try Self.connect(port: try #require(client.port))
            defer { close(socket) }
            try Self.send(Array(request.utf8), on: socket)
            return String(decoding: try await Self.blocking { Self.readToClose(socket, seconds: seconds) }, as: UTF8.self)
        }
    }

    /// curl sends `Expect: 100-continue` with a body over 1 MiB and waits a second for the answer
    /// before it sends the body: the service answers at once.
    @Test func expectContinueIsAnsweredBeforeTheBody() async throws {
        let body = #"{"product":"a","prices":{"USA":"1"}}"# + "\n"
        try await withLiveService { client in
            let socket = try Self.connect(port: try #require(client.port))
            defer { close(socket) }
            try Self.send(
                Array("POST /v1/render?storefronts=USA HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\n\r\n".utf8),
                on: socket)
            let interim = String(decoding: try await Self.blocking { Self.readToClose(socket, seconds: 1) }, as: UTF8.self)
            #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n", "\(interim)")
            try Self.send(Array(body.utf8), on: socket)
            let answer = String(decoding: try await Self.blocking { Self.readToClose(socket, seconds: 2) }, as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(answer)")
            #expect(answer.contains(#""formatted":"$1.00""#))
        }
    }

    /// What a server must refuse in a head is refused there, in JSON, and the connection closed.
    @Test(arguments: [
        ("GET /health HTTP/1.1\r\n\r\n", "400 Bad Request", "an HTTP/1.1 request names its Host"),
        ("GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "400 Bad Request", "a request names one Host, not 2"),
        ("POST /v1/render?storefronts=USA HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
         "501 Not Implemented", "transfer coding 'gzip' is not read here; send the body as it is, or chunked"),
        ("POST /v1/render?storefronts=USA HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nExpect: 200-ok\r\n\r\n",
         "417 Expectation Failed", "Expect: '200-ok' is not met here; only 100-continue is"),
        ("POST /v1/render?storefronts=USA HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\nExpect: 100-continue\r\n\r\n",
         "413 Payload Too Large", "the catalog is larger than 8 MiB; render a larger one with the storeprice CLI"),
    ])
    func aHeadAServerMustRefuseIsRefused(_ request: String, _ status: String, _ message: String) async throws {
        let answer = try await exchange(request)
        #expect(answer.hasPrefix("HTTP/1.1 \(status)\r\n"), "\(answer)")
        #expect(answer.lowercased().contains("connection: close"))
        #expect(answer.hasSuffix(#"{"error":"\#(message)"}"# + "\n"), "\(answer)")
    }

    /// A head that trickles in is cut off after HEAD_TIMEOUT, as a body is after BODY_TIMEOUT.
    @Test func aHeadThatTricklesInIsA408() async throws {
        var configuration = ServiceConfiguration()
        configuration.headTimeout = .seconds(1)
        let answer = try await exchange("GET /health HTTP/1.1\r\nHo", configuration: configuration)
        #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(answer)")
        #expect(answer.hasSuffix(#"{"error":"the request's head took longer than 1 s to arrive; send it at once"}"# + "\n"))
    }

    /// A catalog in another charset than UTF-8 is a 415, not read as UTF-8.
    @Test func aBodyInAnotherCharsetIsA415() async throws {
        let body = #"{"product":"a","prices":{"USA":"1"}}"#
        let answer = try await exchange(
            "POST /v1/render?storefronts=USA HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson; charset=ISO-8859-1\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
        #expect(answer.hasPrefix("HTTP/1.1 415 Unsupported Media Type\r\n"), "\(answer)")
        #expect(answer.hasSuffix(#"{"error":"a catalog is UTF-8; charset 'iso-8859-1' is not read here: send it as UTF-8"}"# + "\n"))
    }

    /// Every route, /health and /ready among them, refuses a parameter it does not take.
    @Test(arguments: ["/health?verbose=1", "/ready?x=1", "/metrics?format=json", "/v1/catalog?all=1"])
    func unknownParametersAreRefusedEverywhere(_ uri: String) async throws {
        try await withLiveService { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .badRequest, "\(uri)")
                #expect(self.text(response.body).hasPrefix(#"{"error":"unknown parameter '"#), "\(uri)")
            }
        }
    }
}

extension PriceServiceTests {
    /// A HOST this machine cannot listen on is said in words, never as a Swift error value.
    @Test(arguments: ["999.1.1.1", "no-such-host.invalid"])
    func aHostThatDoesNotParseIsSaidInWords(_ host: String) async throws {
        var configuration = ServiceConfiguration()
        configuration.host = host
        configuration.port = 0
        let failure = try #require(await PriceService.serve(configuration, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })))
        #expect(
            failure == "HOST '\(host)' is no address this machine has or a name it can resolve; give one such as 127.0.0.1 or 0.0.0.0",
            "\(failure)")
    }
}
