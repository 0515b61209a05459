import Foundation
import TestSupport
import Testing

/// Standard descriptors closed or redirected at start, special files as outputs, and usage
/// messages that say the right thing in one piece: classes from the second hostile review.
@Suite struct DescriptorAndMessageTests {
    /// Runs a shell line with `$SP` set to the built executable.
    func shell(_ line: String) throws -> ProcessOutput {
        var environment = ProcessInfo.processInfo.environment
        environment["SP"] = try storePriceExecutable().path
        return try runProcess("/bin/bash", ["-c", line], environment: environment)
    }

    /// With standard error closed (`2>&-`, to silence notes), the output file must not take
    /// descriptor 2 and get the notes and summary among its rows; nor 0 or 1 when they are closed.
    @Test(arguments: ["2>&-", "<&- 2>&-", ">&- 2>&-", "<&-"])
    func aClosedStandardDescriptorIsTakenByNoFile(_ closing: String) throws {
        let directory = try temporaryDirectory()
        let output = directory.appendingPathComponent("out.jsonl").path
        let catalog = repositoryFile("Data/catalog-sample.storekit").path
        let run = try shell(#""$SP" render '\#(catalog)' --storefronts USA,JPN --output '\#(output)' \#(closing)"#)
        #expect(run.status == 0, "\(run.error)")
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.hasPrefix(#"{"product":"#) }, "\(lines.filter { !$0.hasPrefix("{") }.prefix(2))")
    }

    /// Help, version and completion scripts are output too: a failed write is status 74.
    @Test(arguments: ["--version", "--help", "--generate-completion-script zsh", "format --help"])
    func helpAndVersionToAFullDiskFail(_ arguments: String) throws {
        let run = try shell(#""$SP" \#(arguments) > /dev/full"#)
        #expect(run.status == 74, "\(run.error)")
        #expect(run.error.hasPrefix("storeprice: cannot write standard output: "), "\(run.error)")
    }

    /// `/dev/stdout` and process substitution (`/dev/fd/63`) lead to a pipe, which is no path:
    /// written directly, as the README promises for FIFOs and devices.
    @Test(arguments: [
        #""$SP" render "$C" --storefronts USA --output /dev/stdout | wc -l"#,
        #""$SP" snapshot "$C" --output /dev/stdout | wc -l"#,
        #""$SP" verify "$G" --report /dev/stdout | grep -c '<html'"#,
    ])
    func aPipeBehindAPathIsWrittenDirectly(_ line: String) throws {
        let catalog = repositoryFile("Data/catalog-sample.jsonl").path
        let golden = repositoryFile("Data/golden/catalog-sample.built-in.jsonl").path
        let run = try shell("C='\(catalog)' G='\(golden)'; set -o pipefail; " + line)
        #expect(run.status == 0, "\(run.error)")
        #expect((Int(run.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 0, "\(run.output)")
    }

    @Test func processSubstitutionIsWrittenDirectly() throws {
        let directory = try temporaryDirectory()
        let catalog = repositoryFile("Data/catalog-sample.jsonl").path
        let compressed = directory.appendingPathComponent("rows.gz").path
        let run = try runProcess(
            "/bin/bash",
            ["-c", #""$SP" render '\#(catalog)' --storefronts USA --output >(gzip > '\#(compressed)'); status=$?; wait; exit $status"#],
            environment: ["SP": try storePriceExecutable().path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
        #expect(run.status == 0, "\(run.error)")
        let rows = try shell("sleep 0.2; gzip -dc '\(compressed)' | wc -l")
        #expect(Int(rows.output.trimmingCharacters(in: .whitespacesAndNewlines)) == 31, "\(rows.output)")
    }

    /// Usage messages in one piece: an apostrophe in the CLI's own words ("locale's") is no quote,
    /// so nothing is cut, and no line break is written as `\u{000A}`.
    @Test(arguments: [
        ["format", "0.99", "--storefront", "USA", "--display", "ISO"],
        ["format", "0.99", "--storefront", "USA", "--period", "P1M", "--period-style", "tiny"],
        ["format", "--batch", "--storefront", "JPN"],
    ])
    func usageMessagesAreWholeWithTheirUsageLines(_ arguments: [String]) throws {
        let run = try runStorePrice(arguments)
        #expect(run.status == 64)
        #expect(!run.error.contains("\\u{000A}"), "\(run.error)")
        #expect(!run.error.contains("\\u{0027}"), "\(run.error)")
        #expect(run.error.contains("\nUsage: storeprice format"), "\(run.error)")
    }

    @Test func theDisplayMessageKeepsItsApostrophes() throws {
        let run = try runStorePrice(["format", "0.99", "--storefront", "USA", "--display", "ISO"])
        #expect(run.error.contains("How to show the currency: the locale's symbol (US$), its narrow symbol ($)"), "\(run.error)")
    }

    /// After `--` nothing is an option; one written there is named with where it belongs.
    @Test func anOptionAfterTheEndOfOptionsIsNamedAsSuch() throws {
        let run = try runStorePrice(["format", "--", "-1.99", "--storefront", "USA"])
        #expect(run.status == 64)
        #expect(run.error.hasPrefix(
            "Error: '--storefront' comes after '--', which ends the options; put options before it, such as 'storeprice format --storefront … -- -1.99'.\n"),
            "\(run.error)")
        let fine = try runStorePrice(["format", "--storefront", "USA", "--", "-1.99"])
        expectBytes(fine.output, "-$1.99\n")
    }

    /// An out-of-range option is a usage error naming the option, not a data error blaming a
    /// valid period; impossible or out-of-range times are errors naming the field.
    @Test(arguments: [
        (["--period", "P1M", "--renewals", "5000"], "Error: --renewals 5000 is out of range; give 0 to 1000."),
        (["--period", "P1M", "--renewals=-1"], "Error: --renewals -1 is out of range; give 0 to 1000."),
        (["--period", "P1M", "--start", "2026-02-30T09:00:00Z"],
         "Error: --start '2026-02-30T09:00:00Z' has no such day; give a real time such as 2026-11-22T09:00:00Z."),
        (["--period", "P1M", "--start", "2025-02-29T09:00:00Z"],
         "Error: --start '2025-02-29T09:00:00Z' has no such day; give a real time such as 2026-11-22T09:00:00Z."),
        (["--period", "P1M", "--start", "2026-01-01T09:00:60Z"],
         "Error: --start '2026-01-01T09:00:60Z' has no such second; give a real time such as 2026-11-22T09:00:00Z."),
        (["--period", "P1M", "--start", "2026-13-01T09:00:00Z"],
         "Error: --start '2026-13-01T09:00:00Z' has no such month; give a real time such as 2026-11-22T09:00:00Z."),
        (["--period", "P1M", "--start", "2026-01-01T24:00:00Z"],
         "Error: --start '2026-01-01T24:00:00Z' has no such hour; give a real time such as 2026-11-22T09:00:00Z."),
        (["--period", "P1M", "--start", "2026-01-01T09:00:00.250Z"],
         "Error: --start '2026-01-01T09:00:00.250Z' has a fraction of a second; renewals are whole seconds, such as 2026-11-22T09:00:00Z."),
        (["--period", "P1Y", "--start", "9999-12-31T20:00:00Z"],
         "Error: --start '9999-12-31T20:00:00Z' is too late: the schedule would end after 9999-12-31T23:59:59Z."),
        (["--period", "P1M", "--start", "0001-01-01T00:30:00+01:00"],
         "Error: --start '0001-01-01T00:30:00+01:00' is out of range; give a time from 0001-01-01T00:00:00Z to "
            + "9999-12-31T23:59:59Z in UTC."),
        (["--period", "P1M", "--start", "1900-02-29T00:00:00Z"],
         "Error: --start '1900-02-29T00:00:00Z' has no such day; give a real time such as 2026-11-22T09:00:00Z."),
    ])
    func sandboxScheduleRefusesImpossibleInput(_ arguments: [String], _ firstLine: String) throws {
        let run = try runStorePrice(["sandbox-schedule"] + arguments)
        #expect(run.status == 64)
        expectBytes(String(run.error.prefix { $0 != "\n" }), firstLine)
        #expect(run.output.isEmpty)
    }

    /// One calendar, the proleptic Gregorian of ISO 8601, for every time typed and written: no
    /// Julian switch moves 1582-10-10, and year 1 is a year like any other.
    @Test(arguments: [
        ("1582-10-10T00:00:00Z", "1582-10-10T00:00:00Z"), ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"),
        ("1600-02-29T12:00:00-05:30", "1600-02-29T17:30:00Z"), ("2026-11-22T09:00:00+09:00", "2026-11-22T00:00:00Z"),
    ])
    func aTimeIsTheProlepticGregorianTime(_ start: String, _ utc: String) throws {
        let run = try runStorePrice(["sandbox-schedule", "--period", "P1M", "--start", start, "--renewals", "1", "--format", "csv"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("0,purchase,\(utc)\n"), "\(run.output)")
    }

    @Test func aLeapDayIsARealDay() throws {
        let run = try runStorePrice(["sandbox-schedule", "--period", "P1M", "--start", "2024-02-29T09:00:00Z", "--format", "csv"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("0,purchase,2024-02-29T09:00:00Z"), "\(run.output)")
    }

    /// A run that leaves something out says so: an empty catalog, and a `.storekit` offer whose
    /// `displayPrice` is empty (no price in the file's storefront).
    @Test(arguments: ["csv", "jsonl", "table"])
    func anEmptyCatalogIsNoted(_ format: String) throws {
        let directory = try temporaryDirectory()
        let catalog = directory.appendingPathComponent(format == "jsonl" ? "empty.jsonl" : "empty.csv")
        try Data((format == "jsonl" ? "" : "product,storefront,price\n").utf8).write(to: catalog)
        let run = try runStorePrice(["render", catalog.path, "--storefronts", "USA", "--format", format == "table" ? "table" : "jsonl"])
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.error, "storeprice: note: catalog '\(catalog.path)' has no products; nothing was rendered\n")
    }

    @Test func anOfferWithoutAPriceIsNoted() throws {
        let text = try String(contentsOf: repositoryFile("Data/catalog-sample.storekit"), encoding: .utf8)
        var json = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var groups = try #require(json["subscriptionGroups"] as? [[String: Any]])
        var subscriptions = try #require(groups[0]["subscriptions"] as? [[String: Any]])
        let index = try #require(subscriptions.firstIndex { $0["introductoryOffer"] is [String: Any] })
        var offer = try #require(subscriptions[index]["introductoryOffer"] as? [String: Any])
        offer["paymentMode"] = "payAsYouGo"
        offer["displayPrice"] = ""
        subscriptions[index]["introductoryOffer"] = offer
        groups[0]["subscriptions"] = subscriptions
        json["subscriptionGroups"] = groups
        let file = try temporaryDirectory().appendingPathComponent("intro.storekit")
        try JSONSerialization.data(withJSONObject: json).write(to: file)
        let id = try #require(subscriptions[index]["productID"] as? String)
        let run = try runStorePrice(["render", file.path, "--storefronts", "USA"])
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.error, "storeprice: note: product '\(id)': introductoryOffer has no displayPrice, so no price in USA; it is left out\n")
    }

    /// Two spellings of one text are two products, in every path; a message about one shows what
    /// tells it apart (the combining mark escaped).
    @Test(arguments: ["jsonl", "table"])
    func aRepeatedDecomposedIDIsShownEscaped(_ format: String) throws {
        let file = try temporaryDirectory().appendingPathComponent("c.csv")
        try Data("product,storefront,price\ncom.example.\u{E9},USA,0.99\ncom.example.e\u{301},USA,1.99\ncom.example.e\u{301},JPN,160\ncom.example.\u{E9},JPN,160\n".utf8)
            .write(to: file)
        let run = try runStorePrice(["render", "--any-product-id", file.path, "--storefronts", "USA,JPN", "--format", format])
        #expect(run.status == 65)
        expectBytes(run.error, "storeprice: catalog '\(file.path)', line 5: product 'com.example.\u{E9}' again; line 2 has it; keep each product's rows together\n")
        let decomposed = try temporaryDirectory().appendingPathComponent("d.csv")
        try Data("product,storefront,price\ncom.example.e\u{301},USA,0.99\ncom.example.\u{E9},USA,1.99\ncom.example.e\u{301},JPN,160\n".utf8)
            .write(to: decomposed)
        if format == "table" {
            let two = try temporaryDirectory().appendingPathComponent("two.csv")
            try Data("product,storefront,price\ncom.example.\u{E9},USA,0.99\ncom.example.e\u{301},USA,1.99\n".utf8).write(to: two)
            let table = try runStorePrice(["render", "--any-product-id", two.path, "--storefronts", "USA", "--format", "table"])
            #expect(table.output.contains("com.example.e\\u{0301} "), "two IDs that differ look different in a table")
        }
        let again = try runStorePrice(["render", "--any-product-id", decomposed.path, "--storefronts", "USA,JPN", "--format", format])
        #expect(again.status == 65)
        expectBytes(again.error, "storeprice: catalog '\(decomposed.path)', line 4: product 'com.example.e\\u{0301}' again; line 2 has it; keep each product's rows together\n")
    }

    /// `/dev/stdout` is the descriptor this run has, shared: appending to a file keeps what was in
    /// it, and commands around it in one redirection keep their lines.
    @Test func devStdoutAppendsToTheFileStandardOutputIs() throws {
        let directory = try temporaryDirectory()
        let file = directory.appendingPathComponent("log").path
        let catalog = repositoryFile("Data/catalog-sample.jsonl").path
        let run = try shell(#"echo PRE > '\#(file)'; { echo A; "$SP" render '\#(catalog)' --storefronts USA --output /dev/stdout; echo B; } >> '\#(file)'"#)
        #expect(run.status == 0, "\(run.error)")
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "PRE" && lines.dropFirst().first == "A" && lines.last == "B", "\(lines.prefix(3)) … \(lines.suffix(1))")
        #expect(lines.count == 3 + 31)
    }

    /// With standard output closed, output fails as it always did (74), rather than vanish into
    /// the /dev/null that holds descriptor 1.
    @Test(arguments: [#""$SP" --version >&-"#, #""$SP" format 1 --storefront USA >&-"#, #""$SP" storefronts >&-"#])
    func aClosedStandardOutputIsStatus74(_ line: String) throws {
        let run = try shell(line)
        #expect(run.status == 74, "\(run.error)")
    }

    /// The price billed is checked before it is restated: more digits than it shows is an error
    /// without --rounding, with --per as without.
    @Test(arguments: [["0.5", "--storefront", "JPN"], ["0.999", "--storefront", "USA"]])
    func perDoesNotRoundTheBilledPriceSilently(_ arguments: [String]) throws {
        let run = try runStorePrice(["format"] + arguments + ["--period", "P1M", "--per", "week"])
        #expect(run.status == 65, "\(run.output)")
        #expect(run.output.isEmpty)
    }

    /// An option after `--` in any subcommand is named as such.
    @Test(arguments: [
        (["render", "--", "Data/catalog-sample.csv", "--format", "table"], "--format"),
        (["sandbox-schedule", "--", "--period", "P1M"], "--period"),
        (["verify", "--", "g.jsonl", "--junit", "x.xml"], "--junit"),
    ])
    func anOptionAfterTheEndOfOptionsIsNamedInEveryCommand(_ arguments: [String], _ option: String) throws {
        let run = try runStorePrice(arguments)
        #expect(run.status == 64)
        expectBytes(run.error, "Error: '\(option)' comes after '--', which ends the options; put options before it.\n")
    }

    @Test(arguments: [
        ("2026-01-01T09:00:00+25:00", "Error: --start '2026-01-01T09:00:00+25:00' has no such UTC offset; give Z or one such as +09:00, such as 2026-11-22T09:00:00Z."),
        ("\u{FF12}\u{FF10}\u{FF12}\u{FF16}-01-01T09:00:00Z", "Error: --start '\u{FF12}\u{FF10}\u{FF12}\u{FF16}-01-01T09:00:00Z' is not an ISO 8601 time such as 2026-11-22T09:00:00Z."),
    ])
    func startTimesNameTheirProblem(_ start: String, _ firstLine: String) throws {
        let run = try runStorePrice(["sandbox-schedule", "--period", "P1M", "--start", start])
        #expect(run.status == 64)
        expectBytes(String(run.error.prefix { $0 != "\n" }), firstLine)
    }

    @Test func aTooLateStartShowsItsCommandsUsage() throws {
        let run = try runStorePrice(["sandbox-schedule", "--period", "P1Y", "--start", "9999-12-31T23:00:00Z"])
        #expect(run.status == 64)
        #expect(run.error.contains("\nUsage: storeprice sandbox-schedule"), "\(run.error)")
    }

    @Test func aHeaderWithSpacesAfterItsCommasIsNamed() throws {
        let file = try temporaryDirectory().appendingPathComponent("c.csv")
        try Data("product, storefront, price\na,USA,1\n".utf8).write(to: file)
        let run = try runStorePrice(["render", file.path, "--storefronts", "USA"])
        #expect(run.status == 65)
        expectBytes(run.error, "storeprice: catalog '\(file.path)', line 1: the header has spaces around its names (' storefront', ' price'); write it product,storefront,price\n")
    }

    /// A product list that keeps none of the catalog's products names the listed IDs it lacks;
    /// the catalog is not said to be empty.
    @Test func aListMatchingNothingIsNoEmptyCatalog() throws {
        let list = try temporaryDirectory().appendingPathComponent("list.json")
        try Data(#"["com.nope"]"#.utf8).write(to: list)
        let run = try runStorePrice(["render", repositoryFile("Data/catalog-sample.csv").path, "--storefronts", "USA", "--products", list.path])
        #expect(!run.error.contains("has no products"), "\(run.error)")
        #expect(run.error.contains("com.nope"), "\(run.error)")
    }

    /// `format` quotes the amount as typed and names the option a bad period came from.
    @Test(arguments: [
        (["format", "4.80", "--storefront", "JPN"],
         "storeprice: '4.80' needs 1 fraction digit; JPY prices are whole amounts; give a rounding, such as half-even, to round it (--rounding half-even)\n"),
        (["format", "1", "--storefront", "JPN", "--period", "P1M", "--per", "fortnight"],
         "storeprice: invalid period 'fortnight': not a unit (day, week, month, year) or an ISO 8601 period such as P1M (--per)\n"),
        (["format", "1", "--storefront", "JPN", "--period", "p1m"],
         "storeprice: invalid period 'p1m': an ISO 8601 period starts with 'P', such as P1M or P1Y (--period)\n"),
    ])
    func formatSaysWhatWasTyped(_ arguments: [String], _ message: String) throws {
        let run = try runStorePrice(arguments)
        #expect(run.status == 65)
        expectBytes(run.error, message)
    }
}
