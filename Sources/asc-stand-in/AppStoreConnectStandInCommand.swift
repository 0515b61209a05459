import StandIns
import ArgumentParser
import Crypto
import Foundation

/// `swift run asc-stand-in FOLDER`: App Store Connect's API on this machine, answering recorded
/// responses, so that `storeprice asc pull` can be tried without an account.
@main
struct StandInsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "asc-stand-in",
        abstract: "Serve recorded App Store Connect responses on this machine, for storeprice asc pull.",
        discussion: """
            Answers GET requests at the API's paths with the responses in FOLDER: each file is \
            served at the path and query of its links.self (a folder asc pull --raw kept, or \
            StorePrice's Tests/Fixtures/app-store-connect), its host replaced by the stand-in's; a \
            list the folder lacks is an empty list. Each request's token is checked as Apple \
            checks it: signed ES256 by --key, with the audience and lifetime Apple requires.

            Try a pull without an account (in two terminals):
              swift run asc-stand-in --make-key AuthKey_TEST123456.p8
              swift run asc-stand-in Tests/Fixtures/app-store-connect --key AuthKey_TEST123456.p8 --port 8090
              swift run storeprice asc pull --key-id TEST123456 \\
                --issuer-id 57246542-96fe-1a63-e053-0824d011072a \\
                --private-key AuthKey_TEST123456.p8 --app 1500000000 \\
                --base-url http://127.0.0.1:8090 --date 2026-11-28

            --latency and --hourly-limit make it answer as a server far away, with Apple's hourly \
            budget (X-Rate-Limit), for measuring a pull.
            """)

    @Argument(help: "The folder of responses to serve.")
    var folder: String?

    @Option(help: ArgumentHelp("The team key's .p8 file, whose signature every token must carry.", valueName: "file"))
    var key: String?

    @Option(help: ArgumentHelp("Write a new made-up key to this .p8 file, and stop.", valueName: "file"))
    var makeKey: String?

    @Option(help: "The port to listen on, on 127.0.0.1.")
    var port = 8090

    @Option(help: ArgumentHelp("Milliseconds each answer takes.", valueName: "ms"))
    var latency = 0

    @Option(help: ArgumentHelp("Requests the key may make; each answer says how many are left (X-Rate-Limit).", valueName: "count"))
    var hourlyLimit: Int?

    func validate() throws {
        if makeKey == nil {
            guard let folder else { throw ValidationError("Give the folder of responses to serve, or --make-key FILE.") }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError("'\(folder)' is not a folder of responses.")
            }
            guard key != nil else { throw ValidationError("Give --key, the .p8 file the pull signs its tokens with (--make-key makes one).") }
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) is not a port; give 0 to 65535.") }
        guard (0...60_000).contains(latency) else { throw ValidationError("--latency \(latency) is out of range; give 0 to 60000 ms.") }
        if let hourlyLimit, hourlyLimit < 0 { throw ValidationError("--hourly-limit \(hourlyLimit) is below 0.") }
    }

    func run() throws {
        if let makeKey {
            try P256.Signing.PrivateKey().pemRepresentation.write(toFile: makeKey, atomically: true, encoding: .utf8)
            print("asc-stand-in: wrote a made-up key to \(makeKey); give it to both asc-stand-in --key and storeprice asc pull --private-key")
            return
        }
        guard let folder, let key else { return }
        let pem = try String(contentsOfFile: key, encoding: .utf8)
        guard let privateKey = try? P256.Signing.PrivateKey(pemRepresentation: pem) else {
            throw ValidationError("'\(key)' is not a P-256 key in PEM, as App Store Connect's .p8 files are.")
        }
        var configuration = StandInAppStoreConnect.Configuration(folder: folder)
        configuration.publicKey = privateKey.publicKey.rawRepresentation
        configuration.port = port
        configuration.latency = .milliseconds(latency)
        configuration.hourlyLimit = hourlyLimit
        let standIn = try StandInAppStoreConnect(configuration)
        // Written at once, not buffered: a script waits for this line.
        FileHandle.standardOutput.write(
            Data("asc-stand-in: serving \(folder) at \(standIn.baseURL) (--base-url \(standIn.baseURL)); Ctrl-C stops it\n".utf8))
        try standIn.wait()
    }
}
