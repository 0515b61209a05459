import StandIns
import Crypto
import Foundation
import TestSupport
import Testing

/// `storeprice asc pull`, the real command, against a stand-in for App Store Connect on 127.0.0.1
/// that serves the recorded responses of Tests/Fixtures/app-store-connect and checks every token.
@Suite struct AppStoreConnectPullTests {
    static let keyID = "2X9R4HXF34"
    static let issuerID = "57246542-96fe-1a63-e053-0824d011072a"
    static let automaticPrices =
        "/v1/inAppPurchasePriceSchedules/6444000001/automaticPrices?include=inAppPurchasePricePoint,territory&limit=200"
    static let app = "/v1/apps/1500000000"

    /// Every request `pull` makes for the made-up app 1500000000, and its recorded response.
    static let routes: [String: String] = [
        app: "app.json",
        "/v1/apps/1500000000/inAppPurchasesV2?limit=200": "in-app-purchases.json",
        "/v1/inAppPurchasePriceSchedules/6444000001/manualPrices?include=inAppPurchasePricePoint,territory&limit=200":
            "coins-manual-prices.json",
        automaticPrices: "coins-automatic-prices-1.json",
        "/v1/inAppPurchasePriceSchedules/6444000001/automaticPrices?cursor=Ag.AA&include=inAppPurchasePricePoint%2Cterritory&limit=2":
            "coins-automatic-prices-2.json",
        "/v2/inAppPurchases/6444000001/inAppPurchaseLocalizations?limit=200": "EMPTY",
        "/v1/inAppPurchasePriceSchedules/6444000002/manualPrices?include=inAppPurchasePricePoint,territory&limit=200": "EMPTY",
        "/v1/inAppPurchasePriceSchedules/6444000002/automaticPrices?include=inAppPurchasePricePoint,territory&limit=200": "EMPTY",
        "/v2/inAppPurchases/6444000002/inAppPurchaseLocalizations?limit=200": "EMPTY",
        "/v1/apps/1500000000/subscriptionGroups?limit=200": "subscription-groups.json",
        "/v1/subscriptionGroups/20000000/subscriptions?limit=200": "subscriptions.json",
        "/v1/subscriptions/6444000010/prices?include=subscriptionPricePoint,territory&limit=200": "pro-prices.json",
        "/v1/subscriptions/6444000010/subscriptionLocalizations?limit=200": "pro-localizations.json",
        "/v1/subscriptions/6444000010/introductoryOffers?include=territory,subscriptionPricePoint&limit=200": "pro-introductory-offers.json",
        "/v1/subscriptions/6444000010/promotionalOffers?limit=200": "pro-promotional-offers.json",
        "/v1/subscriptions/6444000010/winBackOffers?limit=200": "pro-win-back-offers.json",
        "/v1/subscriptions/6444000010/offerCodes?limit=200": "pro-offer-codes.json",
        "/v1/subscriptionPromotionalOffers/6444000020/prices?include=territory,subscriptionPricePoint&limit=200":
            "pro-promotional-offer-prices.json",
        "/v1/winBackOffers/10700000001/prices?include=territory,subscriptionPricePoint&limit=200": "pro-win-back-offer-prices.json",
        "/v1/subscriptionOfferCodes/6444000030/prices?include=territory,subscriptionPricePoint&limit=200": "pro-offer-code-prices.json",
        "/v1/appPriceSchedules/1500000000/manualPrices?include=appPricePoint,territory&limit=200": "app-manual-prices.json",
        "/v1/appPriceSchedules/1500000000/automaticPrices?include=appPricePoint,territory&limit=200": "app-automatic-prices.json",
    ]

