import Foundation
import TestSupport
import Testing

@Suite struct StorefrontCommandTests {
    @Test(arguments: [
        (["format", "1200", "--storefront", "JPN"], "\u{FFE5}1,200\n"),
        (["format", "1200", "--storefront", "jp"], "\u{FFE5}1,200\n"),
        (["format", "1200", "--storefront", "143462"], "\u{FFE5}1,200\n"),
        (["format", "0.99", "--storefront", "USA"], "$0.99\n"),
        (["format", "0.99", "--storefront", "BHS"], "US$0.99\n"),
        (["format", "9.99", "--storefront", "CAN", "--language", "fr"], "9,99\u{00A0}$\n"),
        (["format", "0.99", "--account", "usa-en-gb-device"], "$0.99\n"),
        (["format", "1200", "--account", "jpn-en-device"], "\u{FFE5}1,200\n"),
        (["format", "0.99", "--account", "usa-en-gb-device", "--label", "Buy %@"], "Buy $0.99\n"),
        (["format", "0.99", "--account", "usa-ar-device", "--label", "اشترِ %@"], "اشترِ \u{2068}$0.99\u{2069}\n"),
        (["format", "9.99", "--account", "are-en-device", "--label", "Buy %@", "--escape"],
         "Buy \\u{2068}\\u{200F}9.99\\u{00A0}\\u{062F}.\\u{0625}.\\u{200F}\\u{2069}\n"),
    ])
    func formatsAsTheStorefrontOrTesterSees(_ arguments: [String], _ expected: String) throws {
        let run = try runStorePrice(arguments)
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.output, expected, arguments.joined(separator: " "))
    }

    @Test func listsEveryStorefrontAsCSV() throws {
        let run = try runStorePrice(["storefronts", "--format", "csv"])
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == 176)
        #expect(lines[0] == "alpha2,alpha3,storefront_id,name,currency,languages,price_locale")
        #expect(lines.contains("JP,JPN,143462,Japan,JPY,ja;en-US,ja_JP@currency=JPY"))
        #expect(lines.contains("BS,BHS,143539,Bahamas,USD,en-GB,en_BS@currency=USD"))
    }

    @Test func csvEqualsTheReference() throws {
        let run = try runStorePrice(["storefronts", "--format", "csv"])
        let ours = run.output.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).prefix(6).joined(separator: ",") }
        let reference = try String(contentsOf: Self.reference, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(ours == reference)
    }

    static let reference = repositoryFile("Tests/Fixtures/reference/storefronts.csv")

    @Test func showsOneStorefront() throws {
        let run = try runStorePrice(["storefronts", "JPN"])
        #expect(run.status == 0)
        expectBytes(run.output, """
            ALPHA2  ALPHA3  STOREFRONT ID  NAME   CURRENCY  LANGUAGES  PRICE LOCALE
            JP      JPN     143462         Japan  JPY       ja;en-US   ja_JP@currency=JPY

            """)
        let record = #"{"alpha2":"JP","alpha3":"JPN","storefront_id":143462,"name":"Japan","currency":"JPY","languages":["ja","en-US"],"price_locale":"ja_JP@currency=JPY"}"#
        expectBytes(try runStorePrice(["storefronts", "143462", "--format", "json"]).output, "[\n" + record + "\n]\n")
        expectBytes(try runStorePrice(["storefronts", "143462", "--format", "jsonl"]).output, record + "\n")
    }

    /// One vocabulary: JSON keys, CSV columns and table headers are the same names in every format.
    @Test(arguments: [["storefronts"], ["accounts"], ["sandbox-schedule", "--period", "P1W", "--start", "2026-11-22T09:00:00Z"]])
    func everyFormatNamesTheFieldsAlike(_ command: [String]) throws {
        let csv = try runStorePrice(command + ["--format", "csv"]).output
        let header = csv.prefix { $0 != "\n" }.split(separator: ",").map(String.init)
        let table = try runStorePrice(command + ["--format", "table"]).output.split(separator: "\n")
            .first { $0.hasPrefix(header[0].uppercased()) }.map(String.init) ?? ""
        let json = try runStorePrice(command + ["--format", "json"]).standardOutput
        let objects = try #require(try JSONSerialization.jsonObject(with: json) as? [[String: Any]])
        let lines = try runStorePrice(command + ["--format", "jsonl"]).output.split(separator: "\n")
        #expect(lines.count == objects.count && objects.count == csv.split(separator: "\n").count - 1)
        for key in objects[0].keys {
            #expect(header.contains(key), "\(command): JSON key \(key) is not a CSV column \(header)")
            // An accounts table leaves out the long descriptions.
            if key != "description" {
                #expect(table.contains(key.uppercased().replacingOccurrences(of: "_", with: " ")), "\(command): \(key) not in \(table)")
            }
            #expect(lines[0].contains("\"\(key)\":"), "\(command): \(key)")
        }
    }

    @Test func listsAccounts() throws {
        let run = try runStorePrice(["accounts", "--format", "csv"])
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n")
        #expect(lines[0] == "name,email,storefront,store_language,device_locale,description,currency,price_locale")
        #expect(lines.contains("usa,sandbox+usa@example.com,USA,,,,USD,en_US@currency=USD"))
        #expect(lines.contains(
            "can-fr,sandbox+can-fr@example.com,CAN,fr,,A Canadian-store tester whose store language is French: prices in fr_CA with CAD.,CAD,fr_CA@currency=CAD"))
        #expect(lines.count == 1 + 181)
    }

    @Test func usesAUsersAccountsFile() throws {
        let file = try temporaryFile(#"[{"name": "qa", "email": "qa@example.com", "storefront": "TUR"}]"#)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try runStorePrice(["format", "12.99", "--account", "qa", "--accounts", file.path])
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.output, "₺12,99\n")
        let list = try runStorePrice(["accounts", "--accounts", file.path, "--format", "json"])
        expectBytes(list.output, """
            [
            {"name":"qa","email":"qa@example.com","storefront":"TUR","store_language":null,"device_locale":null,"description":null}
            ]

            """)
    }

    @Test func refusesAPasswordBearingAccountsFile() throws {
        let file = try temporaryFile(#"[{"name": "qa", "email": "qa@example.com", "storefront": "USA", "password": "hunter2"}]"#)
        defer { try? FileManager.default.removeItem(at: file) }
        for arguments in [["accounts", "--accounts", file.path], ["format", "1", "--account", "qa", "--accounts", file.path]] {
            let run = try runStorePrice(arguments)
            #expect(run.status == 65)
            #expect(run.output.isEmpty)
            expectBytes(run.error, """
                storeprice: accounts file '\(file.path)', entry 1 ('qa'): has a 'password' field; an accounts file never holds \
                passwords or other secrets (keep them in a keychain or your CI's secret store)

                """)
            #expect(!run.error.contains("hunter2"))
        }
    }

    @Test(arguments: [
        (["format", "1", "--storefront", "JPX"], "storeprice: unknown storefront 'JPX'; did you mean JPN?\n"),
        (["storefronts", "Atlantis"],
         "storeprice: unknown storefront 'Atlantis'; use a numeric ID (143462), an alpha-3 (JPN) or an alpha-2 (JP) code\n"),
        (["format", "1", "--account", "nobody"], "storeprice: no test account named 'nobody' in 'built-in'\n"),
        (["format", "1", "--storefront", "CAN", "--language", "xx"],
         "storeprice: unsupported locale 'xx': ICU has no locale data for language 'xx'\n"),
        (["format", "1.5", "--storefront", "JPN"], "storeprice: '1.5' needs 1 fraction digit; JPY prices are whole amounts; give a rounding, such as half-even, to round it (--rounding half-even)\n"),
        (["format", "1", "--account", "usa", "--label", "Buy"], "storeprice: label 'Buy' has no %@ for the price\n"),
        (["accounts", "--accounts", "/nonexistent.json"],
         "storeprice: cannot read '/nonexistent.json': No such file or directory\n"),
        (["accounts", "--accounts", "/"], "storeprice: cannot read '/': Is a directory\n"),
    ])
    func badDataIsOneLineAndStatus65(_ arguments: [String], _ message: String) throws {
        let run = try runStorePrice(arguments)
        #expect(run.status == 65)
        expectBytes(run.error, message, arguments.joined(separator: " "))
    }

    @Test(arguments: [
        ["format", "1", "--language", "fr"],
        ["format", "1", "--storefront", "JPN", "--locale", "ja_JP@currency=JPY"],
        ["format", "1", "--accounts", "x.json", "--storefront", "JPN"],
        ["format", "--batch", "--storefront", "JPN"],
        ["storefronts", "--format", "xml"],
    ])
    func conflictingOptionsAreUsageErrors(_ arguments: [String]) throws {
        let run = try runStorePrice(arguments)
        #expect(run.status == 64, "\(arguments)")
    }

    private func temporaryFile(_ contents: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("storeprice-\(UUID().uuidString).json")
        try Data(contents.utf8).write(to: url)
        return url
    }
}

