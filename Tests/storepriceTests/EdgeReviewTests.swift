import Foundation
import TestSupport
import Testing

/// Cases a hostile review found at the edges: snapshot headers that name standard input, what a
/// snapshot header says about versions, output paths that are link loops or set-user-ID files,
/// signals a user chose to ignore, and usage errors that echo what was typed.
@Suite struct EdgeReviewTests {
    func header(catalog: String, icu: String = "72.1") -> String {
        #"{"storeprice_snapshot":2,"storeprice":"0.1.0","icu":"\#(icu)","cldr":"42.0","catalog":"\#(catalog)","#
            + #""catalog_format":"csv","accounts":null,"display":"symbol","rounding":"reject","rows":0}"# + "\n"
    }

    @Test func aHeaderPathThatComesToADashIsAFileNotStandardInput() throws {
        let repository = try temporaryDirectory()
        try FileManager.default.createDirectory(at: repository.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: repository.appendingPathComponent("a/b"), withIntermediateDirectories: true)
        let golden = repository.appendingPathComponent("a/b/golden.jsonl")
        try header(catalog: "../../-").write(to: golden, atomically: true, encoding: .utf8)
        // Standard input holds a catalog: reading it would be wrong, waiting for it worse.
        let run = try runStorePrice(["verify", golden.path], input: Data("product,storefront,price\nx,USA,1\n".utf8))
        #expect(run.status == 65)
        // The path came from the header: the message says so, and how to name the catalog.
        #expect(run.error.hasPrefix("storeprice: snapshot '\(golden.path)', line 1: the header's catalog '"), "\(run.error)")
        #expect(run.error.hasSuffix("-' cannot be read (No such file or directory); if it moved, name it with --catalog\n"), "\(run.error)")
    }

    @Test func aHeaderPathIsOpenedAsTheFileItLedToWhenChecked() throws {
        // A link swapped after the check is not followed again: the path opened is the target's.
        let repository = try temporaryDirectory()
        try FileManager.default.createDirectory(at: repository.appendingPathComponent(".git"), withIntermediateDirectories: true)
        let target = repository.appendingPathComponent("real.csv")
        try "product,storefront,price\nx,USA,1\n".write(to: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: repository.appendingPathComponent("link.csv"), withDestinationURL: target)
        let golden = repository.appendingPathComponent("golden.jsonl")
        try header(catalog: "link.csv").write(to: golden, atomically: true, encoding: .utf8)
        let run = try runStorePrice(["verify", golden.path])
        // The golden has no rows: the catalog's rows are reported as added, read from the target.
        #expect(run.status == 1, "\(run.error)")
        #expect(run.output.contains("added"), "\(escaped(run.output))")
    }

    @Test func bothInputsCannotBeStandardInputAndAccountsFromItRecordNull() throws {
        let run = try runStorePrice(["snapshot", "-", "--catalog-format", "jsonl", "--accounts", "-"], input: Data())
        #expect(run.status == 65)
        expectBytes(
            run.error,
            "storeprice: accounts file '-': the catalog is already read from standard input; give the accounts file by name\n")
        let directory = try temporaryDirectory()
        let accounts = repositoryFile("Data/test-accounts.json")
        let golden = directory.appendingPathComponent("g.jsonl")
        let recorded = try runStorePrice(
            ["snapshot", repositoryFile("Data/catalog-sample.jsonl").path, "--accounts", "-", "--output", golden.path],
            input: try Data(contentsOf: accounts))
        #expect(recorded.status == 0, "\(recorded.error)")
        let headerLine = try String(contentsOf: golden, encoding: .utf8).prefix { $0 != "\n" }
        #expect(headerLine.contains(#""accounts":null"#), "\(headerLine)")
    }

    @Test func versionsInAHeaderAndPathsInNotesCannotActOnATerminal() throws {
        let golden = try editedSampleGolden { line in
            line.replacingOccurrences(of: #""icu":"72.1""#, with: #""icu":"72.1\u001b[2J\u001b]52;c;aGk=\u0007\u202e\n forged""#)
        }
        let run = try runStorePrice(["verify", golden.path])
        #expect(!run.output.contains("\u{1B}") && !run.output.contains("\u{202E}") && !run.output.contains("\n forged"),
                "\(escaped(run.output))")
        #expect(run.output.contains(#"ICU 72.1\u{001B}[2J"#), "\(escaped(run.output))")

        let directory = try temporaryDirectory()
        let output = directory.appendingPathComponent("x\u{1B}[2J\u{202E}.jsonl")
        let note = try runStorePrice(["snapshot", repositoryFile("Data/catalog-sample.jsonl").path, "--output", output.path])
        #expect(note.status == 0, "\(note.error)")
        #expect(!note.error.contains("\u{1B}") && note.error.contains(#"x\u{001B}[2J\u{202E}.jsonl"#), "\(escaped(note.error))")
    }

