import ArgumentParser
import Foundation
import StorePrice
import Synchronization

extension StorePriceCommand {
    /// `storeprice play`: Google Play's data.
    struct Play: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "play",
            abstract: "Work with the Google Play Developer API, where an Android app's prices live.",
            discussion: """
                pull fetches an app's one-time products, subscriptions and offers with a service \
                account's key and writes them as a Play catalog, which render, snapshot, verify and \
                paywall read with --catalog-format play.
                """,
            subcommands: [Pull.self]
        )
    }
}

extension StorePriceCommand.Play {
    /// `storeprice play pull`: an app's products and prices, as a Play catalog.
    struct Pull: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pull",
            abstract: "Fetch an app's one-time products, subscriptions and their offers from Google Play, and write them as a catalog.",
            discussion: """
                Calls the Google Play Developer API with a service account's key (a JSON file from \
                the Google Cloud console: IAM & Admin > Service accounts > Keys; the account is \
                invited in the Play Console under Users and permissions, with the right to view app \
                information): the app's one-time products (monetization.onetimeproducts.list), its \
                subscriptions with their base plans (monetization.subscriptions.list) and each \
                subscription's offers (basePlans/-/offers), every page. It writes one JSON document \
                of every list, a Play catalog that render, snapshot, verify and paywall read with \
                --catalog-format play; --raw also keeps every answer as Google wrote it, a folder \
                that is itself a Play catalog.

                The access token is OAuth 2.0's: a JSON Web Token signed RS256 with the key, valid \
                for an hour, exchanged at the key's token_uri; the key is never printed. Requests \
                for different subscriptions' offers go at once, --concurrency at a time; a 429 or a \
                5xx is retried after its Retry-After, or after 1, 2, 4, 8 and 16 seconds.

                The key comes from --service-account or, as CI holds it, from the environment: \
                GOOGLE_APPLICATION_CREDENTIALS (the file, as Google's own tools read it) or \
                PLAY_SERVICE_ACCOUNT_KEY (its text).

                Examples:
                  storeprice play pull --service-account play-key.json \\
                    --package com.example.app --raw play-responses --output play-catalog.json
                  storeprice render play-catalog.json --catalog-format play --storefronts US,JP,BD
                  export PLAY_SERVICE_ACCOUNT_KEY="$(cat play-key.json)"
                  storeprice play pull --package com.example.app --output play-catalog.json

                Exit status: 0 written, 64 usage error, 65 a key file or answer StorePrice cannot \
                read, 69 Google refused, or could not be reached, 73 an output file cannot be \
                written, 74 standard output cannot be written.
                """
        )

        @Option(help: ArgumentHelp(
            "The service account's key file (JSON), as the Google Cloud console gives it (or GOOGLE_APPLICATION_CREDENTIALS, or its text in PLAY_SERVICE_ACCOUNT_KEY).",
            valueName: "file"))
        var serviceAccount: String?

        @Option(help: ArgumentHelp("The app's package name, such as com.example.app.", valueName: "name"))
        var package: String

        @Option(help: ArgumentHelp(
            "Write the catalog (one JSON document) to this file, replaced only when the run succeeds; standard output when omitted or -.",
            valueName: "file"))
        var output: String?

        @Option(help: ArgumentHelp("Also keep every answer in this folder, one a file, written as it arrives.", valueName: "folder"))
        var raw: String?

        @Option(parsing: .unconditional, help: ArgumentHelp(
            "Requests at once, 1 to 64; each is a page of a subscription's offers.", valueName: "count"))
        var concurrency = 8

        @Flag(help: "No progress and no notes on standard error; errors still.")
        var quiet = false

        @Option(help: ArgumentHelp(
            "The API's address; https only, but for a stand-in on this machine (http://127.0.0.1:PORT).", valueName: "url"))
        var baseURL = "https://androidpublisher.googleapis.com"

        static var environment: [String: String] { ProcessInfo.processInfo.environment }

        func validate() throws {
            let environment = Self.environment
            if serviceAccount == nil {
                switch (environment["GOOGLE_APPLICATION_CREDENTIALS"], environment["PLAY_SERVICE_ACCOUNT_KEY"]) {
                case (nil, nil):
                    throw ValidationError(
                        "Missing the key: give --service-account KEY.json, or set GOOGLE_APPLICATION_CREDENTIALS to the file or PLAY_SERVICE_ACCOUNT_KEY to its text.")
                case (_?, _?):
                    throw ValidationError("Both GOOGLE_APPLICATION_CREDENTIALS and PLAY_SERVICE_ACCOUNT_KEY are set; set one.")
                default: break
                }
            }
            guard Self.isPackageName(package) else {
                throw ValidationError(
                    "--package '\(package.escapedForMessage)' is not an Android package name: two or more parts joined by '.', each a letter then letters, digits or '_', such as com.example.app.")
            }
            guard (1...64).contains(concurrency) else {
                throw ValidationError("--concurrency \(concurrency) is out of range; give 1 to 64 requests at once (8 by default).")
            }
            try StorePriceCommand.AppStoreConnect.Pull.checkBaseURL(baseURL, example: "https://androidpublisher.googleapis.com")
            try StorePriceCommand.AppStoreConnect.Pull.checkRawFolder(raw)
        }

        /// An Android application ID: `com.example.app`.
        static func isPackageName(_ text: String) -> Bool {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count >= 2 && text.utf8.count <= 150 && parts.allSatisfy { part in
                let letter = { (byte: UInt8) in (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
                guard let first = part.utf8.first, letter(first) else { return false }
                return part.utf8.allSatisfy { letter($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "_") }
            }
        }

        /// The key from the option or the environment.
        func account() throws -> PlayServiceAccount {
            let environment = Self.environment
            if let path = serviceAccount ?? environment["GOOGLE_APPLICATION_CREDENTIALS"] {
                if let kind = Catalog.kind(of: path), kind != .file {
                    throw StorePriceError.unreadableFile(path: path, reason: "not a regular file; expected a service account's key file (JSON)")
                }
                return try PlayServiceAccount(json: try InputFile(path: path).readAll(), source: path)
            }
            return try PlayServiceAccount(json: Array((environment["PLAY_SERVICE_ACCOUNT_KEY"] ?? "").utf8), source: "PLAY_SERVICE_ACCOUNT_KEY")
        }

        func run() throws {
            let account = try account()
            if let raw {
                do {
                    try FileManager.default.createDirectory(atPath: raw, withIntermediateDirectories: true)
                } catch {
                    throw StorePriceError.unwritableFile(path: raw, reason: "cannot make the folder")
                }
            }
            let progress = PullProgress(mode: PullProgress.mode(quiet: quiet), command: "play pull")
            let client = PlayClient(baseURL: baseURL, account: account, concurrency: concurrency)
            let pull = PlayPull(client: client, packageName: package, concurrency: concurrency, raw: raw, progress: progress)
            let result = Blocking.run { () async -> Result<[[UInt8]], any Error> in
                let result: Result<[[UInt8]], any Error>
                do {
                    result = .success(try await pull.run())
                } catch {
                    result = .failure(error)
                }
                await client.shutdown()
                return result
            }
            progress.finish()
            let document = PlayPull.catalog(of: try result.get())
            // Read as render reads it: what Play gave that StorePrice cannot show is said now.
            let shown = output.flatMap { $0 == "-" ? nil : $0 } ?? "the pulled catalog"
            let catalog = try PlayCatalog(documents: [(shown, document)])
            if let output, output != "-" {
                try OutputFile.write(String(decoding: document, as: UTF8.self), to: output)
            } else {
                try Console.output(text: String(decoding: document, as: UTF8.self))
            }
            guard !quiet else { return }
            for note in catalog.notes { Console.error("note: " + note) }
            let usage = client.usage.withLock { $0 }
            let count = catalog.products.products.count
            let offers = catalog.products.products.reduce(0) { $0 + ($1.subscription?.offers.count ?? 0) }
            Console.toStandardError(
                "wrote \(count) product\(count == 1 ? "" : "s") (\(offers) offer\(offers == 1 ? "" : "s")) of \(package), from "
                    + "\(usage.requests) request\(usage.requests == 1 ? "" : "s"), at most \(usage.mostInFlight) at once, in "
                    + "\(String(format: "%.1f", progress.elapsed)) s" + (raw.map { ", kept in \($0.escapedPathForMessage)" } ?? "") + "\n")
        }
    }
}
