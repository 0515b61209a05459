import ArgumentParser
import Foundation
import StorePrice
import Synchronization

extension StorePriceCommand {
    /// `storeprice asc`: App Store Connect's data.
    struct AppStoreConnect: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "asc",
            abstract: "Work with App Store Connect, where products' prices live.",
            discussion: """
                pull fetches an app's products and prices with a team API key and writes a catalog; \
                render and snapshot also read the responses it keeps (--raw) as they are.
                """,
            subcommands: [Pull.self]
        )
    }
}

extension StorePriceCommand.AppStoreConnect {
    /// `storeprice asc pull`: an app's products and prices, as a catalog.
    struct Pull: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pull",
            abstract: "Fetch an app's in-app purchases, subscriptions and their prices, and write them as a catalog.",
            discussion: """
                Calls the App Store Connect API with a team API key (Users and Access > Integrations > \
                App Store Connect API > Team Keys; an Admin makes one, with the App Manager role or \
                Developer's, and the .p8 file downloads once): the app's in-app purchases \
                (GET /v1/apps/{id}/inAppPurchasesV2), subscription groups and subscriptions, each \
                product's manual and automatic prices with their price points and territories, its \
                localizations, a subscription's introductory, promotional and win-back offers and \
                offer codes with their prices, and a paid app's own price, every page. It writes a \
                JSON Lines catalog of the prices and offers in effect on --date, which render, \
                snapshot, verify and paywall read; --raw also keeps every response, which render and \
                snapshot read as they are.

                Requests for different products go at once, --concurrency at a time. App Store \
                Connect allows each key a number of requests an hour (3,600 for most) and says how \
                many are left with every answer: the pull reports what it used, and stops once none \
                are left rather than retrying into the limit. A 429 is retried after its Retry-After.

                The key comes from the options or, as CI holds it, from the environment: \
                ASC_KEY_ID, ASC_ISSUER_ID, and ASC_PRIVATE_KEY_PATH (the .p8 file) or ASC_PRIVATE_KEY \
                (its text). The token is an ES256 JSON Web Token valid for 20 minutes; the key is \
                never printed.

                Examples:
                  storeprice asc pull --key-id 2X9R4HXF34 \\
                    --issuer-id 57246542-96fe-1a63-e053-0824d011072a \\
                    --private-key AuthKey_2X9R4HXF34.p8 --app com.example.app \\
                    --raw asc-responses --output catalog.jsonl
                  storeprice render asc-responses --storefronts all --date 2027-01-01
                  export ASC_KEY_ID=2X9R4HXF34
                  export ASC_ISSUER_ID=57246542-96fe-1a63-e053-0824d011072a
                  export ASC_PRIVATE_KEY="$(cat AuthKey_2X9R4HXF34.p8)"
                  storeprice asc pull --app 1234567890 --output catalog.jsonl

                Exit status: 0 written, 64 usage error, 65 a key file or response StorePrice cannot \
                read, 69 App Store Connect refused, could not be reached, or its hourly limit is \
                spent, 73 an output file cannot be written, 74 standard output cannot be written.
                """
        )

        @Option(help: ArgumentHelp("The API key's ID, such as 2X9R4HXF34 (or ASC_KEY_ID).", valueName: "id"))
        var keyID: String?

        @Option(help: ArgumentHelp("The issuer ID App Store Connect shows above the keys, a UUID (or ASC_ISSUER_ID).", valueName: "uuid"))
        var issuerID: String?

        @Option(help: ArgumentHelp(
            "The key's .p8 file, as App Store Connect gave it (or ASC_PRIVATE_KEY_PATH, or its text in ASC_PRIVATE_KEY).",
            valueName: "file"))
        var privateKey: String?

        @Option(help: ArgumentHelp(
            "The app: its Apple ID, the number in its App Store Connect address, or its bundle ID, such as com.example.app.",
            valueName: "id"))
        var app: String

        @Option(help: ArgumentHelp(
            "Write the catalog (JSON Lines) to this file, replaced only when the run succeeds; standard output when omitted or -.",
            valueName: "file"))
        var output: String?

        @Option(help: ArgumentHelp("Also keep every response in this folder, one a file, written as it arrives.", valueName: "folder"))
        var raw: String?

        @OptionGroup var effectiveDate: EffectiveDateOption

        @Option(parsing: .unconditional, help: ArgumentHelp(
            "Requests at once, 1 to 64; each is a product's prices, titles or offers.", valueName: "count"))
        var concurrency = Self.defaultConcurrency

        @Flag(help: "No progress and no notes on standard error; errors still.")
        var quiet = false

        @Option(help: ArgumentHelp(
            "The API's address; https only, but for a stand-in on this machine (http://127.0.0.1:PORT).", valueName: "url"))
        var baseURL = "https://api.appstoreconnect.apple.com"

        /// Requests at once by default: against a stand-in answering after 100 ms, 8 at once
        /// took an eighth of the time of one at a time, and 16 gained less than a tenth more
        /// (see the article "Where prices come from"); App Store Connect's hourly budget, not
        /// the time, limits larger apps.
        static let defaultConcurrency = 8

        /// The environment the key's parts are read from when their options are absent.
        static var environment: [String: String] { ProcessInfo.processInfo.environment }

        func validate() throws {
            let environment = Self.environment
            guard let keyID = keyID ?? environment["ASC_KEY_ID"] else {
                throw ValidationError("Missing the key ID: give --key-id, or set ASC_KEY_ID, such as 2X9R4HXF34.")
            }
            let keySource = self.keyID == nil ? "ASC_KEY_ID" : "--key-id"
            guard AppStoreConnectToken.isKeyID(keyID) else {
                throw ValidationError("\(keySource) '\(keyID.escapedForMessage)' is not a key ID; it is 10 capital letters and digits, such as 2X9R4HXF34.")
            }
            guard let issuerID = issuerID ?? environment["ASC_ISSUER_ID"] else {
                throw ValidationError("Missing the issuer ID: give --issuer-id, or set ASC_ISSUER_ID, such as 57246542-96fe-1a63-e053-0824d011072a.")
            }
            guard UUID(uuidString: issuerID) != nil else {
                throw ValidationError(
                    "\(self.issuerID == nil ? "ASC_ISSUER_ID" : "--issuer-id") '\(issuerID.escapedForMessage)' is not an issuer ID; it is a UUID, such as 57246542-96fe-1a63-e053-0824d011072a.")
            }
            if privateKey == nil {
                switch (environment["ASC_PRIVATE_KEY_PATH"], environment["ASC_PRIVATE_KEY"]) {
                case (nil, nil):
                    throw ValidationError(
                        "Missing the key: give --private-key AuthKey.p8, or set ASC_PRIVATE_KEY_PATH to the file or ASC_PRIVATE_KEY to its text.")
                case (_?, _?):
                    throw ValidationError("Both ASC_PRIVATE_KEY_PATH and ASC_PRIVATE_KEY are set; set one.")
                default: break
                }
            }
            guard AppStoreConnectPull.isAppleID(app) || Self.isBundleID(app) else {
                throw ValidationError(
                    "--app '\(app.escapedForMessage)' is neither an app's Apple ID (a number, such as 1234567890) nor a bundle ID (such as com.example.app).")
            }
            guard (1...64).contains(concurrency) else {
                throw ValidationError("--concurrency \(concurrency) is out of range; give 1 to 64 requests at once (8 by default).")
            }
            try Self.checkBaseURL(baseURL)
            try Self.checkRawFolder(raw)
        }

        /// Refuses a raw folder that holds files already, or is no folder.
        static func checkRawFolder(_ raw: String?) throws {
            guard let raw else { return }
            switch Catalog.kind(of: raw) {
            case nil: break
            case .folder?:
                if let inside = try? FileManager.default.contentsOfDirectory(atPath: raw), !inside.isEmpty {
                    throw ValidationError(
                        "--raw '\(raw.escapedForMessage)' already holds files; give a new or empty folder, so that old responses are not read with new ones.")
                }
            case .file?:
                throw ValidationError("--raw '\(raw.escapedForMessage)' is a file; give a new or empty folder.")
            case .other?:
                throw ValidationError("--raw '\(raw.escapedForMessage)' is not a folder; give a new or empty folder.")
            }
        }

        /// Whether text could be a bundle ID: letters, digits, `.`, `-`, as Apple allows them.
        static func isBundleID(_ text: String) -> Bool {
            !text.isEmpty && text.utf8.count <= 155
                && text.utf8.allSatisfy { $0.isASCIIAlphanumeric || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
                && text.contains(".")
        }

        /// The token from the options, or the environment.
        func token() throws -> AppStoreConnectToken {
            let environment = Self.environment
            let keyID = self.keyID ?? environment["ASC_KEY_ID"] ?? ""
            let issuerID = self.issuerID ?? environment["ASC_ISSUER_ID"] ?? ""
            if let path = privateKey ?? environment["ASC_PRIVATE_KEY_PATH"] {
                return try AppStoreConnectToken(keyID: keyID, issuerID: issuerID, privateKeyFile: path)
            }
            do {
                return try AppStoreConnectToken(
                    keyID: keyID, issuerID: issuerID, privateKeyPEM: environment["ASC_PRIVATE_KEY"] ?? "", source: "ASC_PRIVATE_KEY")
            } catch {
                throw ValidationError(error.description)
            }
        }

        func run() throws {
            let token = try token()
            // The folder for the responses is made before any request, so that a bad one costs none.
            if let raw {
                do {
                    try FileManager.default.createDirectory(atPath: raw, withIntermediateDirectories: true)
                } catch {
                    throw StorePriceError.unwritableFile(path: raw, reason: "cannot make the folder")
                }
            }
            let progress = PullProgress(mode: PullProgress.mode(quiet: quiet))
            let client = AppStoreConnectClient(baseURL: baseURL, token: token, concurrency: concurrency)
            let pull = AppStoreConnectPull(
                client: client, concurrency: concurrency, raw: raw, date: effectiveDate.date, progress: progress)
            let app = self.app
            let result = Blocking.run { () async -> Result<AppStoreConnectCatalog, any Error> in
                let result: Result<AppStoreConnectCatalog, any Error>
                do {
                    result = .success(try await pull.run(app: app))
                } catch {
                    result = .failure(error)
                }
                await client.shutdown()
                return result
            }
            progress.finish()
            let catalog = try result.get()
            let text = catalog.products.products.map(JSONLinesCatalogLine.line(for:)).joined()
            if let output, output != "-" {
                try OutputFile.write(text, to: output)
            } else {
                try Console.output(text: text)
            }
            guard !quiet else { return }
            for note in catalog.notes { Console.error("note: " + note) }
            let usage = client.usage.withLock { $0 }
            let count = catalog.products.products.count
            let offers = catalog.products.products.reduce(0) { $0 + ($1.subscription?.offers.count ?? 0) }
            var budget = ""
            if let limit = usage.hourlyLimit, let remaining = usage.remaining {
                budget = "; the key's hourly limit: \(AppStoreConnectClient.grouped(limit - remaining)) of "
                    + "\(AppStoreConnectClient.grouped(limit)) used, \(AppStoreConnectClient.grouped(remaining)) left"
            }
            Console.toStandardError(
                "wrote \(count) product\(count == 1 ? "" : "s") (\(offers) offer\(offers == 1 ? "" : "s")) with the prices in effect on "
                    + "\(catalog.day) (UTC), from \(usage.requests) request\(usage.requests == 1 ? "" : "s"), at most "
                    + "\(usage.mostInFlight) at once, in \(String(format: "%.1f", progress.elapsed)) s"
                    + (raw.map { ", kept in \($0.escapedPathForMessage)" } ?? "") + budget + "\n")
        }

        /// Refuses an address the token must not go to: one that is not https, but for this machine's
        /// loopback over http, or that has a user, a path, a query or a port out of range.
        static func checkBaseURL(_ text: String, example: String = "https://api.appstoreconnect.apple.com") throws {
            func refuse(_ why: String) -> ValidationError {
                ValidationError("--base-url '\(text.escapedForMessage)' \(why)")
            }
            guard !text.hasSuffix("/") else {
                throw refuse("ends with /; give the address alone, such as \(example).")
            }
            guard let parts = URLComponents(string: text), let scheme = parts.scheme, let host = parts.host, !host.isEmpty,
                parts.user == nil, parts.password == nil, parts.path.isEmpty, parts.query == nil, parts.fragment == nil,
                parts.port.map({ (1...65_535).contains($0) }) ?? true, !text.contains("@"), !text.contains(" ")
            else {
                throw refuse("is not an address such as \(example) (a scheme, a host and at most a port).")
            }
            let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased())
            guard scheme == "https" || (scheme == "http" && loopback) else {
                throw refuse("must start with https://, or http:// for this machine (http://127.0.0.1:PORT): the token must not travel in the clear.")
            }
        }
    }
}
