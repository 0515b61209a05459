import Foundation
import StorePrice
import TestSupport
import Testing

/// What a service receives: storefronts named by code in a request body, and in-memory products
/// priced by storefront code.
@Suite struct ServiceInputTests {
    @Test(arguments: [#""JPN""#, #""JP""#, #""jpn""#, #""143462""#, "143462"])
    func aStorefrontDecodesFromItsCode(_ json: String) throws {
        for strategy in [JSONDecoder.KeyDecodingStrategy.useDefaultKeys, .convertFromSnakeCase] {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = strategy
            let body = try decoder.decode([String: Storefront].self, from: Data(#"{"storefront":\#(json)}"#.utf8))
            #expect(body["storefront"]?.countryCode == "JPN")
        }
    }

    @Test func theFullObjectStillDecodes() throws {
        let object = #"{"storefront_id": 143462, "alpha2": "JP", "alpha3": "JPN", "name": "Japan", "currency": "JPY", "languages": ["ja", "en-US"], "price_locale": "ja_JP@currency=JPY"}"#
        #expect(try JSONDecoder().decode(Storefront.self, from: Data(object.utf8)) == Storefront("JPN"))
    }

    @Test(arguments: [#""XYZ""#, "1", #""""#, "true"])
    func anUnknownCodeIsRefused(_ json: String) {
        #expect(throws: (any Error).self) { try JSONDecoder().decode([String: Storefront].self, from: Data(#"{"s":\#(json)}"#.utf8)) }
    }

    @Test func productsArePricedByCodeAndReadBackInTheSameKeys() throws {
        let product = try Product(id: "com.example.coins", prices: ["USA": "4.99", "JP": "160", "143444": "3.99"])
        #expect(product.pricesByStorefront.mapValues(\.amount) == ["USA": "4.99", "JPN": "160", "GBR": "3.99"])
        #expect(product.prices[143462]?.amount == "160")
    }

    @Test func badPricesAndTwoCodesOfOneStorefrontAreRefused() {
        #expect(throws: StorePriceError.self) { try Product(id: "p", prices: ["JPN": "1,5"]) }
        #expect(throws: StorePriceError.self) { try Product(id: "p", prices: ["XYZ": "1"]) }
        #expect(throws: StorePriceError.invalidCatalog(
            source: "product 'p'", line: nil, field: "prices.USA", reason: "a second price for USA"))
        {
            try Product(id: "p", prices: ["US": "0.99", "USA": "0.99"])
        }
    }
}

/// Foundation's `Locale` and StorePrice's `PriceLocale`, both ways.
@Suite struct FoundationLocaleTests {
    @Test(arguments: ["ja_JP@currency=JPY", "de_CH@currency=CHF", "zh_Hant_TW@currency=TWD", "pt_CV@currency=USD"])
    func aPriceLocaleRoundTripsThroughLocale(_ identifier: String) throws {
        let priceLocale = try PriceLocale(identifier)
        let locale = Locale(priceLocale)
        #expect(try PriceLocale(locale) == priceLocale)
        #expect(locale.identifier == identifier)
    }

    @Test func aLocaleWithoutACurrencyIsRefused() {
        #expect(throws: StorePriceError.self) { try PriceLocale(Locale(identifier: "ja_JP")) }
    }
}

/// StoreKit 2's names and Foundation's `FormatStyle`, as a Swift developer reaches for them.
@Suite struct FoundationFluencyTests {
    @Test func aPriceFormatsWithTheStorePriceFormatStyle() throws {
        let japan = try Storefront("JPN")
        let price = try Price("1200", currency: japan.currency)
        expectBytes(price.formatted(.storePrice(storefront: japan)), "￥1,200")
        expectBytes(price.formatted(.storePrice(storefront: japan, options: .init(style: .appStore))), "¥1,200")
        expectBytes(price.formatted(.storePrice(try PriceLocale("en_JP@currency=JPY"))), "¥1,200")
        let account = try TestAccountFile.builtIn.account(named: "jpn")
        expectBytes(price.formatted(.storePrice(account: account)), "￥1,200")
        // What the style cannot show is its amount and code, never another currency's format.
        let dollars = try Price("4.99", currency: CurrencyCode("USD"))
        expectBytes(dollars.formatted(.storePrice(storefront: japan)), "4.99 USD")
        expectBytes(try Price("1200.5", currency: japan.currency).formatted(.storePrice(storefront: japan)), "1200.5 JPY")
    }

    @Test func theStyleAndItsOptionsAreCodable() throws {
        let style = StorePriceFormatStyle(
            locale: try PriceLocale("de_CH@currency=CHF"), options: .init(display: .isoCode, rounding: .halfEven, style: .icu))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        expectBytes(
            String(decoding: try encoder.encode(style), as: UTF8.self),
            #"{"locale":"de_CH@currency=CHF","options":{"display":"isoCode","rounding":"halfEven","style":"icu"}}"#)
        #expect(try JSONDecoder().decode(StorePriceFormatStyle.self, from: encoder.encode(style)) == style)
        #expect(try JSONDecoder().decode(PriceFormatter.Options.self, from: Data("{}".utf8)) == PriceFormatter.Options())
    }

    @Test func periodsAndStorefrontsHaveStoreKitsNames() throws {
        let period = try SubscriptionPeriod(value: 3, unit: .month)
        #expect(period.value == 3)
        #expect(period.unit == .month)
        #expect(period.iso8601 == "P3M")
        let japan = try Storefront("143462")
        #expect(japan.id == "143462")
        #expect(japan.countryCode == "JPN")
    }
}