@Suite struct HelpExitStatusTests {
    @Test(arguments: ["format", "render", "snapshot", "verify", "storefronts", "accounts", "sandbox-schedule"])
    func everySubcommandsHelpListsItsExitStatuses(_ command: String) throws {
        let help = try runStorePrice([command, "--help"]).output.replacingOccurrences(of: "\n", with: " ")
        #expect(help.contains("Exit status"), "\(command)")
        #expect(help.contains("64") && help.contains("usage error"), "\(command)")
        #expect(help.contains("74"), "\(command)")
    }

    static let failingRuns: [([String], Int32)] = [
        (["storefronts", "XXX"], 65),
        (["sandbox-schedule", "--period", "P1X"], 65),
        (["sandbox-schedule", "--period", "P3D"], 65),
        (["format", "120.5", "--storefront", "JPN"], 65),
        (["format", "1", "--storefront", "JPN", "--display", "nope"], 64),
        (["render", "/nonexistent/catalog.csv"], 65),
        (["accounts", "--accounts", "/nonexistent/accounts.json"], 65),
    ]

    /// A status a subcommand ends with is one its help lists.
    @Test(arguments: failingRuns)
    func aStatusASubcommandEndsWithIsInItsHelp(_ arguments: [String], _ status: Int32) throws {
        let run = try runStorePrice(arguments)
        #expect(run.status == status, "\(arguments): \(run.error)")
        let help = try runStorePrice([arguments[0], "--help"]).output.replacingOccurrences(of: "\n", with: " ")
        let listed = try #require(help.range(of: "Exit status:")).upperBound
        #expect(help[listed...].contains(" \(status) "), "\(arguments[0]) --help does not list \(status)")
    }
}

