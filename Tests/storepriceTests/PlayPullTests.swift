import StandIns
import Foundation
import TestSupport
import Testing

/// `storeprice play pull`, the real command, against a stand-in for the Google Play Developer API
/// and Google's token endpoint on 127.0.0.1, which serves Tests/Fixtures/google-play and checks
/// every assertion and token.
@Suite struct PlayPullTests {
    static let folder = repositoryFile("Tests/Fixtures/google-play").path
    static let email = "pull@example-project.iam.gserviceaccount.com"

    /// A stand-in, and a made-up service account key file whose token_uri is the stand-in's.
    static func standIn(
        pageSize: Int = 1_000, throttleOnce: Set<String> = [], unavailableOnce: Set<String> = [], latency: Duration = .zero,
        otherKey: Bool = false
    ) throws -> (StandInGooglePlay, keyFile: String, key: String) {
        var configuration = StandInGooglePlay.Configuration(folder: folder)
        configuration.pageSize = pageSize
        configuration.throttleOnce = throttleOnce
        configuration.unavailableOnce = unavailableOnce
        configuration.latency = latency
        configuration.clientEmail = email
        // The key is made for the stand-in's token URL, known once it listens.
        let server = try StandInGooglePlay(configuration)
        let made = try StandInGooglePlay.makeServiceAccount(tokenURL: server.tokenURL, email: email)
        server.trust(
            publicKeyPEM: otherKey ? try StandInGooglePlay.makeServiceAccount(tokenURL: server.tokenURL).publicKeyPEM : made.publicKeyPEM)
        let file = try temporaryDirectory().appendingPathComponent("play-key.json")
        try Data(made.json.utf8).write(to: file)
        return (server, file.path, made.json)
    }

    static func pull(_ server: StandInGooglePlay, key: String, _ more: [String] = [], environment: [String: String]? = nil) throws -> ProcessOutput {
        try runStorePrice(["play", "pull", "--service-account", key, "--package", "com.example.app", "--base-url", server.baseURL] + more,
                          environment: environment)
    }

