import Foundation
import TestSupport
import Testing

/// Every write is checked: a full disk or a file past `ulimit -f` ends the run with one line and a
/// non-zero status, and nothing is replaced; a closed pipe ends it quietly.
@Suite struct WriteFailureTests {
    static let sample = repositoryFile("Data/catalog-sample.jsonl").path
    static let golden = repositoryFile("Data/golden/catalog-sample.built-in.jsonl").path

    /// Runs storeprice through bash, so that a test can redirect, limit and pipe it.
    func shell(_ script: String, _ arguments: [String] = []) throws -> ProcessOutput {
        try runProcess("/bin/bash", ["-c", script, "bash", try storePriceExecutable().path] + arguments)
    }

    @Test(arguments: [
        ["render", sample, "--storefronts", "all"],
        ["render", sample, "--storefronts", "USA", "--format", "csv"],
        // Each catalog grammar reaches standard output by its own path: CSV and .storekit too.
        ["render", repositoryFile("Data/catalog-sample.csv").path, "--storefronts", "all"],
        ["render", repositoryFile("Data/catalog-sample.csv").path, "--storefronts", "USA", "--format", "csv"],
        ["render", repositoryFile("Data/catalog-sample.storekit").path, "--storefronts", "USA"],
        ["render", repositoryFile("Data/catalog-sample.csv").path, "--storefronts", "USA", "--format", "table"],
        ["format", "0.99", "--storefront", "USA"],
        ["snapshot", sample],
        ["verify", golden],
        ["storefronts"],
        ["accounts", "--format", "json"],
    ])
    func standardOutputOnAFullDiskIsStatus74(_ arguments: [String]) throws {
        let run = try shell(#""$@" > /dev/full"#, arguments)
        #expect(run.status == 74)
        expectBytes(run.error, "storeprice: cannot write standard output: No space left on device\n")
    }

    @Test func batchOutputOnAFullDiskIsStatus74() throws {
        let run = try shell(#"printf 'en_US@currency=USD\t1\n' | "$1" format --batch > /dev/full"#)
        #expect(run.status == 74)
        expectBytes(run.error, "storeprice: cannot write standard output: No space left on device\n")
    }

    @Test func anOutputFilePastTheSizeLimitIsStatus73AndTheOldFileStays() throws {
        let directory = try temporaryDirectory()
        let target = directory.appendingPathComponent("prices.jsonl")
        try Data("old\n".utf8).write(to: target)
        // 10 blocks of 1 KiB; the render writes about 1.5 MB. The test runner may ignore SIGXFSZ, and
        // children inherit that: `env --default-signal` restores it, so the test sees what a shell sees.
        let run = try shell(#"ulimit -f 10; exec env --default-signal=XFSZ "$1" render "$2" --storefronts all --output "$3""#, [Self.sample, target.path])
        #expect(run.status == 73)
        expectBytes(run.error, "storeprice: cannot write '\(target.path)': File too large\n")
        #expect(try String(contentsOf: target, encoding: .utf8) == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["prices.jsonl"])
    }

    @Test func aClosedPipeEndsTheRunQuietly() throws {
        let run = try shell(#""$1" render "$2" --storefronts all | head -c 1 > /dev/null; echo "${PIPESTATUS[0]}""#, [Self.sample])
        expectBytes(run.output, "141\n")
        expectBytes(run.error, "")
    }
}
