import Foundation
import StorePrice
import TestSupport
import Testing

/// The App Store style against Apple's own strings: every row of the evidence files is a case.
@Suite struct AppStoreStyleTests {
    /// One of Apple's strings: `country currency price formatted kind provenance`.
    struct Evidence {
        var file: String
        var line: Int
        var country: String
        var price: String
        var formatted: String
        var kind: String
        var language: String?

        /// Sources that could not tell U+0020, U+00A0 and U+202F apart.
        var spacesUnverified: Bool { kind.hasSuffix("-wsunverified") || kind.hasPrefix("asc-pricing-matrix") }
    }

    static let sharedEvidence = repositoryFile("../shared/evidence/app-store-strings.tsv")

    static func evidence(in url: URL) throws -> [Evidence] {
        let text = try String(contentsOf: url, encoding: .utf8)
        var rows: [Evidence] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 6 else { continue }
            let language = fields[5].firstMatch(of: /\blang=([a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)\b/).map { String($0.1) }
            rows.append(Evidence(
                file: url.lastPathComponent, line: index + 1, country: fields[0], price: fields[2],
                formatted: fields[3], kind: fields[4], language: language))
        }
        return rows
    }

    /// The App Store style's string for a row, called as `format --storefront CC [--language L]`.
    static func appStoreString(_ row: Evidence) throws -> String {
        let storefront = try Storefront(row.country)
        let locale = try row.language.map { try storefront.priceLocale(language: $0) } ?? storefront.priceLocale
        return try PriceFormatter(locale: locale, options: .init(style: .appStore)).format(amount: row.price)
    }

    static func sameString(_ got: String, _ row: Evidence) -> Bool {
        if Array(got.utf8) == Array(row.formatted.utf8) { return true }
        guard row.spacesUnverified else { return false }
        let spaces: Set<Unicode.Scalar> = ["\u{0020}", "\u{00A0}", "\u{202F}"]
        func oneSpace(_ text: String) -> [Unicode.Scalar] { text.unicodeScalars.map { spaces.contains($0) ? " " : $0 } }
        return oneSpace(got) == oneSpace(row.formatted)
    }

    /// Checks every row: the style's string is Apple's, or the row is from a source that
    /// `Data/app-store-style.json` lists as superseded for its storefront, with the reason.
    static func check(_ rows: [Evidence]) throws -> (matched: Int, superseded: Set<String>) {
        let superseded = try supersededSources()
        var matched = 0
        var used: Set<String> = []
        for row in rows {
            let got: String
            do { got = try appStoreString(row) } catch {
                Issue.record("\(row.file):\(row.line) \(row.country) \(row.price): \(error)")
                continue
            }
            if sameString(got, row) {
                matched += 1
                continue
            }
            let countryCode = try Storefront(row.country).countryCode
            if let entry = superseded.first(where: { $0.storefront == countryCode && row.kind.hasPrefix($0.source) }) {
                used.insert(entry.storefront + " " + entry.source)
                continue
            }
            Issue.record(
                "\(row.file):\(row.line) \(row.kind) \(row.country) \(row.price): Apple \"\(escaped(row.formatted))\", App Store style \"\(escaped(got))\"")
        }
        return (matched, used)
    }

    struct Superseded: Decodable {
        var storefront: String
        var source: String
        var reason: String
    }

    static func supersededSources() throws -> [Superseded] {
        struct File: Decodable { var superseded: [Superseded] }
        return try JSONDecoder().decode(File.self, from: Data(contentsOf: repositoryFile("Data/app-store-style.json")))
            .superseded
    }

    @Test func everyStringOfTheProjectsEvidenceIsApples() throws {
        let rows = try Self.evidence(in: repositoryFile("Data/app-store-evidence.tsv"))
        #expect(rows.count == 1251)
        let (matched, _) = try Self.check(rows)
        #expect(matched == rows.count)
    }

