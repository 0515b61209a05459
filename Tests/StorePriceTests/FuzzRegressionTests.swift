import Foundation
import StorePrice
import TestSupport
import Testing

/// Inputs the fuzzers (Scripts/fuzz.sh) once crashed on, kept so that they stay fixed. Each file
/// in Tests/Fixtures/fuzz/TARGET/ goes to the parser FUZZ_TARGET=TARGET feeds, and must give the
/// outcome pinned for it in ``outcomes``: accepted, or refused with that exact one-line message.
@Suite struct FuzzRegressionTests {
    static let root = repositoryFile("Tests/Fixtures/fuzz")

    /// Every fixture, and what it must give: "accepted", or the error's exact message.
    static let outcomes: [String: String] = [
        "locale/multi-line-error": #"unsupported locale 'ja_J\u{000A}\u{0000}\u{0000}\u{0000}rrency=JPY': "#
            + #"ICU does not know region 'J\u{000A}\u{0000}\u{0000}\u{0000}rrency=JPY'"#,
    ]

    @Test func everyFixtureHasAnOutcomeAndEveryOutcomeAFixture() throws {
        let manager = FileManager.default
        let fixtures = try manager.contentsOfDirectory(atPath: Self.root.path).sorted().flatMap { target in
            try manager.contentsOfDirectory(atPath: Self.root.appendingPathComponent(target).path).sorted()
                .map { "\(target)/\($0)" }
        }
        #expect(!fixtures.isEmpty)
        #expect(fixtures == Self.outcomes.keys.sorted())
    }

    @Test(arguments: outcomes.keys.sorted())
    func aFormerCrashIsHandled(_ input: String) throws {
        let url = Self.root.appendingPathComponent(input)
        let bytes = try [UInt8](Data(contentsOf: url))
        let text = String(decoding: bytes, as: UTF8.self)
        let expected = try #require(Self.outcomes[input])
        do {
            switch input.split(separator: "/")[0] {
            case "amount": _ = try Price(text, currency: CurrencyCode("USD"))
            case "locale": _ = try PriceFormatter(locale: PriceLocale(text)).format(amount: "1")
            case "period": _ = try SubscriptionPeriod(text)
            case "offer": _ = try SubscriptionOffer(terms: text, price: Price("0.99", currency: CurrencyCode("USD")))
            case "accounts": _ = try TestAccountFile(data: Data(bytes), source: input)
            case "csv", "jsonl", "storekit":
                let format = CatalogFormat(rawValue: String(input.split(separator: "/")[0]))
                _ = try Catalog.load(url.path, format: format)
            case "plist", "json": _ = try ProductIDList(data: bytes, source: input)
            case "snapshot": _ = try PriceSnapshot(contentsOfFile: url.path)
            default: Issue.record("no parser for \(input)")
            }
            expectBytes("accepted", expected, input)
        } catch {
            expectBytes(error.description, expected, input)
        }
    }
}
