import Foundation
import Hummingbird
import StorePrice

/// `GET /v1/paywall`: a subscription's paywall arguments and lines, as `storeprice paywall`
/// computes them: `?storefront=USA&price=59.99&period=P1Y&compare=4.99:P1W&offer=free:P1W`.
struct PaywallQuery {
    let paywall: Paywall
    let locale: PriceLocale
    let template: String?
    let name: String?

    /// The parameters the route takes, to name in messages.
    static let parameters = [
        "storefront", "language", "account", "locale", "price", "period", "compare", "offer", "offer_start",
        "billing_plan", "style", "rounding", "name", "template",
    ]

    init(_ query: Hummingbird.Parameters) throws {
        let parameters = try QueryParameters(query, route: "/v1/paywall", allowed: Self.parameters)
        func value(_ name: String) -> String? { parameters[name] }
        let named = ["storefront", "account", "locale"].filter { value($0) != nil }
        guard named.count == 1 else {
            throw ServiceError.badRequest(
                named.isEmpty
                    ? "missing storefront, account or locale: storefront=USA, account=usa or locale=en_US@currency=USD"
                    : "give only one of storefront=, account= and locale=; got \(named.joined(separator: "= and "))=")
        }
        if value("language") != nil && value("storefront") == nil {
            throw ServiceError.badRequest("language= goes with storefront=")
        }
        guard let price = value("price") else { throw ServiceError.badRequest("missing price; give it as decimal text: price=59.99") }
        guard let period = value("period") else {
            throw ServiceError.badRequest("missing period; give it in ISO 8601: period=P1M (also P1W, P3M, P1Y)")
        }
        if value("template") != nil && value("name") != nil {
            throw ServiceError.badRequest("give name= (a built-in line) or template=, not both")
        }
        let settings = try parameters.settings()
        do {
            (locale, _, _) = try PriceQuery.priceLocale(
                storefront: value("storefront"), language: value("language"), account: value("account"),
                locale: value("locale"))
            let currency = locale.currency
            let rule = StorePeriods.appStore
            try rule.checkSubscription(SubscriptionPeriod(period))
            if let text = value("offer") {
                let offer = try SubscriptionOffer(text, currency: currency)
                try rule.checkOffer(period: offer.period, count: offer.periodCount)
            }
            if let text = value("compare") { try rule.checkSubscription(Paywall.Plan(text, currency: currency).period) }
            paywall = try settings.paywall(
                price: Price(price, currency: currency), period: SubscriptionPeriod(period),
                offer: value("offer").map { (text) throws(StorePriceError) in try SubscriptionOffer(text, currency: currency) },
                comparedTo: value("compare").map { (text) throws(StorePriceError) in try Paywall.Plan(text, currency: currency) },
                billingPlan: value("billing_plan").map { (text) throws(StorePriceError) in
                    try Paywall.Plan(text, currency: currency)
                },
                offerStart: value("offer").map { _ in try Self.day(value("offer_start")) }, in: locale)
        } catch let error as StorePriceError {
            throw ServiceError.badRequest(error.description)
        }
        template = value("template")
        name = value("name")
    }

    /// Midnight UTC of a `YYYY-MM-DD` day, or of today.
    static func day(_ text: String?) throws(StorePriceError) -> Date {
        guard let text else {
            return Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let fields = text.split(separator: "-").compactMap { Int($0) }
        guard fields.count == 3, text.count == 10,
            let date = calendar.date(from: DateComponents(year: fields[0], month: fields[1], day: fields[2])),
            calendar.dateComponents([.year, .month, .day], from: date) == DateComponents(year: fields[0], month: fields[1], day: fields[2])
        else {
            throw .invalidOffer(text, reason: "the start is a day written YYYY-MM-DD, such as 2026-11-27 (offer_start=)")
        }
        return date
    }

    /// The arguments with their values, why the others have none, and the lines: the template's,
    /// the named built-in line, or every built-in line this subscription has.
    func response() throws -> PaywallResponse {
        try PaywallResponse(paywall, template: template, name: name)
    }
}

/// The answer to `GET /v1/paywall`: `{"arguments":{"price":"$59.99",…},"lines":{"period":"1 year",…},
/// "missing":{"offer":"there is no offer",…},"price_locale":"en_US@currency=USD"}`.
struct PaywallResponse: Encodable, Sendable {
    var priceLocale: String
    var arguments: [String: String]
    var missing: [String: String]
    var lines: [String: String]
    /// For a catalog's subscription: the product, and the one savings are stated against.
    var product: String?
    var compare: String?

    enum CodingKeys: String, CodingKey {
        case arguments, missing, lines, product, compare
        case priceLocale = "price_locale"
    }

    /// A paywall's arguments, why the others have none, and its lines: the template given, the
    /// line named, or every line these templates (the app's over the built-in ones) have for it.
    /// A line that needs what this subscription lacks (an offer, a plan to compare with, wording
    /// for its language) is left out, as the CLI leaves it out.
    init(_ paywall: Paywall, template: String?, name: String?, templates: PaywallTemplates = .builtIn) throws {
        var lines: [String: String] = [:]
        do {
            if let template {
                lines["template"] = try paywall.render(PaywallTemplate(template, name: "template", source: "template="))
            } else if let name {
                lines[name] = try paywall.render(name, templates: templates)
            } else {
                for name in Set(PaywallTemplates.cldrTemplateNames + ["offer_then_price", "save"] + templates.names) {
                    if let text = try? paywall.render(name, templates: templates) { lines[name] = text }
                }
                if paywall.values[.offer] != nil { lines["offer"] = paywall.values[.offer]?.text }
            }
        } catch {
            throw ServiceError.badRequest(error.description)
        }
        var arguments: [String: String] = [:]
        for (argument, value) in paywall.values { arguments[argument.name] = value.text }
        var missing: [String: String] = [:]
        for (argument, reason) in paywall.missing { missing[argument.name] = reason }
        self.init(priceLocale: paywall.locale.identifier, arguments: arguments, missing: missing, lines: lines)
    }

    init(priceLocale: String, arguments: [String: String], missing: [String: String], lines: [String: String]) {
        self.priceLocale = priceLocale
        self.arguments = arguments
        self.missing = missing
        self.lines = lines
    }

    /// Writes `product` and `compare` only when there is a product: `/v1/paywall` has neither.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(arguments, forKey: .arguments)
        try container.encode(missing, forKey: .missing)
        try container.encode(lines, forKey: .lines)
        try container.encode(priceLocale, forKey: .priceLocale)
        if let product {
            try container.encode(product, forKey: .product)
            try container.encode(compare, forKey: .compare)
        }
    }
}
