import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Hummingbird
import HummingbirdTesting
import PriceService
import StorePrice
import Testing

/// What a deployment relies on, over real HTTP: the health route, methods, HTTP/1.0, timeouts,
/// the limit on renders at once, and clients that stop reading.
extension PriceServiceTests {
    @Test func theHealthRouteAndAWrongMethod() async throws {
        try await withLiveService { client in
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
                #expect(self.text(response.body) == "ok\n")
            }
            for (uri, method, allow) in [
                ("/health", HTTPRequest.Method.post, "GET, HEAD"), ("/v1/render", .get, "POST"), ("/v1/render", .put, "POST"),
                ("/v1/price", .delete, "GET, HEAD"), ("/v1/paywall", .post, "GET, HEAD"),
            ] {
                try await client.execute(uri: uri, method: method) { response in
                    #expect(response.status == .methodNotAllowed, "\(method) \(uri)")
                    #expect(response.headers[.allow] == allow, "\(method) \(uri)")
                }
            }
        }
    }

    /// `HEAD` answers every `GET` with its status and fields, and no body.
    @Test(arguments: ["/health", "/v1/price?storefront=JPN&amount=1200", "/v1/storefronts", "/v1/paywall?storefront=USA&price=59.99&period=P1Y"])
    func headAnswersEveryGet(uri: String) async throws {
        try await withLiveService { client in
            let length = try await client.execute(uri: uri, method: .get) { $0.headers[.contentLength] }
            try await client.execute(uri: uri, method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.contentLength] == length)
            }
        }
    }

    /// A render posted over HTTP/1.0 for nine storefronts: the answer's head and its body, read
    /// to the connection's close.
    func renderOverHTTP10(_ catalog: [UInt8]) async throws -> (head: String, body: [UInt8]) {
        try await withLiveService { client in
            let socket = try Self.connect(port: try #require(client.port))
            defer { close(socket) }
            try await Self.blocking {
                try Self.send(
                    Array("POST /v1/render?storefronts=USA,JPN,DEU,SAU,CHE,IND,BRA,CAN,TWN HTTP/1.0\r\nContent-Length: \(catalog.count)\r\n\r\n".utf8)
                        + catalog, on: socket)
            }
            let answer = try await Self.blocking { Self.readToClose(socket) }
            let end = try #require(answer.indices.first { Array(answer[$0...].prefix(4)) == Array("\r\n\r\n".utf8) })
            return (String(decoding: answer[..<end], as: UTF8.self), Array(answer[(end + 4)...]))
        }
    }

    /// An HTTP/1.0 client gets an HTTP/1.0 answer it can read: a render of more rows than are
    /// answered whole (the sample 40 times, 11,160 rows) is streamed without chunked encoding,
    /// to the connection's close.
    @Test func anHTTP10ClientReadsAStreamedRender() async throws {
        let fixture = try String(decoding: Self.file("Tests/Fixtures/expected/catalog-sample.jsonl.jsonl"), as: UTF8.self)
        let expected = (0..<40).map {
            fixture.replacingOccurrences(of: #""product":"com.example."#, with: #""product":"copy\#($0)."#)
        }.joined()
        let (head, body) = try await renderOverHTTP10(try Self.largeCatalog())
        #expect(head.hasPrefix("HTTP/1.0 200 OK\r\n"))
        #expect(!head.lowercased().contains("chunked") && !head.lowercased().contains("content-length"))
        #expect(String(decoding: body, as: UTF8.self) == expected)
    }

    /// A small render (the sample for nine storefronts, 279 rows) is answered whole, with its
    /// length, over HTTP/1.0 too.
    @Test func aSmallRenderIsAnsweredWholeWithItsLength() async throws {
        let expected = try Self.file("Tests/Fixtures/expected/catalog-sample.jsonl.jsonl")
        let (head, body) = try await renderOverHTTP10(try Self.file("Data/catalog-sample.jsonl"))
        #expect(head.hasPrefix("HTTP/1.0 200 OK\r\n"))
        #expect(head.lowercased().contains("content-length: \(expected.count)"))
        #expect(body == expected)
    }

    @Test func storefrontsTakeTheCLIsSpellingsAndNoUnknownParameter() async throws {
        let catalog = try Self.file("Data/catalog-sample.jsonl")
        try await withLiveService { client in
            try await client.execute(uri: "/v1/storefronts?storefront=JPN", method: .get) { response in
                let table = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [NSDictionary])
                #expect(table.map { $0["alpha3"] as? String } == ["JPN"])
            }
            try await client.execute(uri: "/v1/storefronts?country=JPN", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(self.text(response.body) == #"{"error":"unknown parameter 'country'; /v1/storefronts takes storefront"}"# + "\n")
            }
            let all = try await client.execute(uri: "/v1/render?storefronts=all", method: .post, body: ByteBuffer(bytes: catalog)) {
                Array(buffer: $0.body)
            }
            try await client.execute(uri: "/v1/render?storefronts=ALL", method: .post, body: ByteBuffer(bytes: catalog)) { response in
                #expect(response.status == .ok)
                #expect(Array(buffer: response.body) == all)
            }
        }
    }

    /// A body that is not a catalog says what a catalog is, in words: no Swift type name.
    @Test func aBodyThatIsNoCatalogIsRefusedInWords() async throws {
        let cases: [(String, HTTPFields, HTTPResponse.Status, String)] = [
            (#"[{"product":"a","prices":{"USA":"1"}}]"#, [:], .badRequest,
             "the body is a JSON array; a catalog is JSON Lines: one product object per line, no brackets or commas between them"),
            (#"{"product":"a","prices":{"USA":"1"},"title":"Hello"}"#, [:], .badRequest,
             #"catalog 'request body', line 1, field 'title': expected an object of language tags to text, such as {"en":"100 Coins"}; got a string"#),
            ("x", [.contentEncoding: "gzip"], .unsupportedMediaType,
             "a catalog is sent uncompressed; Content-Encoding 'gzip' is not read here"),
            ("x", [.contentEncoding: "br"], .unsupportedMediaType,
             "a catalog is sent uncompressed; Content-Encoding 'br' is not read here"),
        ]
        try await withLiveService { client in
            for (body, headers, status, message) in cases {
                try await client.execute(
                    uri: "/v1/render?storefronts=USA", method: .post, headers: headers, body: ByteBuffer(string: body)
                ) { response in
                    #expect(response.status == status, "\(body)")
                    let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: String]
                    #expect(object == ["error": message], "\(body)")
                }
            }
        }
    }

    /// The paywall route gives the values `storeprice paywall` gives.
    @Test func aPaywallsArgumentsAndLines() async throws {
        try await withLiveService { client in
            try await client.execute(
                uri: "/v1/paywall?storefront=USA&price=59.99&period=P1Y&compare=4.99:P1W&offer=free:P1W&offer_start=2026-11-27",
                method: .get
            ) { response in
                #expect(response.status == .ok, "\(self.text(response.body))")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                let lines = try #require(object["lines"] as? [String: String])
                #expect(lines["billed_amount_first"] == "$59.99 per year ($4.99 per month)")
                #expect(lines["offer_then_price"] == "1 week free, then $59.99 per year")
                #expect(lines["save"] == "Save 76%")
                let arguments = try #require(object["arguments"] as? [String: String])
                #expect(arguments["trial_end_date"] == "Dec 4, 2026")
                #expect(arguments["price_per_month"] == "$4.99 per month")
            }
            try await client.execute(
                uri: "/v1/paywall?storefront=JPN&price=9800&period=P1Y&style=app-store&name=billed_amount_first", method: .get
            ) { response in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(object["lines"] as? [String: String] == ["billed_amount_first": "¥9,800/年 (¥816/月)"])
            }
            try await client.execute(
                uri: "/v1/paywall?storefront=RUS&price=2990&period=P3M&template=%7Bperiod_count%2C%20plural%2C%20one%20%7B%23%20%D0%BC%D0%B5%D1%81%D1%8F%D1%86%7D%20few%20%7B%23%20%D0%BC%D0%B5%D1%81%D1%8F%D1%86%D0%B0%7D%20many%20%7B%23%20%D0%BC%D0%B5%D1%81%D1%8F%D1%86%D0%B5%D0%B2%7D%20other%20%7B%23%20%D0%BC%D0%B5%D1%81%D1%8F%D1%86%D0%B0%7D%7D",
                method: .get
            ) { response in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(object["lines"] as? [String: String] == ["template": "3 месяца"])
            }
        }
    }

    /// A body that stops arriving is a 408 after the body timeout.
    @Test func aBodyThatStopsArrivingIsA408() async throws {
        var configuration = ServiceConfiguration()
        configuration.bodyTimeout = .seconds(1)
        try await withLiveService(configuration) { client in
            let socket = try Self.connect(port: try #require(client.port))
            defer { close(socket) }
            try Self.send(Array("POST /v1/render?storefronts=USA HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{\"product\"".utf8), on: socket)
            let answer = String(decoding: try await Self.blocking { Self.readToClose(socket, seconds: 10) }, as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
            #expect(answer.hasSuffix(#"{"error":"the catalog took longer than 1 s to arrive; send it at once"}"# + "\n"))
        }
    }

    /// A render whose client stopped reading holds its thread until the write timeout; past the
    /// limit of renders at once the next is a 503 with Retry-After, and every other route answers.
    @Test func stalledClientsAreCutOffAndLeaveOtherRoutesAnswering() async throws {
        let body = try Self.largeCatalog()
        var configuration = ServiceConfiguration()
        configuration.maxRenders = 2
        configuration.writeTimeout = .seconds(2)
        try await withLiveService(configuration) { client in
            let port = try #require(client.port)
            // Two renders of about 40 MB of rows each, whose clients never read.
            var stalled: [Int32] = []
            for _ in 0..<2 {
                let socket = try Self.connect(port: port, receiveBuffer: 4096)
                try await Self.blocking {
                    try Self.send(
                        Array("POST /v1/render?storefronts=all HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body,
                        on: socket)
                }
                stalled.append(socket)
            }
            defer { for socket in stalled { close(socket) } }
            // Both renders under way, as /metrics tells.
            for _ in 0..<100 {
                let metrics = try await client.execute(uri: "/metrics", method: .get) { self.text($0.body) }
                if metrics.contains("\nstoreprice_renders_in_flight 2.0\n") { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            try await client.execute(uri: "/v1/render?storefronts=USA", method: .post, body: ByteBuffer(string: #"{"product":"a","prices":{"USA":"1"}}"#)) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "1")
            }
            for _ in 0..<20 {
                try await client.execute(uri: "/v1/price?storefront=JPN&amount=1200", method: .get) { response in
                    #expect(response.status == .ok)
                }
            }
            // After the write timeout the stalled connections are closed and their renders end.
            try await Task.sleep(for: .seconds(4))
            try await client.execute(uri: "/v1/render?storefronts=USA", method: .post, body: ByteBuffer(string: #"{"product":"a","prices":{"USA":"1"}}"#)) { response in
                #expect(response.status == .ok)
            }
        }
    }

    /// About 2 MiB of catalog: the sample's lines under new product IDs, 40 times.
    static func largeCatalog() throws -> [UInt8] {
        let lines = try String(decoding: Self.file("Data/catalog-sample.jsonl"), as: UTF8.self).split(separator: "\n")
        var catalog = ""
        for copy in 0..<40 {
            for line in lines { catalog += line.replacingOccurrences(of: #""product":"com.example."#, with: #""product":"copy\#(copy)."#) + "\n" }
        }
        return Array(catalog.utf8)
    }
}
