import Foundation
import TestSupport
import Testing

/// What `--output` does to what is already at the path: it never replaces a symbolic link, a FIFO
/// or a device, keeps a file's permissions, creates new files under the umask, and leaves no
/// temporary file when the run is stopped by a signal.
@Suite struct OutputFileTests {
    static let sample = repositoryFile("Data/catalog-sample.jsonl").path
    static let arguments = ["render", sample, "--storefronts", "USA", "--format", "csv"]

    static func mode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    @Test func aSymbolicLinkStaysALinkAndItsTargetIsReplacedKeepingItsMode() throws {
        let directory = try temporaryDirectory()
        let target = directory.appendingPathComponent("real.csv")
        let link = directory.appendingPathComponent("link.csv")
        try "old\n".write(to: target, atomically: true, encoding: .utf8)
        chmod(target.path, 0o600)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real.csv")
        let run = try runStorePrice(Self.arguments + ["--output", link.path])
        #expect(run.status == 0, "\(run.error)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real.csv")
        #expect(try String(contentsOf: target, encoding: .utf8).hasPrefix("product,storefront,"))
        #expect(try Self.mode(target.path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["link.csv", "real.csv"])
    }

    /// A name of up to 255 bytes is written, whole characters or not: the temporary file's name
    /// is cut to fit beside it.
    @Test(arguments: [String(repeating: "d", count: 255), String(repeating: "価", count: 85), "a" + String(repeating: "価", count: 84) + "b"])
    func aNameOfTheLongestLengthIsWritten(_ name: String) throws {
        let directory = try temporaryDirectory()
        let output = directory.appendingPathComponent(name).path
        try "old\n".write(toFile: output, atomically: false, encoding: .utf8)
        let run = try runStorePrice(Self.arguments + ["--output", output])
        #expect(run.status == 0, "\(escaped(run.error))")
        let standard = try runStorePrice(Self.arguments)
        expectBytes(try String(contentsOfFile: output, encoding: .utf8), standard.output)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [name])
    }

    @Test func aNewFileFollowsTheUmask() throws {
        let directory = try temporaryDirectory()
        for (mask, expected) in [("077", 0o600), ("022", 0o644), ("027", 0o640)] {
            let output = directory.appendingPathComponent("new-\(mask).csv").path
            let command = (["umask", mask, ";", "exec", try storePriceExecutable().path] + Self.arguments + ["--output", output])
                .map { $0 == ";" ? $0 : "'\($0)'" }.joined(separator: " ")
            let run = try runProcess("/bin/sh", ["-c", command])
            #expect(run.status == 0, "\(run.error)")
            #expect(try Self.mode(output) == expected, "umask \(mask)")
        }
    }

    @Test func aFIFOIsWrittenToNotReplaced() throws {
        let fifo = try temporaryDirectory().appendingPathComponent("pipe")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        // A reader on the FIFO, as a shell's `cat` would be.
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo.path]
        let received = Pipe()
        reader.standardOutput = received
        try reader.run()
        let run = try runStorePrice(Self.arguments + ["--output", fifo.path])
        #expect(run.status == 0, "\(run.error)")
        let data = received.fileHandleForReading.readDataToEndOfFile()
        reader.waitUntilExit()
        #expect(String(decoding: data, as: UTF8.self).hasPrefix("product,storefront,"))
        var info = stat()
        #expect(stat(fifo.path, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFIFO, "the FIFO was replaced")
    }

    @Test(.enabled(if: getuid() == 0, "making a device node needs root"))
    func aDeviceIsWrittenToNotReplaced() throws {
        // A null device of our own, not the system's /dev/null.
        let device = try temporaryDirectory().appendingPathComponent("null")
        #expect(mknod(device.path, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0)  // major 1, minor 3: the null device
        let run = try runStorePrice(Self.arguments + ["--output", device.path])
        #expect(run.status == 0, "\(run.error)")
        var info = stat()
        #expect(stat(device.path, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFCHR, "the device was replaced")
    }

    @Test func aDashIsStandardOutputAndADirectoryIsRefused() throws {
        let dash = try runStorePrice(Self.arguments + ["--output", "-"])
        #expect(dash.status == 0)
        #expect(dash.output.hasPrefix("product,storefront,"))
        #expect(!FileManager.default.fileExists(atPath: "-"))

        let directory = try temporaryDirectory()
        for path in [directory.path, directory.path + "/", directory.appendingPathComponent("sub").path + "/"] {
            let run = try runStorePrice(Self.arguments + ["--output", path])
            #expect(run.status == 73)
            expectBytes(run.error, "storeprice: cannot write '\(path)': Is a directory\n")
        }
    }

    /// Stopped by a signal while it waits for more of its catalog, a render leaves the old file as
    /// it was and no temporary file, and ends as that signal ends a process.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP, SIGQUIT])
    func aSignalLeavesTheOldFileAndNoTemporaryFile(_ signalNumber: Int32) throws {
        let directory = try temporaryDirectory()
        let output = directory.appendingPathComponent("prices.csv")
        try "old\n".write(to: output, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = try storePriceExecutable()
        process.arguments = ["render", "-", "--catalog-format", "csv", "--storefronts", "USA", "--output", output.path]
        process.currentDirectoryURL = directory
        let input = Pipe()
        process.standardInput = input
        process.standardError = Pipe()
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data("product,storefront,price\na,USA,0.99\n".utf8))
        // Wait for the temporary file, then stop the run while it reads standard input.
        var waited = 0
        while try FileManager.default.contentsOfDirectory(atPath: directory.path).count < 2, waited < 500 {
            usleep(10_000)
            waited += 1
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 2, "no temporary file appeared")
        kill(process.processIdentifier, signalNumber)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == signalNumber)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix("core") } == ["prices.csv"])
        #expect(try String(contentsOf: output, encoding: .utf8) == "old\n")
    }
}
