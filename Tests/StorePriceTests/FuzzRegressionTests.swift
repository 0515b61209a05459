import Foundation
import StorePrice
import TestSupport
import Testing

/// Inputs the fuzzers (Scripts/fuzz.sh) once crashed on, kept so that they stay fixed. Each file
/// in Tests/Fixtures/fuzz/TARGET/ goes to the parser FUZZ_TARGET=TARGET feeds, and must be
/// accepted or refused with a one-line StorePriceError.
@Suite struct FuzzRegressionTests {
    static let root = repositoryFile("Tests/Fixtures/fuzz")

    static var inputs: [String] {
        let manager = FileManager.default
        let targets = (try? manager.contentsOfDirectory(atPath: root.path)) ?? []
        return targets.sorted().flatMap { target in
            ((try? manager.contentsOfDirectory(atPath: root.appendingPathComponent(target).path)) ?? []).sorted()
                .map { "\(target)/\($0)" }
        }
    }

    @Test func thereAreRegressionInputs() {
        #expect(Self.inputs.contains("locale/multi-line-error"))
    }

    @Test(arguments: inputs)
    func aFormerCrashIsHandled(_ input: String) throws {
        let url = Self.root.appendingPathComponent(input)
        let bytes = try [UInt8](Data(contentsOf: url))
        let text = String(decoding: bytes, as: UTF8.self)
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
        } catch {
            #expect(!error.description.isEmpty)
            #expect(!error.description.contains("\n"), "\(escaped(error.description))")
        }
    }
}
