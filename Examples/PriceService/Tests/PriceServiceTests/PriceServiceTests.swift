import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Hummingbird
import HummingbirdTesting
import PriceService
import StorePrice
import Testing

/// The service over real HTTP: each test starts the application on a port of its own
/// (HummingbirdTesting's live mode) and sends requests to it.
@Suite struct PriceServiceTests {
    /// The StorePrice repository, which holds the sample catalog and its reviewed output.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func file(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: repository.appendingPathComponent(path)))
    }

    func withLiveService<Value: Sendable>(
        _ configuration: ServiceConfiguration = .init(), _ test: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        var configuration = configuration
        configuration.port = 0
        return try await PriceService.application(configuration: configuration).test(.live, test)
    }

    func text(_ buffer: ByteBuffer) -> String { String(buffer: buffer) }

    @Test func aPriceInAStorefront() async throws {
        try await withLiveService { client in
            try await client.execute(uri: "/v1/price?storefront=JPN&amount=1200", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                #expect(self.text(response.body) == #"{"account":null,"amount":"1200","currency":"JPY","formatted":"￥1,200","period":null,"price_locale":"ja_JP@currency=JPY","price_per_period":null,"storefront":"JPN","style":"icu"}"# + "\n")
            }
        }
    }

    @Test(arguments: [
        ("/v1/price?storefront=JPN&amount=800&style=app-store", "¥800", nil),
        ("/v1/price?account=can-fr&amount=9.99", "9,99\u{00A0}$", nil),
        ("/v1/price?storefront=CAN&language=fr&amount=9.99", "9,99\u{00A0}$", nil),
        ("/v1/price?locale=de_CH@currency%3DCHF&amount=1234.5", "CHF\u{00A0}1\u{2019}234.50", nil),
        ("/v1/price?storefront=JPN&amount=1200&period=P1M", "￥1,200", "￥1,200/月"),
        ("/v1/price?storefront=GHA&amount=4.99&style=app-store", "USD\u{00A0}4.99", nil),
        ("/v1/price?storefront=JPN&amount=1200.5&rounding=half-even", "￥1,200", nil),
    ] as [(String, String, String?)])
    func aPriceByEveryParameter(uri: String, formatted: String, perPeriod: String?) async throws {
        try await withLiveService { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .ok, "\(uri): \(self.text(response.body))")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(object["formatted"] as? String == formatted, "\(uri)")
                #expect(object["price_per_period"] as? String == perPeriod, "\(uri)")
            }
        }
    }

    /// A bad value is a 400 whose `error` is the library's own message, never a 500.
    @Test func aBadValueIsA400WithTheLibrarysMessage() async throws {
        let unknown = String(describing: #expect(throws: StorePriceError.self) { try Storefront("XYZ") }!)
        let tooPrecise = String(describing: #expect(throws: StorePriceError.self) {
            try PriceFormatter(locale: Storefront("JPN").priceLocale).format(amount: "1200.5")
        }!)
        let cases: [(String, String)] = [
            ("/v1/price?storefront=XYZ&amount=1", unknown),
            ("/v1/price?storefront=JPN&amount=1200.5", tooPrecise),
            ("/v1/price?storefront=JPN", "missing amount; give it as decimal text: amount=1200"),
            ("/v1/price?amount=1", "missing storefront, account or locale: storefront=JPN, account=jpn or locale=ja_JP@currency=JPY"),
            ("/v1/price?storefront=JPN&account=jpn&amount=1", "give only one of storefront=, account= and locale=; got storefront= and account="),
            ("/v1/price?storefront=JPN&amount=1&amount=2", "amount= is given twice; give it once"),
            ("/v1/price?storefront=&amount=1", "storefront= is empty"),
            ("/v1/price?storefront=JPN&amount=1200.5&rounding=up", "unknown rounding 'up'; use reject, half-even or half-up"),
            ("/v1/render?storefronts=", "storefronts= is empty"),
            ("/v1/price?storefront=JPN&amount=1&style=web", "unknown style 'web'; use icu or app-store"),
            ("/v1/price?storefront=JPN&amount=1&colour=red",
             "unknown parameter 'colour'; /v1/price takes storefront, language, account, locale, amount, period, style, rounding"),
            ("/v1/render?storefronts=USA,XYZ", unknown),
        ]
        try await withLiveService { client in
            for (uri, message) in cases {
                let method: HTTPRequest.Method = uri.hasPrefix("/v1/render") ? .post : .get
                try await client.execute(uri: uri, method: method, body: ByteBuffer()) { response in
                    #expect(response.status == .badRequest, "\(uri)")
                    let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: String]
                    #expect(object == ["error": message], "\(uri)")
                }
            }
        }
    }

    /// The rows of `POST /v1/render` are the reviewed output of `storeprice render` for the same
    /// catalog and storefronts, byte for byte.
    @Test func renderedRowsAreTheReviewedOutput() async throws {
        let catalog = try Self.file("Data/catalog-sample.jsonl")
        let expected = try Self.file("Tests/Fixtures/expected/catalog-sample.jsonl.jsonl")
        try await withLiveService { client in
            try await client.execute(
                uri: "/v1/render?storefronts=USA,JPN,DEU,SAU,CHE,IND,BRA,CAN,TWN", method: .post,
                body: ByteBuffer(bytes: catalog)
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/x-ndjson; charset=utf-8")
                #expect(Array(buffer: response.body) == expected)
            }
        }
    }

    /// The same bytes as the CLI reading the body on standard input, when the tests are told where
    /// the CLI is (`STOREPRICE`, as `Scripts/check-price-service.sh` sets it).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["STOREPRICE"] != nil))
    func renderedRowsAreTheCLIsRows() async throws {
        let catalog = try Self.file("Data/catalog-sample.jsonl")
        let cli = Process()
        cli.executableURL = URL(fileURLWithPath: try #require(ProcessInfo.processInfo.environment["STOREPRICE"]))
        cli.arguments = ["render", "-", "--catalog-format", "jsonl", "--storefronts", "USA,JPN"]
        let input = Pipe()
        let output = Pipe()
        cli.standardInput = input
        cli.standardOutput = output
        try cli.run()
        try input.fileHandleForWriting.write(contentsOf: catalog)
        try input.fileHandleForWriting.close()
        let expected = try output.fileHandleForReading.readToEnd() ?? Data()
        cli.waitUntilExit()
        #expect(cli.terminationStatus == 0)
        try await withLiveService { client in
            try await client.execute(uri: "/v1/render?storefronts=USA,JPN", method: .post, body: ByteBuffer(bytes: catalog)) {
                #expect(Data(buffer: $0.body) == expected)
                #expect(expected.count > 1000)
            }
            // As `curl --data-binary @catalog.jsonl` sends it, with its default media type.
            try await client.execute(
                uri: "/v1/render?storefronts=USA,JPN", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(bytes: catalog)
            ) {
                #expect(Data(buffer: $0.body) == expected)
            }
        }
    }

    /// Storefronts named twice (`US`, `USA`, `143441`) are rendered once, as the CLI renders them.
    @Test func aStorefrontNamedTwiceIsRenderedOnce() async throws {
        let catalog = try Self.file("Data/catalog-sample.jsonl")
        try await withLiveService { client in
            let once = try await client.execute(uri: "/v1/render?storefronts=USA", method: .post, body: ByteBuffer(bytes: catalog)) {
                Array(buffer: $0.body)
            }
            try await client.execute(
                uri: "/v1/render?storefronts=US,USA,143441", method: .post, body: ByteBuffer(bytes: catalog)
            ) { response in
                #expect(Array(buffer: response.body) == once)
            }
            try await client.execute(uri: "/v1/render?storefronts=,,,", method: .post, body: ByteBuffer(bytes: catalog)) { response in
                #expect(response.status == .badRequest)
                #expect(self.text(response.body) == #"{"error":"storefronts= names no storefront"}"# + "\n")
            }
        }
    }

    @Test func aBadCatalogIsA400AndABodyPastTheLimitA413() async throws {
        try await withLiveService { client in
            try await client.execute(
                uri: "/v1/render?storefronts=USA", method: .post,
                body: ByteBuffer(string: #"{"product":"a","prices":{"USA":0.99}}"# + "\n")
            ) { response in
                #expect(response.status == .badRequest)
                #expect(self.text(response.body) == #"{"error":"catalog 'request body', line 1, field 'prices.USA': expected decimal text such as \"0.99\"; JSON numbers lose digits in most tools"}"# + "\n")
            }
            // A small catalog is answered whole: an error on its last line is a 400 too.
            let sample = try Self.file("Data/catalog-sample.jsonl")
            try await client.execute(
                uri: "/v1/render?storefronts=USA", method: .post,
                body: ByteBuffer(bytes: sample + Array(#"{"product":"z","prices":{"USA":"1.2.3"}}"#.utf8))
            ) { response in
                #expect(response.status == .badRequest)
                #expect(self.text(response.body).hasPrefix(#"{"error":"catalog 'request body', line 32, field 'prices.USA'"#))
            }
            let large = ByteBuffer(repeating: UInt8(ascii: " "), count: PriceService.bodyLimit + 1)
            try await client.execute(uri: "/v1/render?storefronts=USA", method: .post, body: large) { response in
                #expect(response.status == .contentTooLarge)
                #expect(self.text(response.body) == #"{"error":"the catalog is larger than 8 MiB; render a larger one with the storeprice CLI"}"# + "\n")
            }
            try await client.execute(
                uri: "/v1/render?storefronts=USA", method: .post, headers: [.contentType: "application/xml"], body: ByteBuffer()
            ) { response in
                #expect(response.status == .unsupportedMediaType)
                #expect(self.text(response.body) == #"{"error":"a catalog is JSON Lines (application/x-ndjson) or CSV (text/csv), not application/xml"}"# + "\n")
            }
            try await client.execute(uri: "/v1/render?storefronts=USA", method: .get) { response in
                #expect(response.status == .methodNotAllowed)
            }
        }
    }

    @Test func theStorefrontTable() async throws {
        try await withLiveService { client in
            try await client.execute(uri: "/v1/storefronts", method: .get) { response in
                #expect(response.status == .ok)
                let table = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [NSDictionary])
                #expect(table.count == 175)
                #expect(table.contains([
                    "alpha2": "JP", "alpha3": "JPN", "storefront_id": 143462, "name": "Japan", "currency": "JPY",
                    "languages": ["ja", "en-US"], "price_locale": "ja_JP@currency=JPY",
                ] as NSDictionary))
            }
        }
    }

    /// Clients that hang up in the middle of a streamed render: the rendering stops, and the
    /// server goes on answering.
    @Test func clientsThatHangUpMidStreamLeaveTheServerServing() async throws {
        // About 2 MiB of catalog: the sample's lines under new product IDs, for every storefront.
        let lines = try String(decoding: Self.file("Data/catalog-sample.jsonl"), as: UTF8.self).split(separator: "\n")
        var catalog = ""
        for copy in 0..<40 {
            for line in lines { catalog += line.replacingOccurrences(of: #""product":"com.example."#, with: #""product":"copy\#(copy)."#) + "\n" }
        }
        let body = Array(catalog.utf8)
        try await withLiveService { client in
            let port = try #require(client.port)
            for _ in 0..<6 {
                try await Self.blocking { try Self.postAndHangUp(body, path: "/v1/render?storefronts=all", port: port, reading: 64 << 10) }
            }
            try await client.execute(uri: "/v1/price?storefront=JPN&amount=1200", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
    }

    /// Sends a POST over a socket of its own, reads `reading` bytes of the answer and closes.
    static func postAndHangUp(_ body: [UInt8], path: String, port: Int, reading: Int) throws {
        let socket = try Self.connect(port: port)
        defer { close(socket) }
        try Self.send(Array("POST \(path) HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body, on: socket)
        var buffer = [UInt8](repeating: 0, count: 4096)
        var received = 0
        while received < reading {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += count
        }
        #expect(received >= reading)
    }

    /// A socket connected to the service on 127.0.0.1.
    static func connect(port: Int, receiveBuffer: Int32? = nil) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(socket >= 0)
        if var size = receiveBuffer {
            setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        return socket
    }

    /// Sends every byte, or fails.
    static func send(_ request: [UInt8], on socket: Int32) throws {
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            try #require(count > 0)
            sent += count
        }
    }

    /// Runs blocking socket calls on a thread of their own: on Swift's cooperative pool (two
    /// threads here) they would stall the servers under test, whose handlers run there.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Everything the server sends until it closes the connection, or for `seconds`.
    static func readToClose(_ socket: Int32, seconds: Int = 10) -> [UInt8] {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[..<count]
        }
        return received
    }
}