    /// The shared evidence sits beside the repository on the project's machines and in CI; a clone
    /// elsewhere has none, and CI fails rather than skips when it is missing.
    @Test(.enabled(
        if: FileManager.default.fileExists(atPath: sharedEvidence.path) || ProcessInfo.processInfo.environment["CI"] != nil,
        "../shared/evidence/app-store-strings.tsv is not beside the repository"))
    func everyStringOfTheSharedEvidenceIsApplesOrSuperseded() throws {
        let rows = try Self.evidence(in: Self.sharedEvidence)
        #expect(rows.count == 709)
        let (matched, used) = try Self.check(rows)
        // Every string from the App Store and the lookup API today; older App Store Connect
        // matrices differ where a listed format changed since.
        #expect(matched == 641)
        let listed = Set(try Self.supersededSources().map { $0.storefront + " " + $0.source })
        #expect(used == listed, "superseded entries no row needs: \(listed.subtracting(used).sorted())")
    }

    @Test(arguments: [
        ("JPN", nil, "800", "\u{00A5}800"),
        ("JPN", nil, "1200", "\u{00A5}1,200"),
        ("GHA", nil, "4.99", "USD\u{00A0}4.99"),
        ("JOR", nil, "1.99", "$1.99"),
        ("CIV", nil, "5.99", "5,99\u{00A0}$US"),
        ("IDN", nil, "99000", "Rp\u{00A0}99ribu"),
        ("IDN", nil, "1499000", "Rp\u{00A0}1,499juta"),
        ("IDN", nil, "14999000", "Rp\u{00A0}14,999juta"),
        ("IDN", nil, "1000000", "Rp\u{00A0}1juta"),
        // Not whole thousands: in full, as Apple's page writes IDR 14,500.
        ("IDN", nil, "1500", "Rp\u{00A0}1.500"),
        ("IDN", nil, "16500", "Rp\u{00A0}16.500"),
        ("IDN", nil, "1500000", "Rp\u{00A0}1,5juta"),
        ("IDN", nil, "500", "Rp\u{00A0}500"),
        ("HUN", nil, "1990", "HUF1,990.00"),
        ("AUT", nil, "1099.99", "1.099,99\u{00A0}\u{20AC}"),
        ("IRL", nil, "1099.99", "\u{20AC}1,099.99"),
        // In threes, not lakhs, as Apple's page writes INR 469,900.
        ("IND", nil, "123456", "\u{20B9}\u{00A0}123,456"),
        ("NOR", nil, "12490", "12.490,00\u{00A0}kr"),
        ("SWE", nil, "12495", "12\u{00A0}495,00\u{00A0}kr"),
        ("ROU", nil, "1299.99", "1\u{00A0}299,99\u{00A0}lei"),
        ("KOR", nil, "7700", "\u{FFE6}7,700"),
        ("TWN", nil, "1290", "$1,290.00"),
        ("TWN", "en-GB", "1290", "NT$1,290.00"),
        ("ROU", nil, "29.99", "29,99\u{00A0}lei"),
        ("USA", "es", "4.99", "$4.99"),
        ("RUS", "en-GB", "1790", "1,790.00\u{00A0}RUB"),
        ("RUS", nil, "1790", "1\u{00A0}790,00\u{00A0}\u{20BD}"),
        ("CIV", "en-GB", "9.99", "$9.99"),
        ("CMR", "en-GB", "9.99", "US$9.99"),
    ] as [(String, String?, String, String)])
    func writesApplesString(_ code: String, _ language: String?, _ amount: String, _ expected: String) throws {
        let storefront = try Storefront(code)
        let locale = try language.map { try storefront.priceLocale(language: $0) } ?? storefront.priceLocale
        let formatter = try PriceFormatter(locale: locale, options: .init(style: .appStore))
        expectBytes(try formatter.format(amount: amount), expected, "\(code) \(amount)")
        let bytes = try formatter.withFormattedUTF8(Price(amount, currency: storefront.currency)) { Array($0) }
        #expect(bytes == Array(expected.utf8), "withFormattedUTF8 gives format's bytes")
    }

