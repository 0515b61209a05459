@testable import StorePrice
import Foundation
import TestSupport
import Testing

/// A catalog's subscription to its paywall in a storefront: its price, period and introductory
/// offer there, savings against another product, and the errors that name what is missing.
@Suite struct ProductPaywallTests {
    static let sample = Result { try Catalog.load(repositoryFile("Data/catalog-sample.jsonl").path) }

    static func product(_ id: String) throws -> Product {
        try #require(try sample.get().first { $0.id == id }, "no \(id) in the sample")
    }

    @Test(arguments: [
        // A free week everywhere; savings against the weekly plan.
        ("com.example.pro.yearly", "USA", nil, "com.example.pro.weekly", "offer_then_price", "1 week free, then $39.99 per year"),
        ("com.example.pro.yearly", "USA", nil, "com.example.pro.weekly", "save", "Save 61%"),
        ("com.example.pro.yearly", "JPN", nil, "com.example.pro.monthly", "billed_amount_first", "￥6,000/年 (￥500/月)"),
        // Three months at 0.99 in USA; the offer has no price in BRA, so BRA shows none.
        ("com.example.pro.monthly", "USA", nil, nil, "offer", "$0.99 per month for 3 months"),
        ("com.example.pro.monthly", "CAN", "fr", nil, "price_per_period", "6,99\u{00A0}$ par mois"),
    ] as [(String, String, String?, String?, String, String)])
    func aSubscriptionsPaywallInAStorefront(
        _ id: String, _ storefront: String, _ language: String?, _ compared: String?, _ line: String, _ expected: String
    ) throws {
        let target = try language.map { try RenderTarget(storefront: Storefront(storefront), language: $0) }
            ?? RenderTarget(storefront: Storefront(storefront))
        let paywall = try Paywall(subscription: Self.product(id), for: target, comparedTo: compared.map(Self.product))
        let text = line == "offer" ? paywall.values[.offer]?.text ?? "none" : try paywall.render(line)
        expectBytes(text, expected, "\(id) in \(storefront) \(line)")
    }

    @Test func anOfferPricedElsewhereIsNotShown() throws {
        let paywall = try Paywall(subscription: Self.product("com.example.pro.monthly"), for: RenderTarget(storefront: Storefront("BRA")))
        #expect(paywall.offer == nil)
        #expect(paywall.values[.offer] == nil)
        expectBytes(try paywall.render("price_per_period"), "R$\u{00A0}29,00 por mês")
    }

    @Test(arguments: [
        ("com.example.coins.100", "USA", nil,
         "paywall of 'com.example.coins.100': not an auto-renewable subscription (it has no period); a paywall is a subscription's"),
        ("com.example.pro.yearly", "USA", "com.example.coins.100",
         "paywall of 'com.example.pro.yearly': 'com.example.coins.100' is not a subscription (it has no period); savings are stated against one"),
    ] as [(String, String, String?, String)])
    func whatCannotBeAPaywallSaysWhy(_ id: String, _ storefront: String, _ compared: String?, _ message: String) throws {
        #expect(throws: StorePriceError.self) {
            try Paywall(subscription: Self.product(id), for: RenderTarget(storefront: Storefront(storefront)), comparedTo: compared.map(Self.product))
        }
        do {
            _ = try Paywall(subscription: Self.product(id), for: RenderTarget(storefront: Storefront(storefront)), comparedTo: compared.map(Self.product))
        } catch let error as StorePriceError {
            expectBytes(error.description, message)
        }
    }

    @Test func aProductWithoutAPriceThereIsAnInvalidProduct() throws {
        let only = try Product(id: "pro.monthly", prices: ["USA": "4.99"], subscription: SubscriptionTerms(period: SubscriptionPeriod("P1M")))
        let other = try Product(id: "pro.weekly", prices: ["JPN": "300"], subscription: SubscriptionTerms(period: SubscriptionPeriod("P1W")))
        #expect(throws: StorePriceError.invalidProducts([InvalidProduct(productID: "pro.monthly", reason: .noPrice(storefronts: ["JPN"]))])) {
            try Paywall(subscription: only, for: RenderTarget(storefront: Storefront("JPN")))
        }
        #expect(throws: StorePriceError.invalidPaywall(productID: "pro.monthly", reason: "'pro.weekly', to compare it with, has no price in USA")) {
            try Paywall(subscription: only, for: RenderTarget(storefront: Storefront("USA")), comparedTo: other)
        }
    }

    /// An argument asked for as a line says where its value is and how a template shows it.
    @Test func anArgumentAskedForAsALineSaysWhereItIs() throws {
        let paywall = try Paywall(subscription: Self.product("com.example.pro.yearly"), for: RenderTarget(storefront: Storefront("USA")))
        #expect(throws: StorePriceError.self) { try paywall.render("price") }
        do {
            _ = try paywall.render("price")
        } catch {
            expectBytes(
                error.description,
                "built-in template 'price' (en_US): no such template; price is an argument, whose value ('$39.99' here) is among "
                    + "the paywall's values; a template shows it as {price}")
        }
        do {
            _ = try paywall.render("savings_percent")
        } catch {
            expectBytes(
                error.description,
                "built-in template 'savings_percent' (en_US): no such template; savings_percent is an argument, whose value "
                    + "(none here: no plan to compare with) is among the paywall's values; a template shows it as {savings_percent}")
        }
    }
}
