@testable import StorePrice
import Foundation
import TestSupport
import Testing

/// One rule for the periods a store allows, and every reader holding to it alike.
@Suite struct StorePeriodsTests {
    static let renew = "the App Store's subscriptions renew every P1W, P1M, P2M, P3M, P6M or P1Y"
    static let last = "the App Store's offer periods are P3D, P1W, P2W, P1M, P2M, P3M, P6M or P1Y"

    @Test(arguments: ["P1W", "P1M", "P2M", "P3M", "P6M", "P1Y"])
    func theAppStoresSubscriptionPeriods(_ text: String) throws {
        try StorePeriods.appStore.checkSubscription(SubscriptionPeriod(text))
    }

    @Test(arguments: ["P3D", "P1D", "P2W", "P5W", "P4M", "P2Y", "P13M"])
    func periodsTheAppStoreHasNone(_ text: String) throws {
        #expect(throws: StorePriceError.invalidPeriod(text, reason: Self.renew)) {
            try StorePeriods.appStore.checkSubscription(SubscriptionPeriod(text))
        }
    }

    @Test func offerPeriodsAndCounts() throws {
        for text in ["P3D", "P1W", "P2W", "P1M", "P2M", "P3M", "P6M", "P1Y"] {
            try StorePeriods.appStore.checkOffer(period: SubscriptionPeriod(text), count: 1)
        }
        try StorePeriods.appStore.checkOffer(period: SubscriptionPeriod("P1M"), count: 12)
        #expect(throws: StorePriceError.invalidPeriod("P5D", reason: Self.last)) {
            try StorePeriods.appStore.checkOffer(period: SubscriptionPeriod("P5D"), count: 1)
        }
        #expect(throws: StorePriceError.invalidOffer("P1Mx13", reason: "the App Store's pay-as-you-go offers have 1 to 12 periods")) {
            try StorePeriods.appStore.checkOffer(period: SubscriptionPeriod("P1M"), count: 13)
        }
    }

    /// A JSON Lines catalog and a StoreKit file refuse what `format` and `paywall` refuse.
    @Test(arguments: [
        (#"{"product":"a","prices":{"USA":"1"},"period":"P5W"}"#, "catalog 'FILE', line 1, field 'period': invalid period 'P5W': \(renew)"),
        (#"{"product":"a","prices":{"USA":"1"},"period":"P1M","introductory_offer":{"payment_mode":"free","period":"P5D"}}"#,
         "catalog 'FILE', line 1, field 'introductory_offer': invalid period 'P5D': \(last)"),
        (#"{"product":"a","prices":{"USA":"1"},"period":"P1M","introductory_offer":{"payment_mode":"payAsYouGo","period":"P1M","period_count":13,"prices":{"USA":"0.99"}}}"#,
         "catalog 'FILE', line 1, field 'introductory_offer': invalid offer 'P1Mx13': the App Store's pay-as-you-go offers have 1 to 12 periods"),
    ])
    func catalogsHoldToTheSameRule(_ line: String, _ message: String) throws {
        let file = try temporaryDirectory().appendingPathComponent("c.jsonl")
        try (line + "\n").write(to: file, atomically: true, encoding: .utf8)
        #expect {
            _ = try Catalog.load(file.path)
        } throws: { error in
            expectBytes("\(error)", message.replacingOccurrences(of: "FILE", with: file.path))
            return true
        }
    }

    @Test func theSandboxHoldsToTheStoresRule() throws {
        #expect(throws: StorePriceError.invalidPeriod("P2W", reason: Self.renew)) {
            try SandboxRenewals.renewalInterval(for: SubscriptionPeriod("P2W"))
        }
    }

    /// ISO 8601 allows a fraction in a period; a store's counts are whole, and the message says so.
    @Test func aCountThatMustBeWholeSaysSo() throws {
        #expect(throws: StorePriceError.invalidPeriod("P3.5M", reason: "the count is a whole number, such as P3M; a fraction of a month is no store period")) {
            try SubscriptionPeriod("P3.5M")
        }
        #expect(throws: StorePriceError.invalidOffer("payAsYouGo:P1Mx3.5", reason: "the number of periods after 'x' is whole, such as x3; 3.5 is not")) {
            try SubscriptionOffer(terms: "payAsYouGo:P1Mx3.5", price: Price("0.99", currency: CurrencyCode("USD")))
        }
    }

    /// Withdrawn language codes are read as ICU reads them: iw is Hebrew.
    @Test(arguments: [("iw", "he"), ("in", "id"), ("ji", "yi"), ("no", "nb")])
    func withdrawnLanguageCodesAreReplaced(_ old: String, _ new: String) throws {
        let locale = try PriceLocale("\(old)_IL@currency=ILS")
        #expect(locale.language == new)
        #expect(try Storefront("ISR").hasStoreLanguage("iw"))
        expectBytes(try PriceFormatter(locale: Storefront("ISR").priceLocale(language: "iw")).format(amount: "9.99"), "\u{200F}9.99\u{00A0}\u{200F}₪")
    }
}
