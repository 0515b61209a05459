import Foundation
import TestSupport
import Testing

/// CSV output is opened in spreadsheets: catalog text that starts like a formula must not run.
@Suite struct SpreadsheetFormulaTests {
    static let catalog = #"""
        {"product":"=HYPERLINK(\"http://x\",\"y\")","prices":{"USA":"1.99"},"title":{"en":"+cmd"}}
        {"product":"-2","prices":{"USA":"1"},"title":{"en":"@SUM(A1)"}}
        {"product":"\ttab","prices":{"USA":"1"},"title":{"en":"\rreturn"}}
        {"product":"safe-id","prices":{"USA":"1"},"title":{"en":"a = b"}}
        {"product":"\u009Bc1","prices":{"USA":"1"},"title":{"en":"\u0085next"}}

        """#

    @Test func catalogCellsThatStartLikeFormulasAreNeutralizedByDefault() throws {
        let directory = try temporaryDirectory()
        let path = directory.appendingPathComponent("c.jsonl")
        try Data(Self.catalog.utf8).write(to: path)
        let run = try runStorePrice(["render", "--any-product-id", path.path, "--storefronts", "USA", "--format", "csv"])
        #expect(run.status == 0, "\(run.error)")
        let rows = run.output.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().map { String($0) }
        expectBytes(rows.joined(separator: "\n"), """
            "'=HYPERLINK(""http://x"",""y"")",USA,,en_US@currency=USD,1.99,$1.99,'+cmd,,,,,,,
            '-2,USA,,en_US@currency=USD,1,$1.00,'@SUM(A1),,,,,,,
            '\ttab,USA,,en_US@currency=USD,1,$1.00,"'\rreturn",,,,,,,
            safe-id,USA,,en_US@currency=USD,1,$1.00,a = b,,,,,,,
            '\u{9B}c1,USA,,en_US@currency=USD,1,$1.00,'\u{85}next,,,,,,,

            """)

        let raw = try runStorePrice(["render", "--any-product-id", path.path, "--storefronts", "USA", "--format", "csv", "--raw-csv"])
        let rawRows = raw.output.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().map { String($0) }
        expectBytes(rawRows.joined(separator: "\n"), """
            "=HYPERLINK(""http://x"",""y"")",USA,,en_US@currency=USD,1.99,$1.99,+cmd,,,,,,,
            -2,USA,,en_US@currency=USD,1,$1.00,@SUM(A1),,,,,,,
            \ttab,USA,,en_US@currency=USD,1,$1.00,"\rreturn",,,,,,,
            safe-id,USA,,en_US@currency=USD,1,$1.00,a = b,,,,,,,
            \u{9B}c1,USA,,en_US@currency=USD,1,$1.00,\u{85}next,,,,,,,

            """)
    }

    @Test func formattedPricesAreNotCatalogText() throws {
        // A negative amount formats with a leading minus: a price, written as ICU wrote it.
        let run = try runStorePrice(["format", "-1.99", "--storefront", "USA"])
        expectBytes(run.output, "-$1.99\n")
    }

    @Test func accountsFileCellsAreNeutralized() throws {
        // Account names are restricted to letters, digits and '-', '_', '.'; an email is freer.
        let directory = try temporaryDirectory()
        let path = directory.appendingPathComponent("a.json")
        try Data(#"[{"name":"x","email":"=1+2@example.com","storefront":"USA"}]"#.utf8).write(to: path)
        let csv = try runStorePrice(["accounts", "--accounts", path.path, "--format", "csv"])
        #expect(csv.status == 0, "\(csv.error)")
        expectBytes(csv.output, """
            name,email,storefront,store_language,device_locale,description,currency,price_locale
            x,'=1+2@example.com,USA,,,,USD,en_US@currency=USD

            """)
        let raw = try runStorePrice(["accounts", "--accounts", path.path, "--format", "csv", "--raw-csv"])
        #expect(raw.output.contains("\nx,=1+2@example.com,USA,"))
    }
}
