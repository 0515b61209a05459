import StorePrice
import TestSupport
import Testing

@Suite struct CurrencyCodeTests {
    @Test(arguments: [("JPY", 0), ("USD", 2), ("KWD", 3), ("EUR", 2), ("CLP", 0), ("BHD", 3), ("krw", 0)])
    func knowsFractionDigitsFromICU(_ code: String, _ digits: Int) throws {
        let currency = try CurrencyCode(code)
        #expect(currency.fractionDigits == digits)
        #expect(currency.code == code.uppercased())
    }

    @Test(arguments: [
        ("ZZZ", "unknown currency 'ZZZ'"),
        ("usd1", "unknown currency 'usd1': an ISO 4217 code is three letters, such as USD"),
        ("EURO", "unknown currency 'EURO': an ISO 4217 code is three letters, such as USD"),
        ("", "unknown currency '': an ISO 4217 code is three letters, such as USD"),
        ("U$D", "unknown currency 'U$D': an ISO 4217 code is three letters, such as USD"),
        ("ÜSD", "unknown currency 'ÜSD': an ISO 4217 code is three letters, such as USD"),
    ])
    func refusesCodesICUDoesNotKnow(_ code: String, _ message: String) {
        #expect {
            try CurrencyCode(code)
        } throws: { error in
            expectBytes(String(describing: error), message)
            return true
        }
    }

    @Test func acceptsHistoricCodesForOldSnapshots() throws {
        // Bulgaria's lev and Croatia's kuna: storefronts charged them before moving to the euro.
        #expect(try CurrencyCode("BGN").fractionDigits == 2)
        #expect(try CurrencyCode("HRK").fractionDigits == 2)
    }
}
