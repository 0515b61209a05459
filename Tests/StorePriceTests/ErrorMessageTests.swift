import Foundation
import StorePrice
import TestSupport
import Testing

/// Every value an error quotes is cut at 64 characters and escaped, so one bad input cannot
/// make a 100 KB error line or act on the terminal that shows it.
@Suite struct ErrorMessageTests {
    func message(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "no error"
        } catch {
            return String(describing: error)
        }
    }

    @Test func aHugeLanguageIsCutInTheIdentifierAndInTheReason() {
        let language = String(repeating: "a", count: 100_000)
        let text = message { _ = try PriceLocale(language + "_US@currency=USD") }
        let cut = String(repeating: "a", count: 64) + "…"
        expectBytes(text, "unsupported locale '\(cut)': '\(cut)' is not an ISO 639 language code")
    }

    @Test func bidiAndControlCharactersInALocaleAreEscaped() {
        let text = message { _ = try PriceLocale("en_U\u{202E}S@currency=USD") }
        #expect(!text.unicodeScalars.contains("\u{202E}"), "\(escaped(text))")
        #expect(text.hasPrefix("unsupported locale 'en_U\\u{202E}S@currency=USD'"), "\(escaped(text))")
    }

    @Test func anAmountIsCutAndEscaped() throws {
        let text = message { _ = try Price("1\u{1B}[2J" + String(repeating: "9", count: 500), currency: try CurrencyCode("USD")) }
        #expect(text.hasPrefix("invalid amount '1\\u{001B}[2J" + String(repeating: "9", count: 59) + "…': "), "\(escaped(text))")
        #expect(text.utf8.count < 200, "\(escaped(text))")
    }

    /// A path a user typed or a file named is shown whole, escaped: cutting its middle lost part
    /// of a real file's own name (`…/share…1403__Garten-Simulation__Purchases.storekit`).
    @Test func aLongFilePathIsShownWholeAndEscaped() {
        let path = "/" + String(repeating: "d", count: 200) + "/ends\u{1B}]52;c;aGk=\u{07}/Jannik-1403__Garten-Simulation__Purchases.storekit"
        let text = message { _ = try Catalog.open(path) }
        let shown = "/" + String(repeating: "d", count: 200) + "/ends\\u{001B}]52;c;aGk=\\u{0007}/Jannik-1403__Garten-Simulation__Purchases.storekit"
        expectBytes(text, "cannot read '\(shown)': No such file or directory")
    }

    /// Past any real length (1,024 bytes) a path is cut in its middle, never in its last component.
    @Test func aPathPastAnyRealLengthKeepsItsFileName() {
        let path = "/" + String(repeating: "d", count: 2_000) + "/catalog.csv"
        let text = message { _ = try Catalog.open(path) }
        expectBytes(text, "cannot read '/" + String(repeating: "d", count: 63) + "…/catalog.csv': File name too long")
    }

    @Test func aShortPathIsShownWhole() {
        let text = message { _ = try Catalog.open("/nonexistent/catalog.csv") }
        expectBytes(text, "cannot read '/nonexistent/catalog.csv': No such file or directory")
    }
}
