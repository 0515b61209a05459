import Foundation
import TestSupport
import Testing

/// Malformed and hostile inputs (Tests/Fixtures/hostile/): each is one line on standard error
/// naming the file and, where the format has them, the line and field; status 65; and no output
/// file, not even a temporary one. Scripts/check-hostile-files.sh also bounds their memory.
@Suite struct HostileFileTests {
    static let directory = repositoryFile("Tests/Fixtures/hostile")
    static let sample = repositoryFile("Data/catalog-sample.jsonl").path

    /// (fixture, how it is given, the message after `storeprice: ` with FILE for its path)
    static let cases: [(String, String, String)] = [
        ("truncated.jsonl", "catalog", "catalog 'FILE', line 2: not a JSON object (The given data was not valid JSON.)"),
        ("truncated.storekit", "catalog", "catalog 'FILE': not a StoreKit configuration (The given data was not valid JSON.)"),
        ("invalid-utf8.jsonl", "catalog", "catalog 'FILE', line 2: not valid UTF-8"),
        ("invalid-utf8.csv", "catalog", "catalog 'FILE', line 3: not valid UTF-8"),
        ("bom-bad-price.jsonl", "catalog",
         "catalog 'FILE', line 1, field 'prices.USA': invalid amount '0,99': use '.' as the decimal separator and no grouping separators, such as 1234.5"),
        ("bom-bad-price.csv", "catalog", "catalog 'FILE', line 3: 4 fields; expected 3"),
        ("crlf-unknown-storefront.csv", "catalog",
         "catalog 'FILE', line 3, field 'storefront': unknown storefront 'XYZ'; did you mean XKS, BLZ, CYM?"),
        ("crlf-unknown-storefront.jsonl", "catalog",
         "catalog 'FILE', line 2, field 'prices.JPX': unknown storefront 'JPX'; did you mean JPN?"),
        ("duplicate-product.jsonl", "catalog", "catalog 'FILE', line 3: product 'com.example.a' again; line 1 has it"),
        ("duplicate-product.csv", "catalog",
         "catalog 'FILE', line 4: product 'com.example.a' again; line 2 has it; keep each product's rows together"),
        ("duplicate-price.jsonl", "catalog", "catalog 'FILE', line 1, field 'prices.USA': a second price for USA"),
        ("10000-digit-amount.jsonl", "catalog",
         "catalog 'FILE', line 1, field 'prices.USA': invalid amount '" + String(repeating: "9", count: 64) + "…': longer than 100 characters"),
        ("10000-digit-amount.csv", "catalog",
         "catalog 'FILE', line 2, field 'price': invalid amount '" + String(repeating: "1", count: 64) + "…': longer than 100 characters"),
        ("unknown-storefront.jsonl", "catalog",
         "catalog 'FILE', line 1, field 'prices.Atlantis': unknown storefront 'Atlantis'; use a numeric ID (143462), an alpha-3 (JPN) or an alpha-2 (JP) code"),
        ("number-price.jsonl", "catalog",
         "catalog 'FILE', line 1, field 'prices.USA': expected decimal text such as \"0.99\"; JSON numbers lose digits in most tools"),
        ("deeply-nested.jsonl", "catalog", "catalog 'FILE', line 1: nested more than 512 levels deep, deeper than a JSON file is read; no StorePrice file nests so"),
        ("deeply-nested.storekit", "catalog", "catalog 'FILE': nested more than 512 levels deep, deeper than a JSON file is read; no StorePrice file nests so"),
        ("deeply-nested-accounts.json", "accounts",
         "accounts file 'FILE': nested more than 512 levels deep, deeper than a JSON file is read; no StorePrice file nests so"),
        ("secret-accounts.json", "accounts",
         "accounts file 'FILE', entry 1 ('usa'): has a 'password' field; an accounts file never holds passwords or other secrets (keep them in a keychain or your CI's secret store)"),
        ("deeply-nested-products.json", "products",
         "product list 'FILE': nested more than 512 levels deep, deeper than a JSON file is read; no StorePrice file nests so"),
        ("deeply-nested-products.plist", "products",
         "product list 'FILE': expected a flat array of product ID strings; found a container inside the array"),
        ("deeply-nested-products.bplist", "products",
         "product list 'FILE': expected a flat array of product ID strings; found a container inside the array"),
        ("not-a-snapshot.jsonl", "snapshot",
         "snapshot 'FILE', line 1: not a StorePrice snapshot header (missing field 'storeprice_snapshot')"),
        ("truncated-products.plist", "products", "product list 'FILE': not a complete XML property list; it ends early"),
        ("nested-with-newlines-products.plist", "products",
         "product list 'FILE': expected a flat array of product ID strings; found a container inside the array"),
        ("duplicate-key.jsonl", "catalog",
         "catalog 'FILE', line 1, field 'prices.USA': appears twice in one object; JSON readers keep only one of the two"),
        ("title-clash.jsonl", "catalog",
         "catalog 'FILE', line 1, field 'title': 'en-US' and 'en_us' are the same language (en-US); keep one"),
        ("huge-row-count-snapshot.jsonl", "snapshot",
         "snapshot 'FILE', line 1: the header counts 1000000000000 rows but the file has 0; is it cut short?"),
        ("outside-path-snapshot.jsonl", "snapshot",
         "snapshot 'FILE', line 1: the header's catalog path '../../../../../../../../etc/passwd' leads outside the snapshot's repository (ROOT) (give the catalog with --catalog)"),
        ("absolute-path-snapshot.jsonl", "snapshot",
         "snapshot 'FILE', line 1: the header's catalog path '/proc/self/environ' is absolute; a snapshot names files by paths relative to itself, inside its repository (give the catalog with --catalog)"),
        ("long-language-accounts.json", "accounts",
         "accounts file 'FILE', entry 1 ('usa'): unsupported locale '" + String(repeating: "a", count: 64) + "…': '"
            + String(repeating: "a", count: 64) + "…' is not an ISO 639 language code"),
        // The second hostile round's classes: text that is no Unicode named as such, a header's
        // unknown column named, a store language the storefront lacks, bounded and escaped values
        // in messages, and goldens that cannot be right.
        ("lone-surrogate.jsonl", "catalog", "catalog 'FILE', line 1: '\\ud800' is not valid Unicode: a surrogate escape without its pair"),
        ("lone-surrogate-accounts.json", "accounts",
         "accounts file 'FILE': '\\udfff' is not valid Unicode: a surrogate escape without its pair"),
        ("unknown-column.csv", "catalog",
         "catalog 'FILE', line 1: the header has an unknown column 'currency'; a catalog's first line is the header product,storefront,price (columns in any order)"),
        ("foreign-language-accounts.json", "accounts",
         "accounts file 'FILE', entry 1 ('jpn-fr'): 'fr' is not a store language of JPN, whose store is in ja, en-US"),
        ("long-escaped-snapshot.jsonl", "snapshot",
         "snapshot 'FILE', line 2: 'escaped' is \"\\u{202E}" + String(repeating: "x", count: 63)
            + "…\" but 'formatted' escapes to \"$1.00\"; edit both, or record the snapshot again"),
        ("repeated-field-snapshot.jsonl", "snapshot", "snapshot 'FILE', line 2: field 'title' appears twice in this row; record the snapshot again"),
        ("style-in-format-2-snapshot.jsonl", "snapshot",
         "snapshot 'FILE', line 1: the header says format 2, which has no style; a style is format 3"),
        ("long-element-products.plist", "products",
         "product list 'FILE': expected product ID strings in the array; found <" + String(repeating: "e", count: 64) + "…>"),
        // The third round's classes: templates and offer wording as untrusted input, and wrong
        // JSON types named in words.
        ("quoting-apostrophe-templates.json", "templates",
         "template 'line' in 'FILE' (en_US), argument 'offer_duration': an apostrophe before '{' starts ICU's quoted text, so "
            + "'l'{offer_duration} gratuite' is written as it is; write ’ (U+2019) or '' for an apostrophe"),
        ("bare-percent-templates.json", "templates",
         "template 'line' in 'FILE' (en_US), argument 'savings_percent': is a bare number, and a '%' beside it is not every "
            + "language's percent (Turkish writes %76, French 76 %); use {savings}"),
        ("dead-branch-templates.json", "templates",
         "template 'line' in 'FILE' (en_US), argument 'offer_type': select has the case 'free_trial' twice; ICU always chooses "
            + "the first, so the second is never shown"),
        ("forged-line-templates.json", "templates",
         "template 'line' in 'FILE' (en_US): has \\u{0009}, which would break the line or act on a terminal; a paywall line is "
            + "one line of text"),
        ("printf-offer-wording.json", "offer wording",
         "offer wording 'FILE': 'freeTrial' has '%@', a printf placeholder, which MessageFormat writes as it is; it may have {duration}"),
        ("plain-title.jsonl", "catalog",
         #"catalog 'FILE', line 1, field 'title': expected an object of language tags to text, such as {"en":"100 Coins"}; got a string"#),
        ("wrong-type.storekit", "catalog", "catalog 'FILE': not a StoreKit configuration (products: expected a list; got a string)"),
        // App Store Connect responses that the API would not have written.
        ("asc-wrong-type.json", "catalog",
         "catalog 'FILE', field 'data[1].type': 'customerReviews' is no resource StorePrice reads; it reads in-app purchases, "
            + "subscriptions, apps, their prices, price points, territories, localizations, and subscriptions' offers and their prices"),
        ("asc-price-without-territory.json", "catalog",
         "catalog 'FILE', field 'data[0].relationships.territory': missing; neither the price nor its price point names a territory"),
        ("asc-unknown-territory.json", "catalog",
         "catalog 'FILE', field 'data[0].relationships.territory': unknown storefront 'Atlantis'; use a numeric ID (143462), an "
            + "alpha-3 (JPN) or an alpha-2 (JP) code"),
        // The fourth round's classes: one text encoding for every JSON reader, App Store Connect's
        // responses read as strictly as Apple writes them, one rule for store periods, and
        // templates that pass ICU's parser yet mislead.
        ("utf16-catalog.storekit", "catalog",
         "catalog 'FILE': this is UTF-16 (little-endian) text, not UTF-8; JSON is read as UTF-8 (RFC 8259): convert it, such as "
            + "with iconv -f UTF-16LE -t UTF-8"),
        ("utf16-asc.json", "catalog",
         "catalog 'FILE': this is UTF-16 (big-endian) text, not UTF-8; JSON is read as UTF-8 (RFC 8259): convert it, such as "
            + "with iconv -f UTF-16BE -t UTF-8"),
        ("asc-other-territory-point.json", "catalog",
         "catalog 'FILE', field 'included[0].relationships.territory': the price point is for JPN, its price for USA (data[0]); "
            + "a price point is one territory's"),
        ("asc-territory-of-another-type.json", "catalog",
         "catalog 'FILE', field 'data[0].relationships.territory.data.type': 'currencies' where the API writes territories"),
        ("asc-locale-not-a-tag.json", "catalog",
         "catalog 'FILE', field 'data[0].attributes.locale': 'English (U.S.)' is not a language tag, such as en, en-US or zh-Hans"),
        ("json-lines-in-a.json", "catalog",
         "catalog 'FILE': this is JSON Lines (an object a line), not an App Store Connect response; read it as a JSON Lines "
            + "catalog, format jsonl (--catalog-format jsonl)"),
        ("title-not-a-tag.jsonl", "catalog",
         "catalog 'FILE', line 1, field 'title': 'English' is not a language tag, such as en, en-US or zh-Hans"),
        ("five-week-period.jsonl", "catalog",
         "catalog 'FILE', line 1, field 'period': invalid period 'P5W': the App Store's subscriptions renew every P1W, P1M, P2M, "
            + "P3M, P6M or P1Y"),
        ("five-week-subscription.storekit", "catalog",
         "catalog 'FILE', field 'com.example.pro.weekly.recurringSubscriptionPeriod': invalid period 'P5W': the App Store's "
            + "subscriptions renew every P1W, P1M, P2M, P3M, P6M or P1Y"),
        ("fraction-of-a-month.jsonl", "catalog",
         "catalog 'FILE', line 1, field 'period': invalid period 'P3.5M': the count is a whole number, such as P3M; a fraction "
            + "of a month is no store period"),
        ("five-day-free-trial.jsonl", "catalog",
         "catalog 'FILE', line 1, field 'introductory_offer': invalid period 'P5D': the App Store's offer periods are P3D, P1W, "
            + "P2W, P1M, P2M, P3M, P6M or P1Y"),
        ("thirteen-offer-periods.jsonl", "catalog",
         "catalog 'FILE', line 1, field 'introductory_offer': invalid offer 'P1Mx13': the App Store's pay-as-you-go offers have "
            + "1 to 12 periods"),
        ("select-key-as-text-templates.json", "templates",
         "template 'line' in 'FILE' (en_US), argument 'offer_type': is a key for select (none, free_trial, pay_as_you_go, "
            + "pay_up_front), not text to show; choose the words with {offer_type, select, free_trial {…} other {…}}"),
        ("misspelt-case-templates.json", "templates",
         "template 'line' in 'FILE' (en_US), argument 'offer_type': select has the case 'free_trail', which it never is; its "
            + "keys are none, free_trial, pay_as_you_go, pay_up_front; did you mean 'free_trial'?"),
        ("percent-across-plural-templates.json", "templates",
         "template 'line' in 'FILE' (en_US), argument 'savings_percent': a '%' beside a plural or select that writes the bare "
            + "number at its edge stands beside the number whichever case is chosen; use {savings}"),
        ("unpaired-isolate-templates.json", "templates",
         "template 'line' in 'FILE' (en_US): has \\u{2068} without its pair; a bidi isolate (U+2066, U+2067, U+2068) is closed "
            + "by U+2069, or it reorders the rest of the line"),
        ("empty-templates.json", "templates",
         "template 'line' in 'FILE' (en_US): is empty; a template writes a line, such as '{offer}, then {price_per_period}'"),
        ("empty-offer-wording.json", "offer wording",
         "offer wording 'FILE': 'freeTrial' is empty; it words the offer, such as {duration}"),
    ]

    @Test func everyFixtureHasACase() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).sorted()
        #expect(files == Self.cases.map(\.0).sorted())
    }

    @Test(arguments: cases)
    func refusedInOneLineWithStatus65AndNoOutput(_ fixture: String, _ role: String, _ message: String) throws {
        let path = Self.directory.appendingPathComponent(fixture).path
        try expectRefused(path: path, role: role, message: message.replacingOccurrences(of: "FILE", with: shownInMessage(path: path))
            .replacingOccurrences(of: "ROOT", with: shownInMessage(path: repositoryFile(".").path)))
    }

    func expectRefused(path: String, role: String, message: String) throws {
        let output = try temporaryDirectory()
        let target = output.appendingPathComponent("prices.jsonl").path
        let arguments: [String]
        switch role {
        case "catalog": arguments = ["render", path, "--storefronts", "USA,JPN", "--output", target]
        case "accounts": arguments = ["render", Self.sample, "--accounts", path, "--output", target]
        case "products": arguments = ["render", Self.sample, "--products", path, "--output", target]
        // Paywalls write to standard output, which must stay empty.
        case "templates":
            arguments = [
                "paywall", "--storefront", "USA", "--price", "59.99", "--period", "P1Y", "--compare", "4.99:P1W", "--offer", "free:P1W",
                "--templates", path, "--name", "line",
            ]
        case "offer wording":
            arguments = [
                "paywall", "--storefront", "USA", "--price", "59.99", "--period", "P1Y", "--offer", "free:P1W", "--offer-wording", path,
                "--template", "{offer}",
            ]
        default: arguments = ["verify", path, "--report", target]
        }
        let run = try runStorePrice(arguments)
        #expect(run.status == 65, "\(run.error)")
        expectBytes(run.error, "storeprice: \(message)\n")
        expectBytes(run.output, "")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).isEmpty, "output left behind")
    }
}

