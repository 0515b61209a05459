import Foundation
import TestSupport
import Testing

/// What a person is told, in words: the store's rule for periods, whole counts, negative counts,
/// withdrawn language codes; every command holding to the same rule.
@Suite struct MessagesInWordsTests {
    static let renew = "the App Store's subscriptions renew every P1W, P1M, P2M, P3M, P6M or P1Y"

    @Test(arguments: [
        (["format", "1", "--storefront", "USA", "--period", "P5W"], 65, "storeprice: invalid period 'P5W': \(renew) (--period)\n"),
        (["paywall", "--storefront", "USA", "--price", "59.99", "--period", "P2Y"], 65, "storeprice: invalid period 'P2Y': \(renew) (--period)\n"),
        (["paywall", "--storefront", "USA", "--price", "59.99", "--period", "P1Y", "--compare", "1.99:P5D"], 65,
         "storeprice: invalid period 'P5D': \(renew) (--compare)\n"),
        (["format", "0", "--storefront", "USA", "--offer", "free:P5D"], 65,
         "storeprice: invalid period 'P5D': the App Store's offer periods are P3D, P1W, P2W, P1M, P2M, P3M, P6M or P1Y (--offer)\n"),
        (["sandbox-schedule", "--period", "P3D"], 65, "storeprice: invalid period 'P3D': \(renew) (--period)\n"),
        (["format", "1", "--storefront", "USA", "--period", "P3.5M"], 65,
         "storeprice: invalid period 'P3.5M': the count is a whole number, such as P3M; a fraction of a month is no store period (--period)\n"),
        (["format", "0.99", "--storefront", "USA", "--offer", "payAsYouGo:P1Mx3.5"], 65,
         "storeprice: invalid offer 'payAsYouGo:P1Mx3.5': the number of periods after 'x' is whole, such as x3; 3.5 is not\n"),
        (["sandbox-schedule", "--period", "P1M", "--renewals", "-1"], 64, "Error: --renewals -1 is out of range; give 0 to 1000.\n"),
        (["render", "Data/catalog-sample.jsonl", "--workers", "-1"], 64, "Error: --workers must be 1 to 256; found -1.\n"),
    ] as [([String], Int32, String)])
    func everyCommandSaysItInWords(_ arguments: [String], _ status: Int32, _ firstLine: String) throws {
        let run = try runStorePrice(arguments.map { $0 == "Data/catalog-sample.jsonl" ? repositoryFile($0).path : $0 })
        #expect(run.status == status, "\(arguments)")
        #expect(run.error.hasPrefix(firstLine), "\(run.error)")
    }

    /// iw, in, ji and no are read as ICU reads them: the store's language, with no note.
    @Test func withdrawnLanguageCodesAreTheStoresLanguages() throws {
        let hebrew = try runStorePrice(["format", "9.99", "--storefront", "ISR", "--language", "iw", "--escape"])
        expectBytes(hebrew.output, "\\u{200F}9.99\\u{00A0}\\u{200F}\\u{20AA}\n")
        expectBytes(hebrew.error, "")
        let norwegian = try runStorePrice(["format", "9.99", "--storefront", "NOR", "--language", "no"])
        expectBytes(norwegian.error, "")
    }

    /// The product-ID rule's message names no Swift type; the CLI adds the option that lifts it.
    @Test func theProductIDRuleInWords() throws {
        let file = try temporaryDirectory().appendingPathComponent("c.jsonl")
        try (#"{"product":"coins 100","prices":{"USA":"1"}}"# + "\n").write(to: file, atomically: true, encoding: .utf8)
        let run = try runStorePrice(["render", file.path, "--storefronts", "USA"])
        #expect(run.status == 65)
        #expect(!run.error.contains("ProductIDRule"))
        #expect(run.error.hasSuffix("is not an App Store product ID: 1 to 100 letters, digits, '.', '-' or '_'; --any-product-id keeps any text\n"), "\(run.error)")
    }
}