    /// Every list and every subscription's offers, in one document that renders as the fixtures do.
    @Test func pullWritesEveryListAsOneCatalog() throws {
        let (server, keyFile, key) = try Self.standIn(pageSize: 1)
        let directory = try temporaryDirectory()
        let output = directory.appendingPathComponent("play-catalog.json").path
        let raw = directory.appendingPathComponent("responses").path
        let run = try Self.pull(server, key: keyFile, ["--output", output, "--raw", raw])
        #expect(run.status == 0, "\(run.error)")
        // Pages of one: 2 one-time products, 1 subscription and its 4 offers, each a page, and a token.
        let requests = server.requests
        #expect(requests.count == 1 + 2 + 1 + 4, "\(requests.map(\.uri))")
        #expect(requests.allSatisfy { $0.problem == nil }, "\(requests.compactMap(\.problem))")
        #expect(requests.first?.uri == "/token")
        #expect(requests.contains { $0.uri == "/androidpublisher/v3/applications/com.example.app/oneTimeProducts?pageSize=1000&pageToken=page-1" })
        #expect(try FileManager.default.contentsOfDirectory(atPath: raw).sorted() == [
            "offers-premium-0001.json", "offers-premium-0002.json", "offers-premium-0003.json", "offers-premium-0004.json",
            "onetimeproducts-0001.json", "onetimeproducts-0002.json", "subscriptions-0001.json",
        ])
        #expect(run.error.contains("wrote 5 products (3 offers) of com.example.app, from 8 requests, at most "), "\(run.error)")
        // The pulled catalog, its raw answers and the fixtures render alike.
        let fixtures = directory.appendingPathComponent("fixtures")
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        for name in ["onetimeproducts.json", "subscriptions.json", "offers.json"] {
            try FileManager.default.copyItem(atPath: "\(Self.folder)/\(name)", toPath: fixtures.appendingPathComponent(name).path)
        }
        let renders = try [output, raw, fixtures.path].map {
            try runStorePrice(["render", $0, "--catalog-format", "play", "--storefronts", "all", "--format", "csv"])
        }
        #expect(renders.allSatisfy { $0.status == 0 })
        #expect(renders[0].output.split(separator: "\n").count == 40)
        #expect(renders[0].output == renders[2].output)
        #expect(renders[1].output == renders[2].output)
        // The key never reaches the output.
        let secret = key.components(separatedBy: "\\n")[1]
        #expect(!run.output.contains(secret) && !run.error.contains(secret))
    }

    /// A 429 and a 503 are retried, the 429 after its Retry-After.
    @Test func throttledAndUnavailableAnswersAreRetried() throws {
        let list = "/androidpublisher/v3/applications/com.example.app/subscriptions?pageSize=1000"
        let offers = "/androidpublisher/v3/applications/com.example.app/subscriptions/premium/basePlans/-/offers?pageSize=1000"
        let (server, keyFile, _) = try Self.standIn(throttleOnce: [list], unavailableOnce: [offers])
        let run = try Self.pull(server, key: keyFile, ["--output", try temporaryDirectory().appendingPathComponent("c.json").path])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.contains("note: Google Play answered 429 for GET \(list); retrying in 1 s\n"), "\(run.error)")
        #expect(run.error.contains("note: Google Play answered 503 for GET \(offers); retrying in 1 s\n"), "\(run.error)")
        let times = server.requests.filter { $0.uri == list }.map(\.time)
        #expect(times.count == 2)
        if times.count == 2 { #expect(times[1] - times[0] >= .milliseconds(900)) }
    }

    /// A key the token endpoint refuses, a package Play does not know: one line each, status 69.
    @Test func googlesRefusalsAreOneLineWithStatus69() throws {
        let (server, keyFile, _) = try Self.standIn(otherKey: true)
        let refused = try Self.pull(server, key: keyFile)
        #expect(refused.status == 69)
        expectBytes(
            refused.error,
            "storeprice: Google's token endpoint refused the service account \(Self.email) (400 invalid_grant: Invalid JWT Signature.); check that the key is not deleted or disabled in the Google Cloud console\n")
        let (good, goodKey, _) = try Self.standIn()
        let unknown = try runStorePrice(
            ["play", "pull", "--service-account", goodKey, "--package", "com.example.other", "--base-url", good.baseURL])
        #expect(unknown.status == 69)
        expectBytes(
            unknown.error,
            "storeprice: Google Play answered 404 to GET /androidpublisher/v3/applications/com.example.other/oneTimeProducts?pageSize=1000: NOT_FOUND: Package not found: com.example.other.; check the package name, as the Play Console shows it\n")
        #expect(unknown.output.isEmpty)
    }

    /// The key from the environment, as CI holds it; what is no key is named, never quoted.
    @Test func theKeyComesFromTheEnvironmentAndIsNeverQuoted() throws {
        let (server, _, key) = try Self.standIn()
        var environment = ProcessInfo.processInfo.environment
        environment["PLAY_SERVICE_ACCOUNT_KEY"] = key
        let run = try runStorePrice(
            ["play", "pull", "--package", "com.example.app", "--base-url", server.baseURL, "--quiet"], environment: environment)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.isEmpty)
        environment["PLAY_SERVICE_ACCOUNT_KEY"] = #"{"type":"service_account","client_email":"a@b.c","private_key":"SECRET-NOT-A-KEY"}"#
        let bad = try runStorePrice(["play", "pull", "--package", "com.example.app", "--base-url", server.baseURL], environment: environment)
        #expect(bad.status == 65)
        expectBytes(
            bad.error,
            "storeprice: cannot read 'PLAY_SERVICE_ACCOUNT_KEY': its private_key is no RSA key in PEM; expected a service account's key file (JSON) from the Google Cloud console: IAM & Admin > Service accounts > Keys > Add key\n")
    }

    @Test(arguments: [
        (["--package", "example"], "Error: --package 'example' is not an Android package name: two or more parts joined by '.', each a letter then letters, digits or '_', such as com.example.app."),
        (["--package", "com.example.app", "--base-url", "http://play.example.com"], "Error: --base-url 'http://play.example.com' must start with https://, or http:// for this machine (http://127.0.0.1:PORT): the token must not travel in the clear."),
        (["--package", "com.example.app", "--concurrency", "0"], "Error: --concurrency 0 is out of range; give 1 to 64 requests at once (8 by default)."),
    ])
    func usageErrorsAreSaidInWords(_ arguments: [String], _ message: String) throws {
        let run = try runStorePrice(["play", "pull", "--service-account", "key.json"] + arguments)
        #expect(run.status == 64)
        expectBytes(run.error.split(separator: "\n").first.map(String.init) ?? "", message)
    }
}
