import Crypto
import Foundation
import TestSupport
import Testing

/// `storeprice asc pull`, the real command, against a stand-in for App Store Connect on 127.0.0.1
/// that serves the recorded responses of Tests/Fixtures/app-store-connect and checks every token.
@Suite struct AppStoreConnectPullTests {
    static let keyID = "2X9R4HXF34"
    static let issuerID = "57246542-96fe-1a63-e053-0824d011072a"
    static let automatic = "/v1/inAppPurchasePriceSchedules/6444000001/automaticPrices?include=inAppPurchasePricePoint,territory&limit=200"

    /// Every request `pull` makes for the made-up app 1500000000, and its recorded response.
    static let routes: [String: String] = [
        "/v1/apps/1500000000/inAppPurchasesV2?limit=200": "in-app-purchases.json",
        "/v1/inAppPurchasePriceSchedules/6444000001/manualPrices?include=inAppPurchasePricePoint,territory&limit=200":
            "coins-manual-prices.json",
        automatic: "coins-automatic-prices-1.json",
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
    ]

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
        let server = try StandInAppStoreConnect(routes: Self.routes, publicKey: key.publicKey, keyID: Self.keyID, issuerID: Self.issuerID)
        let run = try Self.pull(server, key: file, ["--date", "2026-11-28"])
        #expect(run.status == 0, "\(run.error)")
        expectBytes(
            run.output,
            #"{"product":"com.example.coins","prices":{"IDN":"16000","IND":"149","JPN":"150","USA":"0.99"}}"# + "\n"
                + #"{"product":"com.example.pro.monthly","prices":{"JPN":"800","USA":"4.99"},"title":{"en-US":"Pro","ja":"プロ"},"#
                + #""description":{"en-US":"Every feature","ja":"すべての機能"},"period":"P1M"}"# + "\n")
        #expect(run.error.hasSuffix("wrote 2 products with the prices in effect on 2026-11-28 (UTC), from 12 responses\n"), "\(run.error)")
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
        let server = try StandInAppStoreConnect(routes: Self.routes, publicKey: key.publicKey, keyID: Self.keyID, issuerID: Self.issuerID)
        let folder = try temporaryDirectory()
        let raw = folder.appendingPathComponent("responses").path
        let catalog = folder.appendingPathComponent("catalog.jsonl").path
        let run = try Self.pull(server, key: file, ["--date", "2026-11-28", "--raw", raw, "--output", catalog])
        #expect(run.status == 0, "\(run.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: raw).count == 12)
        let fromRaw = try runStorePrice(["render", raw, "--storefronts", "all", "--date", "2026-11-28", "--format", "csv"])
        let fromCatalog = try runStorePrice(["render", catalog, "--storefronts", "all", "--format", "csv"])
        #expect(fromRaw.status == 0 && fromCatalog.status == 0)
        expectBytes(fromRaw.output, fromCatalog.output)
        // The header, the coins' 4 prices (GBR's ended on 2026-09-01) and the subscription's 2.
        #expect(fromRaw.output.split(separator: "\n").count == 7)
    }

    /// A 429 is waited out for its Retry-After, then the request is made again.
    @Test func tooManyRequestsIsRetriedAfterRetryAfter() throws {
        let (key, file) = try Self.key()
        let server = try StandInAppStoreConnect(
            routes: Self.routes, publicKey: key.publicKey, keyID: Self.keyID, issuerID: Self.issuerID, throttleOnce: [Self.automatic])
        let run = try Self.pull(server, key: file, ["--date", "2026-11-28"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.hasPrefix(
            "storeprice: note: App Store Connect asks to wait 1 s (429 for GET \(Self.automatic)); retrying\n"), "\(run.error)")
        #expect(server.requests.filter { $0.uri == Self.automatic }.count == 2)
    }

    /// Apple's error is one line with its code and detail, status 69, and no key.
    @Test func anErrorFromAppleIsItsCodeAndDetail() throws {
        let (key, file) = try Self.key()
        // The stand-in knows another key, so the token's signature is not the team's.
        let server = try StandInAppStoreConnect(
            routes: Self.routes, publicKey: P256.Signing.PrivateKey().publicKey, keyID: Self.keyID, issuerID: Self.issuerID)
        let run = try Self.pull(server, key: file, [])
        #expect(run.status == 69)
        expectBytes(run.output, "")
        expectBytes(
            run.error,
            "storeprice: App Store Connect answered 401 to GET /v1/apps/1500000000/inAppPurchasesV2?limit=200: NOT_AUTHORIZED: "
                + "Provide a properly configured and signed bearer token, and make sure that it has not expired.\n")
        #expect(!run.error.contains(key.pemRepresentation.split(separator: "\n")[1]))
    }

    /// What is not a key, an ID or a safe address is refused before anything is sent.
    @Test(arguments: [
        (["--key-id", "abc"], 64, "Error: --key-id 'abc' is not a key ID; it is 10 capital letters and digits, such as 2X9R4HXF34.\n"),
        (["--issuer-id", "issuer"], 64, "Error: --issuer-id 'issuer' is not an issuer ID; it is a UUID, such as 57246542-96fe-1a63-e053-0824d011072a.\n"),
        (["--app", "com.example"], 64, "Error: --app 'com.example' is not an app's Apple ID; it is a number, such as 1234567890.\n"),
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
        ("LOOP", "storeprice: App Store Connect's next page is one already read, GET /v1/apps/1500000000/inAppPurchasesV2?limit=200; stopped\n"),
        ("REDIRECT", "storeprice: App Store Connect answered 302 to GET /v1/apps/1500000000/inAppPurchasesV2?limit=200 (Found)\n"),
        ("WAIT", "storeprice: App Store Connect asks to wait 3600 s (429 for GET /v1/apps/1500000000/inAppPurchasesV2?limit=200), longer than 60 s; try again later\n"),
    ])
    func aServerThatMisbehavesStopsTheRun(_ mode: String, _ message: String) throws {
        let (key, file) = try Self.key()
        let server = try StandInAppStoreConnect(
            routes: ["/v1/apps/1500000000/inAppPurchasesV2?limit=200": mode], publicKey: key.publicKey, keyID: Self.keyID,
            issuerID: Self.issuerID)
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
            "storeprice: cannot reach App Store Connect at http://127.0.0.1:9 (GET /v1/apps/1500000000/inAppPurchasesV2?limit=200): "
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
}
