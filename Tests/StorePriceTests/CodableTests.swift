import Foundation
import StorePrice
import TestSupport
import Testing

/// Values a service returns in JSON: their natural text forms, exact, and checked when read.
@Suite struct CodableTests {
    struct Sample: Codable, Equatable {
        var price: Price
        var currency: CurrencyCode
        var locale: PriceLocale
        var period: SubscriptionPeriod
        var offer: SubscriptionOffer
        var trial: SubscriptionOffer
    }

    @Test func encodesTextFormsAndReadsThemBack() throws {
        let usd = try CurrencyCode("USD")
        let sample = Sample(
            price: try Price("114.99", currency: try CurrencyCode("PLN")), currency: try CurrencyCode("JPY"),
            locale: try PriceLocale("ja_JP@currency=JPY"), period: try SubscriptionPeriod("P1M"),
            offer: try SubscriptionOffer(terms: "payAsYouGo:P1Mx3", price: try Price("0.99", currency: usd)),
            trial: try SubscriptionOffer(terms: "free:P1W", price: nil))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = String(decoding: try encoder.encode(sample), as: UTF8.self)
        expectBytes(json, #"{"currency":"JPY","locale":"ja_JP@currency=JPY","offer":{"payment_mode":"payAsYouGo","period":"P1M","period_count":3,"price":{"amount":"0.99","currency":"USD"}},"period":"P1M","price":{"amount":"114.99","currency":"PLN"},"trial":{"payment_mode":"freeTrial","period":"P1W","period_count":1,"price":null}}"#)
        #expect(try JSONDecoder().decode(Sample.self, from: Data(json.utf8)) == sample)
    }

    /// A type to decode, named so that test arguments stay `Sendable`.
    enum Kind: Sendable {
        case currency, locale, period, price, offer

        func decode(_ json: String) throws {
            let data = Data(json.utf8)
            switch self {
            case .currency: _ = try JSONDecoder().decode(CurrencyCode.self, from: data)
            case .locale: _ = try JSONDecoder().decode(PriceLocale.self, from: data)
            case .period: _ = try JSONDecoder().decode(SubscriptionPeriod.self, from: data)
            case .price: _ = try JSONDecoder().decode(Price.self, from: data)
            case .offer: _ = try JSONDecoder().decode(SubscriptionOffer.self, from: data)
            }
        }
    }

    @Test(arguments: [
        (#""XXX""#, Kind.currency, "unknown currency 'XXX'"),
        (#""xx_YY@currency=USD""#, Kind.locale, "unsupported locale 'xx_YY@currency=USD'"),
        (#""1 month""#, Kind.period, "invalid period '1 month'"),
        (#"{"amount":"1,99","currency":"USD"}"#, Kind.price, "invalid amount '1,99'"),
        (#"{"amount":0.99,"currency":"USD"}"#, Kind.price, "Expected to decode String"),
        (#"{"terms":"free:P1W","price":{"amount":"1","currency":"USD"}}"#, Kind.offer, "a free trial has no price"),
        (#"{"payment_mode":"payUpFront","period":"P1M","period_count":3,"price":{"amount":"1","currency":"USD"}}"#,
         Kind.offer, "pay up front is one payment"),
        (#"{"payment_mode":"trial","period":"P1W"}"#, Kind.offer, "the payment mode must be free, payAsYouGo or payUpFront"),
    ])
    func badValuesAreRefusedSayingWhy(_ json: String, _ kind: Kind, _ message: String) throws {
        #expect {
            try kind.decode(json)
        } throws: { error in
            String(describing: error).contains(message)
        }
    }

    @Test func errorsDescribeThemselvesAsLocalizedErrors() {
        #expect {
            _ = try PriceLocale("xx_YY")
        } throws: { error in
            error.localizedDescription == "unsupported locale 'xx_YY': ICU has no locale data for language 'xx'"
        }
    }

    /// The CLI's terms still read, and a catalog's `free` with `period_count` left out.
    @Test func anOfferReadsItsTermsAndTheCatalogsFields() throws {
        let decoder = JSONDecoder()
        let terms = try decoder.decode(
            SubscriptionOffer.self, from: Data(#"{"terms":"payAsYouGo:P1Mx3","price":{"amount":"0.99","currency":"USD"}}"#.utf8))
        #expect(terms.description == "payAsYouGo:P1Mx3:0.99")
        let free = try decoder.decode(SubscriptionOffer.self, from: Data(#"{"payment_mode":"free","period":"P1W"}"#.utf8))
        #expect(free == .freeTrial(try SubscriptionPeriod("P1W")))
    }

    @Test func approximatePricesAndAccountsEncodeInTheirFilesForms() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let monthly = try Price("59.99", currency: CurrencyCode("USD"))
            .approximately(per: SubscriptionPeriod("P1M"), billedEvery: SubscriptionPeriod("P1Y"))
        let json = String(decoding: try encoder.encode(monthly), as: UTF8.self)
        expectBytes(json, #"{"billed":{"amount":"59.99","currency":"USD"},"billed_every":"P1Y","is_exact":false,"period":"P1M","price":{"amount":"4.99","currency":"USD"},"rounding":"down"}"#)
        #expect(try JSONDecoder().decode(ApproximatePrice.self, from: Data(json.utf8)) == monthly)
        // A restated price that is not the billed price's restatement is refused.
        let wrong = json.replacingOccurrences(of: #""amount":"4.99""#, with: #""amount":"5.00""#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ApproximatePrice.self, from: Data(wrong.utf8)) }

        let account = try TestAccountFile.builtIn.account(named: "can-fr")
        let encoded = try encoder.encode([account])
        expectBytes(String(decoding: encoded, as: UTF8.self), #"[{"description":"A Canadian-store tester whose store language is French: prices in fr_CA with CAD.","email":"sandbox+can-fr@example.com","name":"can-fr","store_language":"fr","storefront":"CAN"}]"#)
        // An encoded array is an accounts file.
        #expect(try TestAccountFile(data: encoded, source: "encoded").accounts == [account])
        #expect(try JSONDecoder().decode([TestAccount].self, from: encoded) == [account])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(TestAccount.self, from: Data(#"{"name":"Bad Name","email":"a@b.c","storefront":"USA"}"#.utf8))
        }
    }
}