/// Lines of 100 MB in every kind of file: slow, so run apart (see `loadTest`).
@Suite(.loadTest) struct HostileFileLoadTests {
    /// A single 100 MB line: refused after at most 1 MiB of it for streamed formats, and before
    /// reading for whole-file ones.
    @Test(arguments: [
        ("long.jsonl", "catalog", "catalog 'FILE', line 1: longer than 1 MiB; a line holds one product or price"),
        ("long.csv", "catalog", "catalog 'FILE', line 2: longer than 1 MiB; a line holds one product or price"),
        ("long.storekit", "catalog", "cannot read 'FILE': larger than 64 MiB"),
        ("long-accounts.json", "accounts", "cannot read 'FILE': larger than 64 MiB"),
        ("long-snapshot.jsonl", "snapshot", "snapshot 'FILE', line 1: longer than 1 MiB; a line holds one product or price"),
    ])
    func aHundredMegabyteLine(_ name: String, _ role: String, _ message: String) throws {
        let path = try temporaryDirectory().appendingPathComponent(name).path
        let filler = String(repeating: "x", count: 100 << 20)
        let text: String
        switch name {
        case "long.csv": text = "product,storefront,price\ncom.example.\(filler),USA,0.99\n"
        case "long.storekit": text = #"{"products":[{"productID":"\#(filler)"}]}"#
        case "long-accounts.json": text = #"[{"name":"\#(filler)"}]"#
        default: text = #"{"product":"com.example.a","prices":{"USA":"0.99"},"title":{"en":"\#(filler)"}}"# + "\n"
        }
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try HostileFileTests().expectRefused(path: path, role: role, message: message.replacingOccurrences(of: "FILE", with: shownInMessage(path: path)))
    }