    /// A stand-in that answers `routes` only, checking tokens against `publicKey`.
    static func standIn(
        _ routes: [String: String] = routes, publicKey: P256.Signing.PublicKey, throttleOnce: Set<String> = [],
        retryAfter: String = "1", latency: Duration = .zero, hourlyLimit: Int? = nil, pageSize: Int? = nil
    ) throws -> StandInAppStoreConnect {
        var configuration = StandInAppStoreConnect.Configuration(folder: repositoryFile("Tests/Fixtures/app-store-connect").path)
        configuration.routes = routes
        configuration.publicKey = publicKey.rawRepresentation
        configuration.keyID = keyID
        configuration.issuerID = issuerID
        configuration.throttleOnce = throttleOnce
        configuration.latency = latency
        configuration.hourlyLimit = hourlyLimit
        configuration.retryAfter = retryAfter
        configuration.pageSize = pageSize
        configuration.unmatchedIsEmpty = false
        return try StandInAppStoreConnect(configuration)
    }

    /// A new key in a .p8 file, as App Store Connect gives one.
    static func key() throws -> (P256.Signing.PrivateKey, String) {
        let key = P256.Signing.PrivateKey()
        let file = try temporaryDirectory().appendingPathComponent("AuthKey_\(keyID).p8")
        try key.pemRepresentation.write(to: file, atomically: true, encoding: .utf8)
        return (key, file.path)
    }

    static func pull(_ server: StandInAppStoreConnect, key: String, _ more: [String]) throws -> ProcessOutput {
        try runStorePrice(
            ["asc", "pull", "--key-id", keyID, "--issuer-id", issuerID, "--private-key", key, "--app", "1500000000",
             "--base-url", server.baseURL] + more)
    }