    @Test func anOutputLinkLoopIsRefusedAndSetUserIDIsKept() throws {
        let directory = try temporaryDirectory()
        let a = directory.appendingPathComponent("loopa"), b = directory.appendingPathComponent("loopb")
        try FileManager.default.createSymbolicLink(atPath: a.path, withDestinationPath: b.path)
        try FileManager.default.createSymbolicLink(atPath: b.path, withDestinationPath: a.path)
        let sample = repositoryFile("Data/catalog-sample.jsonl").path
        let loop = try runStorePrice(["render", sample, "--storefronts", "USA", "--output", a.path])
        #expect(loop.status == 73)
        expectBytes(loop.error, "storeprice: cannot write '\(a.path)': Too many levels of symbolic links\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: a.path) == b.path)

        let file = directory.appendingPathComponent("prices.jsonl")
        try Data("old\n".utf8).write(to: file)
        chmod(file.path, 0o4755)
        let run = try runStorePrice(["render", sample, "--storefronts", "USA", "--output", file.path])
        #expect(run.status == 0, "\(run.error)")
        var info = stat()
        stat(file.path, &info)
        #expect(info.st_mode & 0o7777 == 0o4755)
    }

    @Test(arguments: [("INT", 130), ("HUP", 129)])
    func aSignalIgnoredAtStartStaysIgnored(_ signal: String, _ killedStatus: Int32) throws {
        // storeprice waits on standard input; the signal comes meanwhile; then the input ends.
        let script = #"exec "$1" format --batch < <(sleep 0.5; kill -$2 $$; sleep 0.5)"#
        let ignored = try runProcess("/bin/bash", ["-c", "trap '' \(signal); " + script, "bash", try storePriceExecutable().path, signal])
        #expect(ignored.status == 0, "\(ignored.error)")
        let handled = try runProcess("/bin/bash", ["-c", "trap - \(signal); " + script, "bash", try storePriceExecutable().path, signal])
        #expect(handled.status == killedStatus || handled.status == killedStatus - 128, "\(handled.status)")
    }

    @Test func usageErrorsEscapeAndCutWhatWasTyped() throws {
        let run = try runStorePrice(["render", "x.jsonl", "--format", "\u{1B}[2J\u{1B}]52;c;aGk=\u{07}\u{202E}"])
        #expect(run.status == 64)
        #expect(!run.error.contains("\u{1B}") && !run.error.contains("\u{202E}") && !run.error.contains("\u{07}"))
        #expect(run.error.hasPrefix(#"Error: The value '\u{001B}[2J\u{001B}]52;c;aGk=\u{0007}\u{202E}' is invalid"#), "\(escaped(run.error))")
        let long = try runStorePrice(["render", "x.jsonl", "--format", String(repeating: "A", count: 5_000)])
        #expect(long.status == 64)
        #expect(long.error.hasPrefix("Error: The value '" + String(repeating: "A", count: 64) + "…' is invalid"), "\(long.error.prefix(200))")
        #expect(long.error.utf8.count < 1_000)
    }

    @Test func aBatchLineThatIsNotUTF8IsABadLineAndTheRestGoOn() throws {
        var input = Data("en_US@currency=USD\t1\nen_US@currency=USD\t".utf8)
        input.append(contentsOf: [0xFF, 0x0A])
        input.append(contentsOf: Array("en_US@currency=USD\t2\n".utf8))
        let run = try runStorePrice(["format", "--batch"], input: input)
        #expect(run.status == 65)
        expectBytes(run.output, "en_US@currency=USD\t1\t$1.00\nen_US@currency=USD\t\u{FFFD}\terror: line 2: not valid UTF-8\nen_US@currency=USD\t2\t$2.00\n")
    }

    @Test func aRepeatedKeyIsRefusedInAccountsFilesAndSnapshotsToo() throws {
        let directory = try temporaryDirectory()
        let accounts = directory.appendingPathComponent("a.json")
        try Data(#"[{"name":"a","storefront":"USA","email":"a@example.com","storefront":"JPN"}]"#.utf8).write(to: accounts)
        let run = try runStorePrice(["accounts", "--accounts", accounts.path])
        #expect(run.status == 65)
        expectBytes(
            run.error,
            "storeprice: accounts file '\(accounts.path)': the key '[0].storefront' appears twice in one object; JSON readers keep only one of the two\n")

        let header = try editedSampleGolden { $0.replacingOccurrences(of: #""rows":5608"#, with: #""rows":5608,"rows":1"#) }
        let headerRun = try runStorePrice(["verify", header.path])
        #expect(headerRun.status == 65)
        expectBytes(
            headerRun.error,
            "storeprice: snapshot '\(header.path)', line 1: the key 'rows' appears twice in one object; JSON readers keep only one of the two\n")

        let row = try editedSampleGolden { line in
            line.hasPrefix(#"{"product":"com.example.level1","account":"jpn","#)
                ? line.replacingOccurrences(of: #""amount":"160","#, with: #""amount":"160","amount":"999","#) : line
        }
        let rowRun = try runStorePrice(["verify", row.path])
        #expect(rowRun.status == 65)
        #expect(rowRun.error.hasSuffix(": the key 'amount' appears twice in one object; JSON readers keep only one of the two\n"), "\(rowRun.error)")
    }
}