@Suite struct AccountsExportTests {
    @Test func theJSONListingIsAnAccountsFileThatReadsBackTheSame() throws {
        let exported = try runStorePrice(["accounts", "--format", "json"])
        #expect(exported.status == 0)
        #expect(exported.output.contains(#"{"name":"can-fr","email":"sandbox+can-fr@example.com","storefront":"CAN","store_language":"fr","device_locale":null,"description":"#))
        let directory = try temporaryDirectory()
        let file = directory.appendingPathComponent("testers.json")
        try Data(exported.output.utf8).write(to: file)
        let again = try runStorePrice(["accounts", "--accounts", file.path, "--format", "json"])
        #expect(again.status == 0, "\(again.error)")
        expectBytes(again.output, exported.output)
    }
}

@Suite struct HelpExampleTests {
    @Test(arguments: ["format", "paywall", "render", "snapshot", "verify", "storefronts", "accounts", "sandbox-schedule", "asc pull"])
    func examplesAreNotReWrappedMidCommand(_ command: String) throws {
        let help = try runStorePrice(command.split(separator: " ").map(String.init) + ["--help"], environment: ["COLUMNS": "80"]).output
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "Examples:"), "no examples for \(command)")
        for line in lines[(start + 1)...].prefix(while: { !$0.isEmpty }) {
            // An example, or the indented rest of one after a trailing backslash: never text
            // that argument-parser wrapped to the margin.
            #expect(line.hasPrefix("  "), "\(command): \(line)")
        }
    }
}

@Suite struct UnknownSubcommandTests {
    @Test(arguments: [
        ("rendr", "Error: Unknown command 'rendr'. Did you mean 'render'?\n"),
        ("acounts", "Error: Unknown command 'acounts'. Did you mean 'accounts'?\n"),
        ("sandbox", "Error: Unknown command 'sandbox'. Did you mean 'sandbox-schedule'?\n"),
        ("zzzz\u{1B}[2J", "Error: Unknown command 'zzzz\\u{001B}[2J'.\n"),
        ("RENDER", "Error: Unknown command 'RENDER'. Did you mean 'render'?\n"),
        // A line break in a typed value cannot start a line of its own.
        ("x\nstoreprice: fake", "Error: Unknown command 'x\\u{000A}storeprice: fake'.\n"),
    ])
    func suggestsTheNearestSubcommand(_ typed: String, _ first: String) throws {
        let run = try runStorePrice([typed, "x"])
        #expect(run.status == 64)
        expectBytes(run.error, first + """
            Usage: storeprice <subcommand>; the subcommands are format, paywall, render, snapshot, verify, storefronts, accounts, sandbox-schedule, asc, play.
              See 'storeprice --help' for more information.

            """)
    }

    @Test func helpForAnUnknownSubcommandSuggestsOne() throws {
        let run = try runStorePrice(["help", "rendr"])
        #expect(run.status == 64)
        #expect(run.error.hasPrefix("Error: Unknown command 'rendr'. Did you mean 'render'?\n"), "\(escaped(run.error))")
    }

    /// An apostrophe in a typed value cannot end its quoting early and let the rest through uncut
    /// and unescaped.
    @Test(arguments: [["accounts", "--format"], ["storefronts", "--format"]])
    func usageErrorsQuoteValuesEscapedAndCut(_ arguments: [String]) throws {
        let value = "a'" + String(repeating: "y", count: 10_000) + "\nstoreprice: fake"
        let run = try runStorePrice(arguments + [value])
        #expect(run.status == 64)
        #expect(run.error.utf8.count < 1_000, "\(run.error.utf8.count) bytes")
        #expect(!run.error.contains("\nstoreprice: fake"), "\(escaped(run.error))")
        #expect(run.error.hasPrefix("Error: The value 'a\\u{0027}yyyy"), "\(escaped(run.error))")
    }

    @Test func everySubcommandStillRuns() throws {
        for name in ["format", "render", "snapshot", "verify", "storefronts", "accounts", "sandbox-schedule", "help"] {
            let run = try runStorePrice([name, "--help"])
            #expect(run.status == 0, "\(name): \(run.error)")
        }
    }
}
