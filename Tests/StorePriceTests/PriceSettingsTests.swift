import Testing

@testable import StorePrice

/// One ``PriceSettings`` decides the style of everything made from it: a formatter, both
/// renderers, a paywall and a snapshot show Apple's `¥800`, not ICU's `￥800`.
@Suite struct PriceSettingsTests {
    let prices = PriceSettings(options: .init(style: .appStore))

    @Test func everythingMadeFromTheSettingsFollowsTheirStyle() throws {
        let japan = try Storefront("JPN")
        let product = try Product(id: "coins.100", prices: ["JPN": "800"])
        #expect(try prices.formatter(for: japan).format(amount: "800") == "¥800")
        #expect(try prices.formatter(for: japan.priceLocale).format(amount: "800") == "¥800")
        #expect(try prices.catalogRenderer(for: [japan]).render([product]).rows.map(\.formatted) == ["¥800"])
        var bytes: [UInt8] = []
        _ = try prices.bulkRenderer(targets: RenderTarget.storefronts([japan])).render([product]) { bytes += $0 }
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""formatted":"¥800""#))
        let paywall = try prices.paywall(
            price: Price("9800", currency: japan.currency), period: SubscriptionPeriod("P1Y"), in: japan.priceLocale)
        #expect(try paywall.render("billed_amount_first") == "¥9,800/年 (¥816/月)")
        let snapshot = try prices.snapshot(products: [product])
        #expect(!snapshot.rows.isEmpty)
        #expect(snapshot.rows.allSatisfy { $0.formatted == "¥800" })
        // The DocC service article's example.
        let monthly = try Product(
            id: "pro.monthly", prices: ["USA": "4.99", "JPN": "800"],
            subscription: SubscriptionTerms(
                period: SubscriptionPeriod("P1M"),
                introductoryOffer: CatalogOffer(paymentMode: "free", period: SubscriptionPeriod("P1W"))))
        let rows = try prices.catalogRenderer(for: [japan]).render([monthly]).rows
        #expect(rows.map(\.formatted) == ["¥800"])
        #expect(rows.map { $0.subscription?.pricePerPeriod } == ["¥800/月"])
        let compared = try prices.paywall(
            price: Price("9800", currency: japan.currency), period: SubscriptionPeriod("P1Y"),
            comparedTo: Paywall.Plan(price: Price("1000", currency: japan.currency), period: SubscriptionPeriod("P1M")),
            in: japan.priceLocale)
        #expect(try compared.render("savings") == "18%")
        // The default settings are ICU's.
        #expect(try PriceSettings().formatter(for: japan).format(amount: "800") == "￥800")
    }
}