    @Test func theDefaultStaysICUs() throws {
        let japan = try Storefront("JPN").priceLocale
        expectBytes(try PriceFormatter(locale: japan).format(amount: "800"), "\u{FFE5}800")
        expectBytes(try PriceFormatter(locale: japan, options: .init(style: .icu)).format(amount: "800"), "\u{FFE5}800")
    }

    @Test func onePriceStyleInPeriodsApproximationsAndOffers() throws {
        let japan = try Storefront("JPN").priceLocale
        let options = PriceFormatter.Options(style: .appStore)
        let formatter = try PriceFormatter(locale: japan, options: options)
        let yearly = try Price("9800", currency: CurrencyCode("JPY"))
        expectBytes(try formatter.format(yearly, per: SubscriptionPeriod("P1Y")), "\u{00A5}9,800/\u{5E74}")
        let monthly = try yearly.approximately(
            per: SubscriptionPeriod("P1M"), billedEvery: SubscriptionPeriod("P1Y"), fractionDigits: formatter.fractionDigits)
        expectBytes(try formatter.format(monthly), "\u{00A5}816/\u{6708}")
        let offer = try SubscriptionOffer(terms: "payAsYouGo:P1Mx3", price: Price("480", currency: CurrencyCode("JPY")))
        let text = try offer.text(in: japan, options: options)
        #expect(text.contains("\u{00A5}480"), "\(escaped(text))")
        #expect(!text.contains("\u{FFE5}"), "\(escaped(text))")

        // Rupees: Apple shows none of the paise ICU keeps, so a restated price rounds to whole rupees.
        let india = try PriceFormatter(locale: Storefront("IND").priceLocale, options: options)
        let restated = try Price("4999", currency: CurrencyCode("INR")).approximately(
            per: SubscriptionPeriod("P1M"), billedEvery: SubscriptionPeriod("P1Y"), fractionDigits: india.fractionDigits)
        #expect(restated.price.amount == "416")
    }