    /// The catalog of the prices in effect on the day, every page followed, every token valid.
    @Test func pullWritesTheCatalogOfTheDay() throws {
        let (key, file) = try Self.key()
        let server = try Self.standIn(publicKey: key.publicKey)
        let run = try Self.pull(server, key: file, ["--date", "2026-11-28"])
        #expect(run.status == 0, "\(run.error)")
        expectBytes(
            run.output,
            #"{"product":"com.example.app","prices":{"DEU":"2.99","JPN":"500","USA":"2.99"}}"# + "\n"
                + #"{"product":"com.example.coins","prices":{"IDN":"16000","IND":"149","JPN":"150","USA":"0.99"}}"# + "\n"
                + #"{"product":"com.example.pro.monthly","prices":{"JPN":"800","USA":"4.99"},"title":{"en-US":"Pro","ja":"プロ"},"#
                + #""description":{"en-US":"Every feature","ja":"すべての機能"},"period":"P1M","#
                + #""introductory_offers":[{"payment_mode":"free","period":"P1W","storefronts":["JPN","USA"]},"#
                + #"{"payment_mode":"payAsYouGo","period":"P1M","period_count":3,"prices":{"DEU":"1.99"}}],"#
                + #""promotional_offers":[{"id":"pro_2m_upfront","payment_mode":"payUpFront","period":"P2M","prices":{"JPN":"1000","USA":"4.99"}}],"#
                + #""offer_codes":[{"id":"Newsletter 3 months","payment_mode":"payAsYouGo","period":"P1M","period_count":3,"prices":{"JPN":"400","USA":"2.99"}}],"#
                + #""win_back_offers":[{"id":"pro_winback_3m","payment_mode":"payAsYouGo","period":"P1M","period_count":3,"prices":{"USA":"1.99"}}]}"#
                + "\n")
        #expect(
            run.error.contains(
                "\nwrote 3 products (5 offers) with the prices in effect on 2026-11-28 (UTC), from \(Self.routes.count) requests, at most "),
            "\(run.error)")
        let requests = server.requests
        #expect(Set(requests.map(\.uri)) == Set(Self.routes.keys))
        #expect(requests.allSatisfy { $0.tokenProblem == nil }, "\(requests.compactMap(\.tokenProblem))")
        // The key never reaches the output.
        let secret = key.pemRepresentation.split(separator: "\n")[1]
        #expect(!run.output.contains(secret) && !run.error.contains(secret))
    }

    /// `--raw` keeps every response; rendered as they are, they give the catalog's prices.
    @Test func rawResponsesRenderAsTheCatalog() throws {
        let (key, file) = try Self.key()
        let server = try Self.standIn(publicKey: key.publicKey)
        let folder = try temporaryDirectory()
        let raw = folder.appendingPathComponent("responses").path
        let catalog = folder.appendingPathComponent("catalog.jsonl").path
        let run = try Self.pull(server, key: file, ["--date", "2026-11-28", "--raw", raw, "--output", catalog])
        #expect(run.status == 0, "\(run.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: raw).count == Self.routes.count)
        let fromRaw = try runStorePrice(["render", raw, "--storefronts", "all", "--date", "2026-11-28", "--format", "csv"])
        let fromCatalog = try runStorePrice(["render", catalog, "--storefronts", "all", "--format", "csv"])
        #expect(fromRaw.status == 0 && fromCatalog.status == 0)
        expectBytes(fromRaw.output, fromCatalog.output)
        // The header, the app's 3 prices, the coins' 4 (GBR's ended on 2026-09-01) and the subscription's 2.
        #expect(fromRaw.output.split(separator: "\n").count == 10)
    }

    /// A 429 is waited out for its Retry-After, then the request is made again.
    @Test func tooManyRequestsIsRetriedAfterRetryAfter() throws {
        let (key, file) = try Self.key()
        let server = try Self.standIn(publicKey: key.publicKey, throttleOnce: [Self.automaticPrices])
        let run = try Self.pull(server, key: file, ["--date", "2026-11-28"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.hasPrefix(
            "storeprice: note: App Store Connect asks to wait 1 s (429 for GET \(Self.automaticPrices)); retrying\n"), "\(run.error)")
        #expect(server.requests.filter { $0.uri == Self.automaticPrices }.count == 2)
    }

    /// Apple's error is one line with its code and detail, status 69, and no key.
    @Test func anErrorFromAppleIsItsCodeAndDetail() throws {
        let (key, file) = try Self.key()
        // The stand-in knows another key, so the token's signature is not the team's.
        let server = try Self.standIn(publicKey: P256.Signing.PrivateKey().publicKey)
        let run = try Self.pull(server, key: file, [])
        #expect(run.status == 69)
        expectBytes(run.output, "")
        expectBytes(
            run.error,
            "storeprice: App Store Connect answered 401 to GET /v1/apps/1500000000: NOT_AUTHORIZED: "
                + "Provide a properly configured and signed bearer token, and make sure that it has not expired.\n")
        #expect(!run.error.contains(key.pemRepresentation.split(separator: "\n")[1]))
    }

    /// What is not a key, an ID or a safe address is refused before anything is sent.
    @Test(arguments: [
        (["--key-id", "abc"], 64, "Error: --key-id 'abc' is not a key ID; it is 10 capital letters and digits, such as 2X9R4HXF34.\n"),
        (["--issuer-id", "issuer"], 64, "Error: --issuer-id 'issuer' is not an issuer ID; it is a UUID, such as 57246542-96fe-1a63-e053-0824d011072a.\n"),
        (["--app", "com example"], 64,
         "Error: --app 'com example' is neither an app's Apple ID (a number, such as 1234567890) nor a bundle ID (such as com.example.app).\n"),
        (["--concurrency", "0"], 64, "Error: --concurrency 0 is out of range; give 1 to 64 requests at once (8 by default).\n"),
        (["--base-url", "http://example.com"], 64,
         "Error: --base-url 'http://example.com' must start with https://, or http:// for this machine (http://127.0.0.1:PORT): the token must not travel in the clear.\n"),
        (["--base-url", "http://127.0.0.1:@127.0.0.2:18080"], 64,
         "Error: --base-url 'http://127.0.0.1:@127.0.0.2:18080' is not an address such as https://api.appstoreconnect.apple.com (a scheme, a host and at most a port).\n"),
        (["--base-url", "http://127.0.0.1:99999"], 64,
         "Error: --base-url 'http://127.0.0.1:99999' is not an address such as https://api.appstoreconnect.apple.com (a scheme, a host and at most a port).\n"),
        (["--base-url", "http://127.0.0.1:abc"], 64,
         "Error: --base-url 'http://127.0.0.1:abc' is not an address such as https://api.appstoreconnect.apple.com (a scheme, a host and at most a port).\n"),
        (["--base-url", "http://127.0.0.1:8080?"], 64,
         "Error: --base-url 'http://127.0.0.1:8080?' is not an address such as https://api.appstoreconnect.apple.com (a scheme, a host and at most a port).\n"),
        (["--raw", "/etc/hostname"], 64, "Error: --raw '/etc/hostname' is a file; give a new or empty folder.\n"),
        (["--base-url", "https://api.appstoreconnect.apple.com/"], 64,
         "Error: --base-url 'https://api.appstoreconnect.apple.com/' ends with /; give the address alone, such as https://api.appstoreconnect.apple.com.\n"),
    ])
    func badValuesAreRefusedBeforeAnyRequest(_ change: [String], _ status: Int32, _ firstLine: String) throws {
        var arguments = ["asc", "pull", "--key-id", Self.keyID, "--issuer-id", Self.issuerID, "--private-key", "/nonexistent.p8",
                         "--app", "1500000000"]
        if let at = arguments.firstIndex(of: change[0]) { arguments[at + 1] = change[1] } else { arguments += change }
        let run = try runStorePrice(arguments)
        #expect(run.status == status)
        #expect(run.error.hasPrefix(firstLine), "\(run.error)")
    }

    /// What a hostile or broken server sends stops the run with one line and status 69: a page
    /// that is its own next page, a redirect (never followed), a wait of an hour.
    @Test(arguments: [
        ("LOOP", "storeprice: App Store Connect's next page is one already read, GET /v1/apps/1500000000; stopped\n"),
        ("REDIRECT", "storeprice: App Store Connect answered 302 to GET /v1/apps/1500000000 (Found)\n"),
        ("WAIT", "storeprice: App Store Connect asks to wait 3600 s (429 for GET /v1/apps/1500000000), longer than 60 s; try again later\n"),
    ])
    func aServerThatMisbehavesStopsTheRun(_ mode: String, _ message: String) throws {
        let (key, file) = try Self.key()
        let server = try Self.standIn([Self.app: mode], publicKey: key.publicKey)
        let run = try Self.pull(server, key: file, [])
        #expect(run.status == 69)
        expectBytes(run.output, "")
        expectBytes(run.error, message)
        #expect(server.requests.count == 1, "\(server.requests.map(\.uri))")
    }

    /// An address where nothing listens is one line in words, status 69.
    @Test func nothingListeningIsSaidInWords() throws {
        let (_, file) = try Self.key()
        let run = try runStorePrice(
            ["asc", "pull", "--key-id", Self.keyID, "--issuer-id", Self.issuerID, "--private-key", file, "--app", "1500000000",
             "--base-url", "http://127.0.0.1:9"])
        #expect(run.status == 69)
        expectBytes(
            run.error,
            "storeprice: cannot reach App Store Connect at http://127.0.0.1:9 (GET /v1/apps/1500000000): "
                + "connection refused; is the address right?\n")
    }

    /// `--raw` into a folder that holds files is refused: old responses would be read with new ones.
    @Test func rawNeedsANewOrEmptyFolder() throws {
        let folder = try temporaryDirectory()
        try "{}".write(to: folder.appendingPathComponent("0099-old.json"), atomically: true, encoding: .utf8)
        let run = try runStorePrice(
            ["asc", "pull", "--key-id", Self.keyID, "--issuer-id", Self.issuerID, "--private-key", "/nonexistent.p8", "--app",
             "1500000000", "--raw", folder.path])
        #expect(run.status == 64)
        #expect(
            run.error.hasPrefix(
                "Error: --raw '\(folder.path)' already holds files; give a new or empty folder, so that old responses are not read with new ones.\n"),
            "\(run.error)")
    }

    /// A file that is not a key is named, and none of its text is shown.
    @Test func aFileThatIsNoKeyIsNamedNotQuoted() throws {
        let file = try temporaryDirectory().appendingPathComponent("AuthKey.p8")
        try "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LXRleHQ=\n-----END PRIVATE KEY-----\n".write(to: file, atomically: true, encoding: .utf8)
        let run = try runStorePrice(
            ["asc", "pull", "--key-id", Self.keyID, "--issuer-id", Self.issuerID, "--private-key", file.path, "--app", "1500000000",
             "--base-url", "http://127.0.0.1:9"])
        #expect(run.status == 65)
        expectBytes(
            run.error,
            "storeprice: cannot read '\(file.path)': not an App Store Connect API key; expected the .p8 file App Store Connect "
                + "gives (a P-256 key in PEM, BEGIN PRIVATE KEY)\n")
    }

    /// Requests for different products go at once, at most `--concurrency` of them, and the
    /// lists that name the products first, one after another.
    @Test(arguments: [1, 4])
    func requestsGoAtOnceUpToTheConcurrency(_ concurrency: Int) throws {
        let (key, file) = try Self.key()
        let server = try Self.standIn(publicKey: key.publicKey, latency: .milliseconds(150))
        let run = try Self.pull(server, key: file, ["--date", "2026-11-28", "--concurrency", String(concurrency)])
        #expect(run.status == 0, "\(run.error)")
        #expect(server.mostInFlight == concurrency, "at most \(server.mostInFlight) at once")
        #expect(run.error.contains("at most \(concurrency) at once"), "\(run.error)")
        // The lists come first, in order: the app, its in-app purchases, its groups, a group's subscriptions.
        #expect(server.requests.prefix(4).map(\.uri) == [
            Self.app, "/v1/apps/1500000000/inAppPurchasesV2?limit=200", "/v1/apps/1500000000/subscriptionGroups?limit=200",
            "/v1/subscriptionGroups/20000000/subscriptions?limit=200",
        ])
    }

    /// The hour's budget App Store Connect reports is said at the end; once it is spent, the pull
    /// stops at once, status 69, in one line that names the limit, instead of retrying into it.
    @Test func theHourlyBudgetIsReportedAndASpentOneStopsThePull() throws {
        let (key, file) = try Self.key()
        let ample = try Self.standIn(publicKey: key.publicKey, hourlyLimit: 3600)
        let done = try Self.pull(ample, key: file, ["--date", "2026-11-28"])
        #expect(done.status == 0, "\(done.error)")
        let requests = ample.requests.count
        let left = 3600 - requests
        let grouped = "\(left / 1000),\(String(format: "%03d", left % 1000))"
        #expect(done.error.hasSuffix("; the key's hourly limit: \(requests) of 3,600 used, \(grouped) left\n"), "\(done.error)")
        let scarce = try Self.standIn(publicKey: key.publicKey, hourlyLimit: 10)
        let stopped = try Self.pull(scarce, key: file, ["--date", "2026-11-28", "--concurrency", "2"])
        #expect(stopped.status == 69)
        expectBytes(stopped.output, "")
        #expect(stopped.error.hasPrefix("storeprice: App Store Connect's hourly limit of 10 requests for this key is spent ("), "\(stopped.error)")
        #expect(stopped.error.hasSuffix("); run it again in an hour, or with another key\n"), "\(stopped.error)")
        #expect(!stopped.error.contains("retrying"))
        // The 10, and at most one more for each request at once: none after the budget is known spent.
        #expect(scarce.requests.count <= 12, "\(scarce.requests.count) requests")
    }

    /// The key's parts from the environment, as CI holds them: the file's path, or its text.
    @Test(arguments: [true, false])
    func theKeyFromTheEnvironment(asText: Bool) throws {
        let (key, file) = try Self.key()
        let server = try Self.standIn(publicKey: key.publicKey)
        var environment = ProcessInfo.processInfo.environment
        environment["ASC_KEY_ID"] = Self.keyID
        environment["ASC_ISSUER_ID"] = Self.issuerID
        if asText { environment["ASC_PRIVATE_KEY"] = key.pemRepresentation } else { environment["ASC_PRIVATE_KEY_PATH"] = file }
        let run = try runStorePrice(
            ["asc", "pull", "--app", "1500000000", "--base-url", server.baseURL, "--date", "2026-11-28", "--quiet"],
            environment: environment)
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.error, "")
        #expect(server.requests.allSatisfy { $0.tokenProblem == nil })
        // A text that is no key is named by its variable, never quoted.
        environment["ASC_PRIVATE_KEY"] = "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LXRleHQ=\n-----END PRIVATE KEY-----"
        environment["ASC_PRIVATE_KEY_PATH"] = nil
        let bad = try runStorePrice(["asc", "pull", "--app", "1500000000", "--base-url", server.baseURL], environment: environment)
        #expect(bad.status == 64)
        #expect(bad.error.hasPrefix("Error: ASC_PRIVATE_KEY is not an App Store Connect API key;"), "\(bad.error)")
        #expect(!bad.error.contains("c2VjcmV0LXRleHQ="))
    }

    /// `--app` takes the bundle ID: the app is found by it, exactly; an unknown one is named.
    @Test func theAppByItsBundleID() throws {
        let (key, file) = try Self.key()
        let lookup = "/v1/apps?filter%5BbundleId%5D=com.example.app&limit=200"
        var routes = Self.routes
        routes[Self.app] = nil
        routes[lookup] = "apps.json"
        let server = try Self.standIn(routes, publicKey: key.publicKey)
        let run = try runStorePrice(
            ["asc", "pull", "--key-id", Self.keyID, "--issuer-id", Self.issuerID, "--private-key", file, "--app", "com.example.app",
             "--base-url", server.baseURL, "--date", "2026-11-28"])
        #expect(run.status == 0, "\(run.error)")
        #expect(server.requests.first?.uri == lookup)
        #expect(run.output.contains(#"{"product":"com.example.app","prices":{"DEU":"2.99","JPN":"500","USA":"2.99"}"#), "\(run.output)")
        let unknown = try Self.standIn(["/v1/apps?filter%5BbundleId%5D=com.example.gone&limit=200": "EMPTY"], publicKey: key.publicKey)
        let gone = try runStorePrice(
            ["asc", "pull", "--key-id", Self.keyID, "--issuer-id", Self.issuerID, "--private-key", file, "--app", "com.example.gone",
             "--base-url", unknown.baseURL])
        #expect(gone.status == 69)
        expectBytes(
            gone.error,
            "storeprice: no app of this key's team has the bundle ID 'com.example.gone' (GET /v1/apps?filter[bundleId]=… found none); "
                + "check it in App Store Connect, or give the app's Apple ID\n")
    }

    /// A 429's `Retry-After` in either of HTTP's forms is waited out before the request is made
    /// again; one that is neither (negative, words) is no reason to retry at once: 2 s.
    @Test(arguments: [
        ("1", "asks to wait 1 s", 0.9),
        ("HTTP-DATE", "asks to wait 1 to 4 s, to the date", 0),
        ("soon", "answered 429 for GET \(automaticPrices) with a Retry-After that is no wait ('soon'); retrying in 2 s", 1.9),
        ("-5", "answered 429 for GET \(automaticPrices) with a Retry-After that is no wait ('-5'); retrying in 2 s", 1.9),
    ])
    func retryAfterInEveryFormIsWaitedOut(_ given: String, _ note: String, _ seconds: Double) throws {
        let (key, file) = try Self.key()
        // An HTTP date is whole seconds: a date 3 s ahead at a whole second, and the instant it
        // is on the test's clock. The pull's own start may take a moment of it on a busy machine.
        let now = Date()
        let date = Date(timeIntervalSince1970: (now.timeIntervalSince1970 + 3).rounded(.up))
        let dateOnTheClock = ContinuousClock.now + .seconds(date.timeIntervalSince(now))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let value = given == "HTTP-DATE" ? formatter.string(from: date) : given
        let server = try Self.standIn(publicKey: key.publicKey, throttleOnce: [Self.automaticPrices], retryAfter: value)
        let run = try Self.pull(server, key: file, ["--date", "2026-11-28"])
        #expect(run.status == 0, "\(run.error)")
        let times = server.requests.filter { $0.uri == Self.automaticPrices }.map(\.time)
        #expect(times.count == 2)
        if given == "HTTP-DATE" {
            // The wait left until the date, rounded up: at most 4 s, at least 1 s.
            #expect((1...4).contains { run.error.contains("storeprice: note: App Store Connect asks to wait \($0) s") }, "\(run.error)")
            if times.count == 2 {
                #expect(times[1] >= dateOnTheClock - .milliseconds(50), "the retry came \(dateOnTheClock - times[1]) before the date")
            }
        } else {
            #expect(run.error.contains("storeprice: note: App Store Connect \(note)"), "\(run.error)")
            if times.count == 2 {
                let gap = times[1] - times[0]
                #expect(gap >= .seconds(seconds), "the retry came after \(gap)")
            }
        }
    }

    /// Every list the pull reads is followed to its last page: the stand-in serves each list one
    /// resource a page, and the catalog is the one of unpaged answers.
    @Test func everyListIsFollowedToItsLastPage() throws {
        let (key, file) = try Self.key()
        let whole = try Self.pull(try Self.standIn(publicKey: key.publicKey), key: file, ["--date", "2026-11-28", "--quiet"])
        let paged = try Self.standIn(publicKey: key.publicKey, pageSize: 1)
        let run = try Self.pull(paged, key: file, ["--date", "2026-11-28", "--quiet"])
        #expect(run.status == 0 && whole.status == 0, "\(run.error)")
        expectBytes(run.output, whole.output)
        // A second page of each list that has more than one resource.
        let second = Set(paged.requests.map(\.uri).filter { $0.contains("cursor=stand-in-1") }.map { $0.prefix { $0 != "?" } })
        for list in [
            "/v1/apps/1500000000/inAppPurchasesV2", "/v1/inAppPurchasePriceSchedules/6444000001/manualPrices",
            "/v1/subscriptions/6444000010/prices", "/v1/subscriptions/6444000010/subscriptionLocalizations",
            "/v1/subscriptions/6444000010/introductoryOffers", "/v1/subscriptionPromotionalOffers/6444000020/prices",
            "/v1/subscriptionOfferCodes/6444000030/prices", "/v1/appPriceSchedules/1500000000/automaticPrices",
        ] {
            #expect(second.contains(Substring(list)), "\(list) was not followed to its second page")
        }
    }

    /// Each answer names what it answers (links.self): one that names another resource is not
    /// joined to the product asked for.
    @Test func anAnswerForAnotherResourceStopsThePull() throws {
        let (key, file) = try Self.key()
        var routes = Self.routes
        // The coins' manual prices answered with the gems' schedule.
        routes["/v1/inAppPurchasePriceSchedules/6444000001/manualPrices?include=inAppPurchasePricePoint,territory&limit=200"] =
            "app-manual-prices.json"
        let server = try Self.standIn(routes, publicKey: key.publicKey)
        let run = try Self.pull(server, key: file, ["--date", "2026-11-28", "--concurrency", "1"])
        #expect(run.status == 69)
        expectBytes(
            run.error,
            "storeprice: App Store Connect's answer to GET /v1/inAppPurchasePriceSchedules/6444000001/manualPrices?include=inAppPurchasePricePoint,territory&limit=200 "
                + "says it answers '/v1/appPriceSchedules/1500000000/manualPrices?include=appPricePoint%2Cterritory' (links.self); stopped\n")
    }
}
