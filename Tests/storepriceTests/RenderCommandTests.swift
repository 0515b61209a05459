import Foundation
import TestSupport
import Testing

@Suite struct RenderCommandTests {
    static let sample = repositoryFile("Data/catalog-sample.jsonl").path

    @Test func rendersTheSampleForTheBuiltInAccounts() throws {
        let run = try runStorePrice(["render", Self.sample])
        #expect(run.status == 0, "\(run.error)")
        let lines = Set(run.output.split(separator: "\n").map(String.init))
        #expect(run.output.split(separator: "\n").count == 31 * 181 - 3)
        for expected in [
            #"{"product":"com.example.level1","storefront":"JPN","account":"jpn","price_locale":"ja_JP@currency=JPY","amount":"160","formatted":"￥160","title":"レベル1","period":null,"price_per_period":null,"offer":null,"offer_terms":null,"offers":null,"billing_plans":null,"paywall":null}"#,
            #"{"product":"com.example.removeads","storefront":"CAN","account":"can-fr","price_locale":"fr_CA@currency=CAD","amount":"4.99","formatted":"4,99\#u{00A0}$","title":"Retirer les annonces","period":null,"price_per_period":null,"offer":null,"offer_terms":null,"offers":null,"billing_plans":null,"paywall":null}"#,
            #"{"product":"com.example.coins.100","storefront":"SAU","account":"sau","price_locale":"ar_SA@currency=SAR","amount":"3.99","formatted":"\#u{200F}٣٫٩٩\#u{00A0}ر.س.\#u{200F}","title":"100 عملة","period":null,"price_per_period":null,"offer":null,"offer_terms":null,"offers":null,"billing_plans":null,"paywall":null}"#,
            #"{"product":"com.example.pro.monthly","storefront":"JPN","account":"jpn","price_locale":"ja_JP@currency=JPY","amount":"800","formatted":"￥800","title":"Pro 月間","period":"P1M","price_per_period":"￥800/月","offer":"￥160/月（3 か月）","offer_terms":"payAsYouGo:P1Mx3:160","offers":[{"type":"introductory","id":null,"billing_plan":null,"payment_mode":"payAsYouGo","period":"P1M","period_count":3,"price":"160","formatted_price":"￥160","text":"￥160/月（3 か月）","terms":"payAsYouGo:P1Mx3:160"},{"type":"promotional","id":"com.example.pro.winback","billing_plan":null,"payment_mode":"payUpFront","period":"P2M","period_count":1,"price":"300","formatted_price":"￥300","text":"￥300（2 か月）","terms":"payUpFront:P2M:300"}],"billing_plans":[],"paywall":{"billed_amount_first":"￥800/月 (￥184/週)","offer_then_price":"￥160/月（3 か月）、その後￥800/月"}}"#,
            #"{"product":"com.example.pro.yearly","storefront":"DEU","account":"deu","price_locale":"de_DE@currency=EUR","amount":"39.99","formatted":"39,99\#u{00A0}€","title":"Pro jährlich","period":"P1Y","price_per_period":"39,99\#u{00A0}€ pro Jahr","offer":"1 Woche gratis","offer_terms":"free:P1W","offers":[{"type":"introductory","id":null,"billing_plan":null,"payment_mode":"freeTrial","period":"P1W","period_count":1,"price":null,"formatted_price":null,"text":"1 Woche gratis","terms":"free:P1W"}],"billing_plans":[],"paywall":{"billed_amount_first":"39,99\#u{00A0}€ pro Jahr (3,33\#u{00A0}€ pro Monat)","offer_then_price":"1 Woche gratis, danach 39,99\#u{00A0}€ pro Jahr"}}"#,
            #"{"product":"com.example.pro.yearly","storefront":"RUS","account":"rus","price_locale":"ru_RU@currency=RUB","amount":"3799","formatted":"3\#u{00A0}799,00\#u{00A0}₽","title":"Pro Yearly","period":"P1Y","price_per_period":"3\#u{00A0}799,00\#u{00A0}₽ в год","offer":null,"offer_terms":"free:P1W","offers":[{"type":"introductory","id":null,"billing_plan":null,"payment_mode":"freeTrial","period":"P1W","period_count":1,"price":null,"formatted_price":null,"text":null,"terms":"free:P1W"}],"billing_plans":[],"paywall":{"billed_amount_first":"3\#u{00A0}799,00\#u{00A0}₽ в год (316,58\#u{00A0}₽ в месяц)"}}"#,
        ] {
            let found = lines.contains(expected)
            #expect(found, "missing row: \(escaped(expected))")
        }
        expectBytes(run.error, """
            storeprice: invalid product com.example.starter.bundle: no price in CHN
            storeprice: invalid product com.example.gift.card: no price in BLR, RUS
            storeprice: no built-in offer wording for 58 price locales (az_AZ@currency=USD, bg_BG@currency=EUR, bs_BA@currency=EUR, cs_CZ@currency=CZK, da_DK@currency=DKK, dz_BT@currency=USD, el_CY@currency=EUR, el_GR@currency=EUR, …); their offer text is empty (null in JSON Lines) and the offer's terms are written instead
            storeprice: 2 invalid products, with rows only where priced; --strict makes this an error

            """)
    }

