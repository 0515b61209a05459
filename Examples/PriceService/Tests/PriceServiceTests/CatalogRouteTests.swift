import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PriceService
import StorePrice
import Synchronization
import Testing

/// The served catalog over real HTTP: `CATALOG` loaded at start, its products' rows and
/// paywalls, `/v1/catalog`, `/ready`, `/metrics`, the access log, and reloads under load.
extension PriceServiceTests {
    /// The sample catalog served, and ready before `test` runs.
    func withCatalog<Value: Sendable>(
        _ catalog: CatalogConfiguration = CatalogConfiguration(path: Self.repository.appendingPathComponent("Data/catalog-sample.jsonl").path),
        metrics: ServiceMetrics = ServiceMetrics(), logger: Logger? = nil,
        _ test: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        var configuration = ServiceConfiguration()
        configuration.port = 0
        configuration.catalog = catalog
        return try await PriceService.application(configuration: configuration, logger: logger, metrics: metrics).test(.live) { client in
            try await Self.waitUntilReady(client)
            return try await test(client)
        }
    }

    static func waitUntilReady(_ client: any TestClientProtocol) async throws {
        for _ in 0..<200 {
            let status = try await client.execute(uri: "/ready", method: .get) { $0.status }
            if status == .ok { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("the catalog did not load in 4 s")
    }

    /// The reviewed rows of `storeprice render Data/catalog-sample.jsonl --storefronts
    /// USA,JPN,DEU,SAU,CHE,IND,BRA,CAN,TWN`, one storefront's, in catalog order.
    static func reviewedRows(in storefront: String) throws -> [String] {
        String(decoding: try file("Tests/Fixtures/expected/catalog-sample.jsonl.jsonl"), as: UTF8.self)
            .split(separator: "\n").map(String.init).filter { $0.contains(#""storefront":"\#(storefront)""#) }
    }

    /// A product's row is the row `storeprice render` writes for it there, byte for byte.
    @Test(arguments: [("com.example.pro.yearly", "USA"), ("com.example.coins.100", "JPN"), ("com.example.pro.monthly", "SAU")])
    func aProductsRowIsTheRowRenderWrites(product: String, storefront: String) async throws {
        let expected = try #require(try Self.reviewedRows(in: storefront).first { $0.hasPrefix(#"{"product":"\#(product)","#) })
        try await withCatalog { client in
            try await client.execute(uri: "/v1/products/\(product)?storefront=\(storefront)", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(self.text(response.body) == expected + "\n")
            }
        }
    }

    /// Every product priced in a storefront, as a JSON array of the rows `render` writes; a
    /// product not sold there has no row.
    @Test func everyProductPricedInAStorefront() async throws {
        try await withCatalog { client in
            for storefront in ["JPN", "USA"] {
                let expected = "[\n" + (try Self.reviewedRows(in: storefront)).joined(separator: ",\n") + "\n]\n"
                try await client.execute(uri: "/v1/products?storefront=\(storefront)", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentLength] == "\(expected.utf8.count)")
                    #expect(self.text(response.body) == expected, "\(storefront)")
                }
            }
            // 173 of the 175 storefronts price the gift card: not Russia.
            try await client.execute(uri: "/v1/products?storefront=RUS", method: .get) { response in
                let rows = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [[String: Any]])
                #expect(rows.count == 30)
                #expect(!rows.contains { $0["product"] as? String == "com.example.gift.card" })
            }
        }
    }

    /// Another store language, a test account, and the App Store style, as `/v1/price` takes them.
    @Test(arguments: [
        ("/v1/products/com.example.pro.yearly?storefront=CAN&language=fr", "fr_CA@currency=CAD", "59,00\u{00A0}$", "Pro annuel"),
        ("/v1/products/com.example.pro.yearly?account=can-fr", "fr_CA@currency=CAD", "59,00\u{00A0}$", "Pro annuel"),
        ("/v1/products/com.example.coins.100?storefront=JPN&style=app-store", "ja_JP@currency=JPY", "¥160", "100コイン"),
    ])
    func aProductInALanguageAnAccountOrAStyle(uri: String, locale: String, formatted: String, title: String) async throws {
        try await withCatalog { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .ok, "\(uri): \(self.text(response.body))")
                let row = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(row["price_locale"] as? String == locale)
                #expect(row["formatted"] as? String == formatted)
                #expect(row["title"] as? String == title)
            }
        }
    }

    /// A product the catalog lacks, or one not sold in the storefront, is a 404 naming it (and
    /// the storefront); a bad value is a 400, an unknown parameter too.
    @Test func unknownProductsAre404sThatNameThem() async throws {
        let cases: [(String, HTTPResponse.Status, String)] = [
            ("/v1/products/com.example.nope?storefront=USA", .notFound,
             "unknown product 'com.example.nope'; the catalog has no product with that ID"),
            ("/v1/products/com.example.gift.card?storefront=RUS", .notFound,
             "product 'com.example.gift.card' has no price in RUS; it is not sold there"),
            ("/v1/products/com.example.nope/paywall?storefront=USA", .notFound,
             "unknown product 'com.example.nope'; the catalog has no product with that ID"),
            ("/v1/products/com.example.starter.bundle/paywall?storefront=CHN", .notFound,
             "product 'com.example.starter.bundle' has no paywall: it is not an auto-renewable subscription (it has no period)"),
            ("/v1/products/com.example.pro.yearly/paywall?storefront=USA&compare=com.example.gone", .badRequest,
             "compare=: unknown product 'com.example.gone'; the catalog has no product with that ID"),
            ("/v1/products/com.example.pro.yearly/paywall?storefront=USA&compare=com.example.coins.100", .badRequest,
             "paywall of 'com.example.pro.yearly': 'com.example.coins.100' is not a subscription (it has no period); savings are stated against one"),
            ("/v1/products/com.example.pro.yearly?storefront=XYZ", .badRequest, "unknown storefront 'XYZ'; did you mean XKS, BLZ, CYM?"),
            ("/v1/products/com.example.pro.yearly", .badRequest, "missing storefront or account: storefront=JPN or account=jpn"),
            ("/v1/products?storefront=USA&account=usa", .badRequest, "give only one of storefront= and account="),
            ("/v1/products?account=jpn&language=en", .badRequest, "language= goes with storefront="),
            ("/v1/products?storefront=USA&amount=1", .badRequest,
             "unknown parameter 'amount'; /v1/products takes storefront, language, account, style, rounding"),
            ("/v1/products/com.example.pro.yearly/paywall?storefront=USA&name=price", .badRequest,
             "built-in template 'price' (en_US): no such template; price is an argument, whose value ('$39.99' here) is among the paywall's values; a template shows it as {price}"),
        ]
        try await withCatalog { client in
            for (uri, status, message) in cases {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == status, "\(uri)")
                    let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: String]
                    #expect(object == ["error": message], "\(uri)")
                }
            }
            try await client.execute(uri: "/v1/products/com.example.pro.yearly", method: .post) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET, HEAD")
            }
        }
    }

    /// A subscription's paywall from the catalog: its price, period and introductory offer in
    /// the storefront, savings against another product, the built-in lines.
    @Test func aSubscriptionsPaywallFromTheCatalog() async throws {
        try await withCatalog { client in
            try await client.execute(
                uri: "/v1/products/com.example.pro.yearly/paywall?storefront=USA&compare=com.example.pro.weekly&offer_start=2026-12-07",
                method: .get
            ) { response in
                #expect(response.status == .ok, "\(self.text(response.body))")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(object["product"] as? String == "com.example.pro.yearly")
                #expect(object["compare"] as? String == "com.example.pro.weekly")
                #expect(object["price_locale"] as? String == "en_US@currency=USD")
                let lines = try #require(object["lines"] as? [String: String])
                #expect(lines["offer_then_price"] == "1 week free, then $39.99 per year")
                #expect(lines["save"] == "Save 61%")
                #expect(lines["billed_amount_first"] == "$39.99 per year ($3.33 per month)")
                let arguments = try #require(object["arguments"] as? [String: String])
                #expect(arguments["trial_end_date"] == "Dec 14, 2026")
                #expect(arguments["compare_price_per_period"] == "$1.99 per week")
            }
            // The monthly plan's offer is priced in USA and not in BRA, so BRA shows none.
            try await client.execute(uri: "/v1/products/com.example.pro.monthly/paywall?storefront=BRA", method: .get) { response in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect((object["missing"] as? [String: String])?["offer"] == "there is no offer")
                #expect((object["lines"] as? [String: String])?["price_per_period"] == "R$\u{00A0}29,00 por mês")
            }
        }
    }

    /// The app's templates and offer wording, from `TEMPLATES` and `OFFER_WORDING`, over the
    /// built-in ones; templates that fail the check stop the service at start, in one line.
    @Test func theAppsTemplatesAndOfferWording() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("price-service-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let templates = folder.appendingPathComponent("templates.json")
        try Data(#"{"en": {"headline": "Try {offer_duration} free, then {price_per_period}"}}"#.utf8).write(to: templates)
        let wording = folder.appendingPathComponent("offer-wording.json")
        try Data(#"{"freeTrial": "{duration} on us", "payAsYouGo": "{price_per_period} for {duration}", "payUpFront": "{price} for {duration}"}"#.utf8)
            .write(to: wording)
        var catalog = CatalogConfiguration(path: Self.repository.appendingPathComponent("Data/catalog-sample.jsonl").path)
        catalog.templates = templates.path
        catalog.offerWording = wording.path
        try await withCatalog(catalog) { client in
            try await client.execute(uri: "/v1/products/com.example.pro.yearly/paywall?storefront=USA", method: .get) { response in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                let lines = try #require(object["lines"] as? [String: String])
                #expect(lines["headline"] == "Try 1 week free, then $39.99 per year")
                #expect(lines["offer"] == "1 week on us")
                #expect(lines["period"] == "1 year")
            }
            try await client.execute(uri: "/v1/catalog", method: .get) { response in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(object["templates"] as? String == templates.path)
                #expect(object["offer_wording"] as? String == wording.path)
            }
        }
        // A template that quotes an argument passes no check.
        try Data(#"{"en": {"headline": "'{price}' today"}}"#.utf8).write(to: templates)
        var configuration = ServiceConfiguration()
        configuration.port = 0
        configuration.catalog = catalog
        let failure = await PriceService.serve(configuration, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let line = try #require(failure)
        #expect(line.hasPrefix("TEMPLATES: template 'headline' in '\(templates.path)' (en"), "\(line)")
        #expect(!line.contains("\n"))
    }

    /// What a deployment asks of the catalog: where it came from and when it was loaded, and the
    /// ICU the strings come from.
    @Test func theCatalogRoute() async throws {
        try await withCatalog { client in
            try await client.execute(uri: "/v1/catalog", method: .get) { response in
                #expect(response.status == .ok)
                let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(object["catalog"] as? String == Self.repository.appendingPathComponent("Data/catalog-sample.jsonl").path)
                #expect(object["format"] as? String == "jsonl")
                #expect(object["products"] as? Int == 31)
                #expect(object["subscriptions"] as? Int == 3)
                #expect(object["icu"] as? String == VersionInfo.icu)
                #expect(object["cldr"] as? String == VersionInfo.cldr)
                #expect(object["prices_in_effect_on"] is NSNull)
                let loaded = try #require(object["loaded_at"] as? String)
                let date = try #require(try? Date(loaded, strategy: .iso8601))
                #expect(abs(date.timeIntervalSinceNow) < 60)
            }
        }
    }

    /// App Store Connect responses are a catalog too: the day their prices are in effect is the
    /// day the catalog was loaded.
    @Test func aFolderOfAppStoreConnectResponses() async throws {
        let folder = Self.repository.appendingPathComponent("Tests/Fixtures/app-store-connect").path
        try await withCatalog(CatalogConfiguration(path: folder)) { client in
            try await client.execute(uri: "/v1/catalog", method: .get) { response in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(object["format"] as? String == "asc")
                #expect(object["prices_in_effect_on"] as? String == Date().formatted(.iso8601.year().month().day()))
                #expect((object["products"] as? Int ?? 0) > 0)
            }
        }
    }

    /// A Google Play catalog (`CATALOG_FORMAT=play`): storefront= is a Play region and account=
    /// a Play tester, the rows are those `storeprice render --catalog-format play` writes, in
    /// the Play style unless style=icu; the App Store style is refused.
    @Test func aGooglePlayCatalog() async throws {
        let folder = Self.repository.appendingPathComponent("Tests/Fixtures/google-play").path
        try await withCatalog(CatalogConfiguration(path: folder, format: .play)) { client in
            try await client.execute(uri: "/v1/products/coins_100?storefront=UA", method: .get) { response in
                #expect(response.status == .ok)
                #expect(self.text(response.body) == #"{"product":"coins_100","storefront":"UA","account":null,"price_locale":"uk_UA@currency=UAH","amount":"44.99","formatted":"44,99\#u{00A0}грн","title":"100 Coins","period":null,"price_per_period":null,"offer":null,"offer_terms":null,"offers":null,"billing_plans":null,"paywall":null}"# + "\n")
            }
            try await client.execute(uri: "/v1/products/coins_100?account=play-ru-en", method: .get) { response in
                #expect(response.status == .ok)
                #expect(self.text(response.body).contains(#""storefront":"RU","account":"play-ru-en","price_locale":"en_RU@currency=RUB","amount":"109","formatted":"RUB\#u{00A0}109.00""#))
            }
            try await client.execute(uri: "/v1/products/premium:monthly/paywall?storefront=DE", method: .get) { response in
                #expect(response.status == .ok)
                #expect(self.text(response.body).contains(#""offer":"1 Woche gratis""#))
            }
            try await client.execute(uri: "/v1/products/coins_100?storefront=UA&style=icu", method: .get) { response in
                #expect(self.text(response.body).contains(#""formatted":"44,99\#u{00A0}\#u{20B4}""#))
            }
            try await client.execute(uri: "/v1/products/coins_100?storefront=JPN", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(self.text(response.body) == #"{"error":"unknown Google Play region 'JPN'; did you mean JP?"}"# + "\n")
            }
            try await client.execute(uri: "/v1/products/coins_100?storefront=US&style=app-store", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(self.text(response.body) == #"{"error":"style=app-store writes the App Store's prices; this catalog is Google Play's: use play or icu"}"# + "\n")
            }
        }
    }

    /// `/ready` is 503 until a catalog is loaded, and without `CATALOG`; product routes say why.
    @Test func readyOnlyWithACatalog() async throws {
        try await withLiveService { client in
            try await client.execute(uri: "/ready", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(self.text(response.body) == "not ready: no catalog: CATALOG is not set\n")
            }
            try await client.execute(uri: "/v1/products?storefront=USA", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(self.text(response.body) == #"{"error":"this service serves no catalog; start it with CATALOG=PATH"}"# + "\n")
            }
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
        try await withCatalog { client in
            try await client.execute(uri: "/ready", method: .get) { response in
                #expect(response.status == .ok)
                #expect(self.text(response.body) == "ready\n")
            }
        }
    }

    /// A bad catalog at start stops the service with one line naming the file.
    @Test func aBadCatalogAtStartIsOneLine() async throws {
        var configuration = ServiceConfiguration()
        configuration.port = 0
        configuration.catalog = CatalogConfiguration(path: "/nonexistent/catalog.jsonl")
        let failure = await PriceService.serve(configuration, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        #expect(failure == "cannot read '/nonexistent/catalog.jsonl': No such file or directory")
    }

    /// `/metrics`: requests by route (the route's pattern, not each product) and status, their
    /// durations, the catalog's products, and the versions, in Prometheus's text format.
    @Test func metricsInPrometheusTextFormat() async throws {
        try await withCatalog { client in
            for uri in [
                "/v1/products/com.example.pro.yearly?storefront=USA", "/v1/products/com.example.coins.100?storefront=USA",
                "/v1/products/com.example.nope?storefront=USA", "/no/such/route",
            ] {
                _ = try await client.execute(uri: uri, method: .get) { $0.status }
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
                let lines = Set(self.text(response.body).split(separator: "\n").map(String.init))
                for expected in [
                    #"http_requests_total{method="GET",route="/v1/products/{productID}",status="200"} 2"#,
                    #"http_requests_total{method="GET",route="/v1/products/{productID}",status="404"} 1"#,
                    #"http_requests_total{method="GET",route="NotFound",status="404"} 1"#,
                    #"http_request_duration_seconds_count{method="GET",route="/v1/products/{productID}"} 3"#,
                    "storeprice_catalog_products 31.0", "storeprice_renders_in_flight 0.0",
                    #"storeprice_catalog_loads_total{result="loaded"} 1"#,
                    #"storeprice_info{version="\#(VersionInfo.current)",icu="\#(VersionInfo.icu)",cldr="\#(VersionInfo.cldr)"} 1.0"#,
                    "# TYPE http_request_duration_seconds histogram",
                ] {
                    #expect(lines.contains(expected), "\(expected)")
                }
                #expect(lines.contains { $0.hasPrefix("storeprice_catalog_age_seconds ") })
            }
        }
    }

    /// One access-log line per request at info, with method, path, status and duration, as text
    /// or as JSON.
    @Test(arguments: ServiceConfiguration.LogFormat.allCases)
    func oneAccessLogLinePerRequest(format: ServiceConfiguration.LogFormat) async throws {
        let lines = Mutex<[String]>([])
        let logger = Logger(label: "PriceService") { label in
            ServiceLogHandler(label: label, level: .info, format: format) { line in lines.withLock { $0.append(line) } }
        }
        try await withCatalog(logger: logger) { client in
            _ = try await client.execute(uri: "/v1/products/com.example.gift.card?storefront=RUS", method: .get) { $0.status }
        }
        let access = lines.withLock { $0 }.filter { $0.contains("/v1/products/com.example.gift.card") }
        #expect(access.count == 1, "\(access)")
        let line = try #require(access.first)
        #expect(line.hasSuffix("\n"))
        switch format {
        case .text:
            #expect(line.contains(" info request "))
            #expect(line.contains(" method=GET "))
            #expect(line.contains(" path=/v1/products/com.example.gift.card "))
            #expect(line.contains(" query=storefront=RUS "))
            #expect(line.contains(" status=404"))
            #expect(line.contains(" duration_ms="))
        case .json:
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["level"] as? String == "info")
            #expect(object["message"] as? String == "request")
            #expect(object["method"] as? String == "GET")
            #expect(object["path"] as? String == "/v1/products/com.example.gift.card")
            #expect(object["status"] as? Int == 404)
            #expect(object["duration_ms"] is String)
        }
    }

    /// Reloads while requests run: every answer is 200 and wholly one catalog's or the other's,
    /// never a mix of the two, and a bad catalog keeps the one served.
    @Test func reloadsUnderLoadLoseNoRequestAndNeverMixCatalogs() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("price-service-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("catalog.jsonl")
        let sample = String(decoding: try Self.file("Data/catalog-sample.jsonl"), as: UTF8.self)
        // The second catalog: the same products under other IDs, so that its rows differ in every line.
        let renamed = sample.replacingOccurrences(of: #""product":"com.example."#, with: #""product":"org.example."#)
        let rowsA = "[\n" + (try Self.reviewedRows(in: "USA")).joined(separator: ",\n") + "\n]\n"
        let rowsB = rowsA.replacingOccurrences(of: #""product":"com.example."#, with: #""product":"org.example."#)
        @Sendable func install(_ text: String) throws {
            // As a deployment should: written beside it, then renamed over it.
            let next = folder.appendingPathComponent("next.jsonl")
            try Data(text.utf8).write(to: next)
            guard rename(next.path, path.path) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        }
        try install(sample)
        let metrics = ServiceMetrics()
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let store = CatalogStore(configuration: CatalogConfiguration(path: path.path), logger: logger, metrics: metrics)
        var configuration = ServiceConfiguration()
        configuration.port = 0
        configuration.catalog = store.configuration
        let seen = try await PriceService.application(configuration: configuration, logger: logger, metrics: metrics, catalogs: store)
            .test(.live) { client in
                try await Self.waitUntilReady(client)
                return try await withThrowingTaskGroup(of: [String: Int].self) { group in
                    let reloads = Finished()
                    group.addTask {
                        defer { reloads.finish() }
                        for round in 0..<20 {
                            try install(round % 2 == 0 ? renamed : sample)
                            try await store.reload()
                            try await Task.sleep(for: .milliseconds(25))
                        }
                        // A bad catalog keeps the one served.
                        try install("{\"product\":\"broken\"\n")
                        await #expect(throws: (any Error).self) { try await store.reload() }
                        return [:]
                    }
                    for _ in 0..<3 {
                        group.addTask {
                            var seen: [String: Int] = [:]
                            while !reloads.isFinished {
                                try await client.execute(uri: "/v1/products?storefront=USA", method: .get) { response in
                                    #expect(response.status == .ok)
                                    let body = self.text(response.body)
                                    let which = body == rowsA ? "A" : body == rowsB ? "B" : "neither"
                                    #expect(which != "neither", "an answer from neither catalog: \(body.prefix(200))")
                                    seen[which, default: 0] += 1
                                }
                            }
                            return seen
                        }
                    }
                    var all: [String: Int] = [:]
                    for try await seen in group { all.merge(seen, uniquingKeysWith: +) }
                    // After the bad catalog, the last good one (the sample) is still served.
                    try await client.execute(uri: "/v1/products?storefront=USA", method: .get) { response in
                        #expect(self.text(response.body) == rowsA)
                    }
                    return all
                }
            }
        #expect((seen["A"] ?? 0) > 0 && (seen["B"] ?? 0) > 0, "\(seen)")
        #expect(seen["neither"] == nil)
        let exposition = String(decoding: metrics.registry.emitToBuffer(), as: UTF8.self)
        #expect(exposition.contains(#"storeprice_catalog_loads_total{result="loaded"} 21"#))
        #expect(exposition.contains(#"storeprice_catalog_loads_total{result="failed"} 1"#))
    }
}

/// Whether a task has finished, for the tasks beside it.
final class Finished: Sendable {
    private let flag = Atomic<Bool>(false)
    var isFinished: Bool { flag.load(ordering: .acquiring) }
    func finish() { flag.store(true, ordering: .releasing) }
}
