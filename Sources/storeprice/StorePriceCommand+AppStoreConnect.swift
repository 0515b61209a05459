import ArgumentParser
import Foundation
import StorePrice

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
                Developer's, and the .p8 file downloads once): the \
                app's in-app purchases (GET /v1/apps/{id}/inAppPurchasesV2) and subscription groups, \
                each product's manual and automatic prices with their price points and territories, \
                and its localizations, every page. It writes a JSON Lines catalog of the prices in \
                effect on --date, which render, snapshot and verify read; --raw also keeps every \
                response, which render and snapshot read as they are.

                The token is an ES256 JSON Web Token made for each run and valid for 20 minutes; the \
                key is never printed. A 429 is retried after its Retry-After.

                Examples:
                  storeprice asc pull --key-id 2X9R4HXF34 \\
                    --issuer-id 57246542-96fe-1a63-e053-0824d011072a \\
                    --private-key AuthKey_2X9R4HXF34.p8 --app 1234567890 \\
                    --raw asc-responses --output catalog.jsonl
                  storeprice render asc-responses --storefronts all --date 2027-01-01

                Exit status: 0 written, 64 usage error, 65 a key file or response StorePrice cannot \
                read, 69 App Store Connect refused or could not be reached, 73 an output file cannot be \
                written, 74 standard output cannot be written.
                """
        )

        @Option(help: ArgumentHelp("The API key's ID, such as 2X9R4HXF34.", valueName: "id"))
        var keyID: String

        @Option(help: ArgumentHelp("The issuer ID App Store Connect shows above the keys (a UUID).", valueName: "uuid"))
        var issuerID: String

        @Option(help: ArgumentHelp("The key's .p8 file, as App Store Connect gave it.", valueName: "file"))
        var privateKey: String

        @Option(help: ArgumentHelp("The app's Apple ID, the number in its App Store Connect address.", valueName: "id"))
        var app: String

        @Option(help: ArgumentHelp(
            "Write the catalog (JSON Lines) to this file, replaced only when the run succeeds; standard output when omitted or -.",
            valueName: "file"))
        var output: String?

        @Option(help: ArgumentHelp("Also keep every response in this folder, one a file.", valueName: "folder"))
        var raw: String?

        @OptionGroup var effectiveDate: EffectiveDateOption

        @Option(help: ArgumentHelp(
            "The API's address; https only, but for a stand-in on this machine (http://127.0.0.1:PORT).", valueName: "url"))
        var baseURL = "https://api.appstoreconnect.apple.com"

        func validate() throws {
            guard AppStoreConnectToken.isKeyID(keyID) else {
                throw ValidationError("--key-id '\(keyID.escapedForMessage)' is not a key ID; it is 10 capital letters and digits, such as 2X9R4HXF34.")
            }
            guard UUID(uuidString: issuerID) != nil else {
                throw ValidationError(
                    "--issuer-id '\(issuerID.escapedForMessage)' is not an issuer ID; it is a UUID, such as 57246542-96fe-1a63-e053-0824d011072a.")
            }
            guard !app.isEmpty, app.utf8.count <= 20, app.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                throw ValidationError("--app '\(app.escapedForMessage)' is not an app's Apple ID; it is a number, such as 1234567890.")
            }
            try Self.checkBaseURL(baseURL)
            if let raw {
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
        }

        func run() throws {
            let token = try AppStoreConnectToken(keyID: keyID, issuerID: issuerID, privateKeyFile: privateKey)
            // The folder for the responses is made before any request, so that a bad one costs none.
            if let raw {
                do {
                    try FileManager.default.createDirectory(atPath: raw, withIntermediateDirectories: true)
                } catch {
                    throw StorePriceError.unwritableFile(path: raw, reason: "cannot make the folder")
                }
            }
            let client = AppStoreConnectClient(baseURL: baseURL, token: token)
            defer { client.shutdown() }
            var pages: [AppStoreConnectClient.Page] = []
            func fetch(_ path: String) throws -> [AppStoreConnectClient.Page] {
                let fetched = try client.pages(path)
                pages += fetched
                return fetched
            }
            let purchases = try fetch("/v1/apps/\(app)/inAppPurchasesV2?limit=200")
            for id in try Self.ids(in: purchases, type: "inAppPurchases") {
                _ = try fetch("/v1/inAppPurchasePriceSchedules/\(id)/manualPrices?include=inAppPurchasePricePoint,territory&limit=200")
                _ = try fetch("/v1/inAppPurchasePriceSchedules/\(id)/automaticPrices?include=inAppPurchasePricePoint,territory&limit=200")
                _ = try fetch("/v2/inAppPurchases/\(id)/inAppPurchaseLocalizations?limit=200")
            }
            let groups = try fetch("/v1/apps/\(app)/subscriptionGroups?limit=200")
            for group in try Self.ids(in: groups, type: "subscriptionGroups") {
                let subscriptions = try fetch("/v1/subscriptionGroups/\(group)/subscriptions?limit=200")
                for id in try Self.ids(in: subscriptions, type: "subscriptions") {
                    _ = try fetch("/v1/subscriptions/\(id)/prices?include=subscriptionPricePoint,territory&limit=200")
                    _ = try fetch("/v1/subscriptions/\(id)/subscriptionLocalizations?limit=200")
                }
            }
            if let raw {
                for (index, page) in pages.enumerated() {
                    try OutputFile.write(
                        String(decoding: page.json, as: UTF8.self), to: raw + "/" + Self.fileName(index, page.url))
                }
            }
            let catalog = try AppStoreConnectCatalog(
                documents: pages.map { ($0.url, $0.json) }, effectiveOn: effectiveDate.date)
            let text = catalog.products.products.map(JSONLinesCatalogLine.line(for:)).joined()
            if let output, output != "-" {
                try OutputFile.write(text, to: output)
            } else {
                try Console.output(text: text)
            }
            for note in catalog.notes { Console.error("note: " + note) }
            let count = catalog.products.products.count
            Console.toStandardError(
                "wrote \(count) product\(count == 1 ? "" : "s") with the prices in effect on \(catalog.day) (UTC), from "
                    + "\(pages.count) response\(pages.count == 1 ? "" : "s")"
                    + (raw.map { ", kept in \($0.escapedPathForMessage)" } ?? "") + "\n")
        }

        /// Refuses an address the token must not go to: one that is not https, but for this machine's
        /// loopback over http, or that has a user, a path, a query or a port out of range.
        static func checkBaseURL(_ text: String) throws {
            func refuse(_ why: String) -> ValidationError {
                ValidationError("--base-url '\(text.escapedForMessage)' \(why)")
            }
            guard !text.hasSuffix("/") else {
                throw refuse("ends with /; give the address alone, such as https://api.appstoreconnect.apple.com.")
            }
            guard let parts = URLComponents(string: text), let scheme = parts.scheme, let host = parts.host, !host.isEmpty,
                parts.user == nil, parts.password == nil, parts.path.isEmpty, parts.query == nil, parts.fragment == nil,
                parts.port.map({ (1...65_535).contains($0) }) ?? true, !text.contains("@"), !text.contains(" ")
            else {
                throw refuse("is not an address such as https://api.appstoreconnect.apple.com (a scheme, a host and at most a port).")
            }
            let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased())
            guard scheme == "https" || (scheme == "http" && loopback) else {
                throw refuse("must start with https://, or http:// for this machine (http://127.0.0.1:PORT): the token must not travel in the clear.")
            }
        }

        /// The IDs of a list's resources of one type, every page.
        /// An ID goes into the next requests' paths, so only Apple's kind, digits, is taken.
        static func ids(in pages: [AppStoreConnectClient.Page], type: String) throws -> [String] {
            var ids: [String] = []
            for page in pages {
                guard let object = try? JSONSerialization.jsonObject(with: Data(page.json)) as? [String: Any],
                    let data = object["data"] as? [[String: Any]]
                else { continue }
                for id in data.compactMap({ $0["type"] as? String == type ? $0["id"] as? String : nil }) {
                    guard !id.isEmpty, id.utf8.count <= 20, id.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                        throw AppStoreConnectClient.Failure(
                            description: "App Store Connect's \(AppStoreConnectClient.shown(page.url)) lists \(type) '\(id.escapedForMessage)', "
                                + "whose ID is not a number as Apple's are; stopped")
                    }
                    ids.append(id)
                }
            }
            return ids
        }

        /// A response's file name: its number and its path, `003-v1-inAppPurchasePriceSchedules-6444653105-manualPrices.json`.
        static func fileName(_ index: Int, _ url: String) -> String {
            let name = AppStoreConnectClient.path(of: url).prefix { $0 != "?" }.split(separator: "/").joined(separator: "-")
            let number = String(index + 1)
            return String(repeating: "0", count: max(0, 4 - number.count)) + number + "-" + name + ".json"
        }
    }
}