    @Test func amountsFinerThanAppleShowsAreRefusedUnlessRounded() throws {
        let india = try Storefront("IND").priceLocale
        #expect(throws: StorePriceError.invalidAmount(
            "499.5", reason: "the App Store shows INR with 0 fraction digits in IND; give a rounding, such as half-even, to round it"))
        {
            try PriceFormatter(locale: india, options: .init(style: .appStore)).format(amount: "499.5")
        }
        let rounded = try PriceFormatter(locale: india, options: .init(rounding: .halfEven, style: .appStore))
        expectBytes(try rounded.format(amount: "499.5"), "\u{20B9}\u{00A0}500")
        expectBytes(try rounded.format(amount: "498.5"), "\u{20B9}\u{00A0}498")
    }

    @Test func aLocaleThatIsNoStorefrontsIsRefusedByName() throws {
        #expect(throws: StorePriceError.unsupportedLocale(
            "en_GB@currency=USD",
            reason: "the App Store charges GBP in GBR, not USD; the App Store style shows a storefront's own currency"))
        {
            try PriceFormatter(locale: PriceLocale("en_GB@currency=USD"), options: .init(style: .appStore))
        }
        #expect(throws: StorePriceError.self) {
            try PriceFormatter(locale: PriceLocale("en_001@currency=USD"), options: .init(style: .appStore))
        }
    }

    @Test func everyStorefrontHasARuleWithItsBasis() throws {
        #expect(AppStoreRule.all.count == Storefront.all.count)
        for storefront in Storefront.all {
            let rule = storefront.appStoreRule
            #expect(rule.storefront == storefront.countryCode)
            if rule.basis == .evidence { #expect(!rule.evidence.isEmpty, "\(storefront.countryCode)") }
            if rule.basis != .none { #expect(rule.pattern != nil, "\(storefront.countryCode)") }
        }
        #expect(try Storefront("HUN").appStoreRule.defaultLanguage == "en-GB")
        #expect(try Storefront("AFG").appStoreRule.defaultLanguage == "en-GB")
        #expect(try Storefront("TWN").appStoreRule.languages["en"]?.pattern == "NT${amount}")
        #expect(try Storefront("JPN").appStoreRule.hasEvidence(forLanguage: "en-GB"))
        #expect(try Storefront("JPN").appStoreRule.hasEvidence(forLanguage: "ja"))
        #expect(try !Storefront("JPN").appStoreRule.hasEvidence(forLanguage: "fr"))
        #expect(try !Storefront("USA").appStoreRule.hasEvidence(forLanguage: "es"))
        #expect(try Storefront("RUS").appStoreRule.hasEvidence(forLanguage: "en"))
    }

    /// The coverage table's words for a rule at 1,000 or more.
    func large(_ rule: AppStoreRule) -> String {
        guard rule.largeAmountSeen != nil, let upTo = rule.largeAmountsSeenUpTo else { return "unverified" }
        let grouped = upTo.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
        return "seen to \(grouped)" + (rule.largeAmountsUnverified.map { "; unverified: " + $0 } ?? "")
    }

    /// Each storefront's largest string of Apple's at 1,000 or more is what the App Store style
    /// writes now, spaces aside (many were transcribed with their whitespace unverified).
    @Test func theLargeAmountsSeenAreWrittenAsApple() throws {
        var checked = 0
        for rule in AppStoreRule.all {
            guard let seen = rule.largeAmountSeen else { continue }
            // "JPY 118800 → ¥118,800"
            let parts = seen.split(separator: " → ", maxSplits: 1)
            let amount = String(try #require(parts.first?.split(separator: " ").last))
            let storefront = try Storefront(rule.storefront)
            let written = try PriceFormatter(locale: storefront.priceLocale, options: .init(style: .appStore)).format(amount: amount)
            func spaces(_ text: Substring) -> String {
                String(text.unicodeScalars.map { $0.properties.generalCategory == .spaceSeparator ? " " : Character($0) })
            }
            #expect(spaces(Substring(written)) == spaces(parts[1]), "\(rule.storefront): \(escaped(written)) for \(seen)")
            #expect(Decimal(string: amount).map { $0 >= 1000 } == true)
            checked += 1
        }
        #expect(checked == 37)
    }

    /// The article's coverage table is the data's: each storefront's row shows what the library
    /// writes now. `Scripts/app-store-coverage.py` writes the table.
    @Test func theCoverageTableInTheDocsIsTheData() throws {
        let article = try String(
            contentsOf: repositoryFile("Sources/StorePrice/StorePrice.docc/AppStoreStyle.md"), encoding: .utf8)
        let table = try #require(article.firstMatch(of: /<!-- coverage -->\n(?s:(.*))<!-- \/coverage -->/)).1
        let rows = table.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| Storefront ") }
        var expected: [String] = []
        for rule in AppStoreRule.all {
            let storefront = try Storefront(rule.storefront)
            let amount = rule.fractionDigits == 0 ? "12345" : "1234.5"
            let shown = try PriceFormatter(locale: storefront.priceLocale, options: .init(style: .appStore))
                .format(amount: amount)
            let house = rule.houseRule.map { " (\($0.rawValue))" } ?? ""
            expected.append(
                "| \(rule.storefront) \(storefront.name) | \(storefront.currency) | \(rule.defaultLanguage) | `\(escaped(shown))`\(house) | "
                    + "\(rule.numbers ?? "ICU") | \(rule.basis.rawValue), \(rule.evidence.count) cited | \(large(rule)) |")
            for (language, nested) in rule.languages.sorted(by: { $0.key < $1.key }) {
                let shownInLanguage = try PriceFormatter(
                    locale: storefront.priceLocale(language: language), options: .init(style: .appStore)
                ).format(amount: amount)
                expected.append(
                    "| \(rule.storefront) in \(language) | \(storefront.currency) | \(language) | `\(escaped(shownInLanguage))` | "
                        + "\(nested.numbers ?? "ICU") | \(nested.basis.rawValue), \(nested.evidence.count) cited | \(large(nested)) |")
            }
        }
        #expect(rows.count == expected.count, "run Scripts/app-store-coverage.py")
        for (row, want) in zip(rows, expected) {
            expectBytes(String(row), want, "run Scripts/app-store-coverage.py")
        }
    }
}