    /// One product's lines past 64 MiB (9 million lines of `a`, or 70 million blank lines): a bad
    /// line among them is the error, at its line, and without one the run stops at the line after
    /// the first 64 MiB, in a render, a table and a snapshot alike; each reads the file once
    /// (seconds, not minutes).
    @Test(arguments: [
        ("a,USA,1\n", 9_000_000, "line 3, field 'storefront': a second price for 'a' in USA"),
        ("\n", 70_000_000, "LINE: one product's rows take more than 64 MiB"),
    ])
    func oneProductPastTheLimit(_ repeated: String, _ count: Int, _ message: String) throws {
        let path = try temporaryDirectory().appendingPathComponent("big.csv").path
        let text = "product,storefront,price\na,USA,1\n" + String(repeating: repeated, count: count)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for arguments in [["render", path, "--storefronts", "USA"], ["render", path, "--storefronts", "USA", "--format", "table"],
                          ["snapshot", path, "--output", "-"]] {
            let run = try runStorePrice(arguments)
            #expect(run.status == 65, "\(arguments): \(run.error)")
            guard message.hasPrefix("LINE") else {
                expectBytes(run.error, "storeprice: catalog '\(shownInMessage(path: path))', \(message)\n")
                continue
            }
            // The line after the chunk that passed 64 MiB: one of the blank lines past them.
            let prefix = "storeprice: catalog '\(shownInMessage(path: path))', line "
            let suffix = message.dropFirst("LINE".count) + "\n"
            #expect(run.error.hasPrefix(prefix) && run.error.hasSuffix(suffix), "\(run.error)")
            let line = Int(run.error.dropFirst(prefix.count).dropLast(suffix.count)) ?? 0
            #expect(line > 64 << 20 && line < (64 << 20) + (1 << 20), "\(line)")
        }
    }
}
