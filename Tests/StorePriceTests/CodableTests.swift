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
        expectBytes(json, #"{"currency":"JPY","locale":"ja_JP@currency=JPY","offer":{"price":{"amount":"0.99","currency":"USD"},"terms":"payAsYouGo:P1Mx3"},"period":"P1M","price":{"amount":"114.99","currency":"PLN"},"trial":{"price":null,"terms":"free:P1W"}}"#)
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
}