    /// Output for nine storefronts, byte for byte as reviewed and checked in under
    /// Tests/Fixtures/expected/, for each catalog format and output format.
    @Test(arguments: ["jsonl", "csv", "storekit"], ["jsonl", "json", "csv", "table"])
    func matchesTheReviewedOutput(_ catalog: String, _ format: String) throws {
        let run = try runStorePrice([
            "render", repositoryFile("Data/catalog-sample.\(catalog)").path,
            "--storefronts", "USA,JPN,DEU,SAU,CHE,IND,BRA,CAN,TWN", "--format", format, "--workers", "1",
        ])
        #expect(run.status == 0, "\(run.error)")
        let expected = try Data(contentsOf: repositoryFile("Tests/Fixtures/expected/catalog-sample.\(catalog).\(format)"))
        #expect(firstDifference(run.standardOutput, expected) == nil, "catalog-sample.\(catalog) as \(format)")
    }

    /// Every storefront, with 1, 2, 3 and 8 workers: the same bytes, whose checksum is pinned
    /// (from the run with 1 worker, whose rows the reviewed outputs above sample).
    @Test(arguments: [("csv", "e0a91d66f8d5190c"), ("jsonl", "83d2771d8c8ceeab"), ("json", "15a023348c2715f3"), ("table", "cece95b7f6a2671c")])
    func isTheSameBytesWithAnyNumberOfWorkers(_ format: String, _ pinned: String) throws {
        var first: Data?
        for workers in [1, 2, 3, 8] {
            let run = try runStorePrice(["render", Self.sample, "--storefronts", "all", "--format", format, "--workers", String(workers)])
            #expect(run.status == 0, "\(run.error)")
            if checksum(run.standardOutput) != pinned {
                let difference = firstDifference(run.standardOutput, first ?? Data()) ?? "same bytes as with 1 worker"
                Issue.record("\(format), \(workers) workers: checksum \(checksum(run.standardOutput)), pinned \(pinned); \(difference)")
            }
            first = first ?? run.standardOutput
        }
    }

    @Test(arguments: ["0", "257", "36028797018963968", "9223372036854775807"])
    func workersAreBounded(_ workers: String) throws {
        let run = try runStorePrice(["render", Self.sample, "--workers", workers])
        #expect(run.status == 64)
        #expect(run.error.contains("--workers must be 1 to 256; found \(workers)."), "\(run.error)")
    }

