import StandIns
import ArgumentParser
import Foundation

/// `swift run play-stand-in FOLDER`: the Google Play Developer API and Google's token endpoint on
/// this machine, so that `storeprice play pull` can be tried without a Google account.
@main
struct PlayStandInCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play-stand-in",
        abstract: "Serve Play Developer API documents on this machine, for storeprice play pull.",
        discussion: """
            Answers the lists play pull asks for with FOLDER's onetimeproducts.json, \
            subscriptions.json and offers.json (StorePrice's Tests/Fixtures/google-play, say), \
            in pages, and exchanges a service account's signed assertion for an access token as \
            Google does. It writes a made-up service account key whose token_uri is its own, \
            and takes only assertions signed by it.

            Try a pull without an account (in two terminals):
              swift run play-stand-in Tests/Fixtures/google-play --key play-key.json --port 8091
              swift run storeprice play pull --service-account play-key.json \\
                --package com.example.app --base-url http://127.0.0.1:8091

            --latency makes it answer as a server far away, for measuring a pull.
            """)

    @Argument(help: "The folder of documents to serve.")
    var folder: String

    @Option(help: ArgumentHelp("Write a made-up service account key file here, for play pull --service-account.", valueName: "file"))
    var key: String

    @Option(help: "The port to listen on, on 127.0.0.1.")
    var port = 8091

    @Option(help: ArgumentHelp("Milliseconds each answer takes.", valueName: "ms"))
    var latency = 0

    @Option(help: ArgumentHelp("Resources a page holds at most.", valueName: "count"))
    var pageSize = 1_000

    func validate() throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("'\(folder)' is not a folder of documents.")
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) is not a port; give 0 to 65535.") }
        guard (0...60_000).contains(latency) else { throw ValidationError("--latency \(latency) is out of range; give 0 to 60000 ms.") }
        guard pageSize >= 1 else { throw ValidationError("--page-size \(pageSize) is below 1.") }
    }

    func run() throws {
        var configuration = StandInGooglePlay.Configuration(folder: folder)
        configuration.port = port
        configuration.latency = .milliseconds(latency)
        configuration.pageSize = pageSize
        let standIn = try StandInGooglePlay(configuration)
        let made = try StandInGooglePlay.makeServiceAccount(tokenURL: standIn.tokenURL)
        try made.json.write(toFile: key, atomically: true, encoding: .utf8)
        standIn.trust(publicKeyPEM: made.publicKeyPEM)
        // Written at once, not buffered: a script waits for this line.
        FileHandle.standardOutput.write(Data(
            "play-stand-in: serving \(folder) at \(standIn.baseURL) (--base-url \(standIn.baseURL)), key in \(key); Ctrl-C stops it\n".utf8))
        try standIn.wait()
    }
}