    @Test func aTableEscapesCatalogTextThatWouldActOnTheTerminal() throws {
        let catalog = try temporaryDirectory().appendingPathComponent("c.jsonl")
        try (#"{"product":"a\u001b[2J","prices":{"USA":"1"},"title":{"en":"x\nstoreprice: all good \u202e"}}"# + "\n")
            .write(to: catalog, atomically: true, encoding: .utf8)
        let run = try runStorePrice(["render", "--any-product-id", catalog.path, "--storefronts", "USA", "--format", "table"])
        #expect(run.status == 0, "\(run.error)")
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == 2, "\(escaped(run.output))")
        #expect(lines.last?.hasPrefix(#"a\u{001B}[2J  USA         en_US@currency=USD  $1.00      x\u{000A}storeprice: all good \u{202E}"#) == true,
                "\(escaped(run.output))")
    }

    /// The list of invalid products on standard error escapes their IDs too, and gives each its
    /// own reason when the reasons change from one product to the next.
    @Test func invalidProductsAreListedWithTheirIDsEscaped() throws {
        let catalog = try temporaryDirectory().appendingPathComponent("c.csv")
        try "product,storefront,price\na\u{1B}[2J\u{202E},USA,1\nb,USA,1\nc,JPN,100\n"
            .write(to: catalog, atomically: true, encoding: .utf8)
        let run = try runStorePrice(["render", "--any-product-id", catalog.path, "--storefronts", "USA,JPN,GBR", "--format", "csv"])
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.error, #"""
            storeprice: invalid product a\u{001B}[2J\u{202E}: no price in GBR, JPN
            storeprice: invalid product b: no price in GBR, JPN
            storeprice: invalid product c: no price in GBR, USA
            storeprice: 3 invalid products, with rows only where priced; --strict makes this an error

            """#)
    }

    /// Catalog text that needs escaping: quotes, backslashes, commas, a tab, a leading '=' and
    /// non-ASCII, in a title.
    @Test func escapesTitlesInJSONLinesAndQuotesThemInCSV() throws {
        let title = "Say \"hi\" \\ back, =SUM(A1)\tnow ✓"
        let catalog = try temporaryDirectory().appendingPathComponent("c.jsonl")
        let encodedTitle = String(decoding: try JSONSerialization.data(withJSONObject: [title], options: []), as: UTF8.self)
            .dropFirst().dropLast()
        try #"{"product":"a,b","prices":{"DEU":"1234.5"},"title":{"de":\#(encodedTitle)}}"#.appending("\n")
            .write(to: catalog, atomically: true, encoding: .utf8)

        let jsonl = try runStorePrice(["render", "--any-product-id", catalog.path, "--storefronts", "DEU", "--format", "jsonl"])
        let object = try JSONSerialization.jsonObject(with: jsonl.standardOutput) as? [String: Any]
        #expect(object?["title"] as? String == title)
        #expect(object?["product"] as? String == "a,b")
        #expect(object?["formatted"] as? String == "1.234,50\u{00A0}€")

        let csv = try runStorePrice(["render", "--any-product-id", catalog.path, "--storefronts", "DEU", "--format", "csv"])
        let row = csv.output.split(separator: "\n").dropFirst().first.map(String.init) ?? ""
        expectBytes(
            row, #""a,b",DEU,,de_DE@currency=EUR,1234.5,"1.234,50\#u{00A0}€","Say ""hi"" \ back, =SUM(A1)\#tnow ✓",,,,,,,"#)

        let escapedRun = try runStorePrice(["render", "--any-product-id", catalog.path, "--storefronts", "DEU", "--format", "csv", "--escape"])
        #expect(escapedRun.output.contains(#","1.234,50\u{00A0}\u{20AC}","#), "\(escaped(escapedRun.output))")
    }

    @Test(arguments: ["Data/products-sample.plist", "Data/products-sample.json"])
    func rendersOnlyListedProducts(_ list: String) throws {
        let run = try runStorePrice([
            "render", Self.sample, "--storefronts", "CHN,USA", "--products", repositoryFile(list).path, "--format", "csv",
        ])
        #expect(run.status == 0)
        let ids = Set(run.output.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[0] })
        #expect(ids == ["com.example.level1", "com.example.level2", "com.example.removeads", "com.example.pro.monthly",
                        "com.example.pro.yearly", "com.example.starter.bundle"])
        let missing = list.hasSuffix("plist") ? "com.example.coins.999" : "com.example.level99"
        expectBytes(run.error, """
            storeprice: invalid product com.example.starter.bundle: no price in CHN
            storeprice: invalid product \(missing): not in the catalog
            storeprice: 2 invalid products, with rows only where priced; --strict makes this an error

            """)
    }

    @Test func strictFailsAndLeavesNoFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storeprice-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("prices.jsonl")
        try Data("old\n".utf8).write(to: output)
        let run = try runStorePrice([
            "render", Self.sample, "--products", repositoryFile("Data/products-sample.plist").path,
            "--strict", "--output", output.path,
        ])
        #expect(run.status == 65)
        #expect(run.error.hasSuffix("storeprice: 2 invalid products; status 65, as --strict asks\n"))
        #expect(try String(contentsOf: output, encoding: .utf8) == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["prices.jsonl"])
    }

    @Test func writesTheOutputFileWhole() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storeprice-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("prices.csv")
        let run = try runStorePrice([
            "render", repositoryFile("Data/catalog-sample.csv").path, "--storefronts", "USA,CHE",
            "--format", "csv", "--output", output.path,
        ])
        #expect(run.status == 0)
        #expect(run.output.isEmpty)
        let text = try String(contentsOf: output, encoding: .utf8)
        #expect(text.hasPrefix("""
            product,storefront,account,price_locale,amount,formatted,title,period,price_per_period,offer,offer_terms,offers,billing_plans,paywall
            com.example.coins.100,USA,,en_US@currency=USD,0.99,$0.99,,,,,,,,
            com.example.coins.100,CHE,,de_CH@currency=CHF,1,CHF\u{00A0}1.00,,,,,,,,

            """))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["prices.csv"])
    }

    @Test func rendersAStoreKitFileAsATable() throws {
        let run = try runStorePrice([
            "render", repositoryFile("Data/catalog-sample.storekit").path, "--storefronts", "USA", "--format", "table",
        ])
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == 18)
        expectBytes(
            String(lines[0]),
            "PRODUCT                  STOREFRONT  PRICE LOCALE        FORMATTED  TITLE             PRICE PER PERIOD  OFFERS"
                + String(repeating: " ", count: 128) + "BILLING PLANS")
        expectBytes(String(lines[1]), "com.example.coins.100    USA         en_US@currency=USD  $0.99      100 Coins")
        expectBytes(
            String(lines[15]),
            "com.example.pro.weekly   USA         en_US@currency=USD  $1.99      Pro Weekly        $1.99 per week    introductory: 3 days free")
        expectBytes(
            String(lines[16]),
            "com.example.pro.monthly  USA         en_US@currency=USD  $4.99      Pro Monthly       $4.99 per month   introductory: $0.99 per month "
                + "for 3 months; promotional com.example.pro.winback: $1.99 for 2 months; offer_code SPRING: 1 month free")
        expectBytes(
            String(lines[17]),
            "com.example.pro.yearly   USA         en_US@currency=USD  $39.99     Pro Yearly        $39.99 per year   introductory: 1 week free")
    }

    @Test(arguments: [
        (["render", "/nonexistent.jsonl"], "storeprice: cannot read '/nonexistent.jsonl': No such file or directory\n"),
        (["render", "LICENSE.txt"],
         "storeprice: catalog 'LICENSE.txt': cannot tell the format from the name; name it .csv, .jsonl, .storekit or .json (App Store Connect), or give the format\n"),
        (["render", "Data/catalog-sample.jsonl", "--storefronts", "JPX"], "storeprice: unknown storefront 'JPX'; did you mean JPN?\n"),
        (["render", "Data/catalog-sample.jsonl", "--products", "/nonexistent.plist"],
         "storeprice: cannot read '/nonexistent.plist': No such file or directory\n"),
    ])
    func badInputIsOneLineAndStatus65(_ arguments: [String], _ message: String) throws {
        let resolved = arguments.map { $0.hasPrefix("Data/") ? repositoryFile($0).path : $0 }
        let run = try runStorePrice(resolved)
        #expect(run.status == 65)
        expectBytes(run.error, message)
    }

    @Test func readsStandardInputWithAFormat() throws {
        let input = Data("product,storefront,price\ncom.example.a,JPN,160\n".utf8)
        let run = try runStorePrice(["render", "-", "--catalog-format", "csv", "--storefronts", "JPN", "--format", "csv"], input: input)
        #expect(run.status == 0)
        expectBytes(run.output, "product,storefront,account,price_locale,amount,formatted,title,period,price_per_period,offer,offer_terms,offers,billing_plans,paywall\ncom.example.a,JPN,,ja_JP@currency=JPY,160,\u{FFE5}160,,,,,,,,\n")
    }
}

@Suite struct WorkerDefaultTests {
    @Test func theDefaultFollowsTheCPUAffinity() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/taskset") else { return }
        let run = try runProcess("/usr/bin/taskset", ["-c", "0", try storePriceExecutable().path, "render", "--help"])
        #expect(run.output.contains("(default: 1)"), "\(run.output)")
    }
}

@Suite struct TableWidthTests {
    /// The columns a terminal gives: `￥` and CJK take two, U+200F none.
    func columns(_ text: Substring) -> Int {
        text.unicodeScalars.reduce(0) { width, scalar in
            if scalar.properties.generalCategory == .format || scalar.properties.generalCategory == .nonspacingMark { return width }
            let wide = (0x3000...0x9FFF).contains(scalar.value) || (0xFF00...0xFFE6).contains(scalar.value)
            return width + (wide ? 2 : 1)
        }
    }

    @Test func columnsLineUpOnATerminalWhateverTheScript() throws {
        let run = try runStorePrice([
            "render", repositoryFile("Data/catalog-sample.jsonl").path, "--storefronts", "USA,JPN,SAU", "--format", "table",
        ])
        let lines = run.output.split(separator: "\n").prefix(4)
        // The title column starts where the header's TITLE does, in every row.
        let header = try #require(lines.first)
        let titleColumn = columns(header[..<(try #require(header.range(of: "TITLE"))).lowerBound])
        for (line, title) in zip(lines.dropFirst(), ["100 Coins", "100コイン", "100 عملة"]) {
            let start = try #require(line.range(of: title)).lowerBound
            #expect(columns(line[..<start]) == titleColumn, "\(escaped(String(line)))")
        }
    }
}

/// `--escape` (formatted prices, per-period prices and offers) in tables too, and for `.storekit`
/// catalogs in any format.
@Suite struct EscapeOnEveryPathTests {
    @Test func tablesEscape() throws {
        let run = try runStorePrice([
            "render", repositoryFile("Data/catalog-sample.jsonl").path, "--storefronts", "JPN", "--format", "table", "--escape",
        ])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("\\u{FFE5}160"))
        #expect(!run.output.contains("\u{FFE5}"), "a price left unescaped")
    }

    /// A `.storekit` file priced in euros (its storefront DEU): no-break spaces and the euro sign
    /// come out escaped.
    @Test(arguments: ["jsonl", "csv", "json", "table"])
    func storeKitCatalogsEscape(_ format: String) throws {
        let text = try String(contentsOf: repositoryFile("Data/catalog-sample.storekit"), encoding: .utf8)
        let file = try temporaryDirectory().appendingPathComponent("deu.storekit")
        try text.replacingOccurrences(of: #""_storefront" : "USA""#, with: #""_storefront" : "DEU""#)
            .write(to: file, atomically: true, encoding: .utf8)
        let run = try runStorePrice(["render", file.path, "--storefronts", "DEU", "--format", format, "--escape"])
        #expect(run.status == 0, "\(run.error)")
        // JSON writes the escape's backslash escaped again: look for what follows it.
        #expect(run.output.contains("u{00A0}") && run.output.contains("u{20AC}"), "\(run.output.prefix(300))")
        #expect(!run.output.contains("\u{20AC}") && !run.output.contains("\u{00A0}"), "a price left unescaped")
    }
}

