import Hummingbird
import StorePrice

/// `GET /v1/price`: one amount, in the price locale a storefront, test account or locale names.
struct PriceQuery {
    let formatter: PriceFormatter
    let storefront: Storefront?
    let account: TestAccount?
    let amount: String
    let period: SubscriptionPeriod?

    /// The parameters the route takes, to name in messages.
    static let parameters = ["storefront", "language", "account", "locale", "amount", "period", "style", "rounding"]

    init(_ query: Hummingbird.Parameters) throws {
        let parameters = try QueryParameters(query, route: "/v1/price", allowed: Self.parameters)
        func value(_ name: String) -> String? { parameters[name] }
        guard let amount = value("amount") else {
            throw ServiceError.badRequest("missing amount; give it as decimal text: amount=1200")
        }
        let named = ["storefront", "account", "locale"].filter { value($0) != nil }
        guard named.count == 1 else {
            throw ServiceError.badRequest(
                named.isEmpty
                    ? "missing storefront, account or locale: storefront=JPN, account=jpn or locale=ja_JP@currency=JPY"
                    : "give only one of storefront=, account= and locale=; got \(named.joined(separator: "= and "))=")
        }
        if value("language") != nil && value("storefront") == nil {
            throw ServiceError.badRequest("language= goes with storefront=")
        }
        let settings = try parameters.settings()
        let locale: PriceLocale
        do {
            (locale, storefront, account) = try Self.priceLocale(
                storefront: value("storefront"), language: value("language"), account: value("account"),
                locale: value("locale"))
            formatter = try settings.formatter(for: locale)
            period = try value("period").map { (text) throws(StorePriceError) in
                let period = try SubscriptionPeriod(text)
                try StorePeriods.appStore.checkSubscription(period)
                return period
            }
        } catch {
            throw ServiceError.badRequest(error.description)
        }
        self.amount = amount
    }

    /// The price locale the storefront (in a language), the account or the locale names.
    static func priceLocale(storefront code: String?, language: String?, account name: String?, locale: String?)
        throws(StorePriceError) -> (PriceLocale, Storefront?, TestAccount?)
    {
        if let code {
            let storefront = try Storefront(code)
            let locale = try language.map { (language) throws(StorePriceError) in
                try storefront.priceLocale(language: language)
            } ?? storefront.priceLocale
            return (locale, storefront, nil)
        }
        if let name {
            let account = try TestAccountFile.builtIn.account(named: name)
            return (account.priceLocale, account.storefront, account)
        }
        return (try PriceLocale(locale ?? ""), nil, nil)
    }

    func response() throws -> PriceResponse {
        do {
            let price = try Price(amount, currency: formatter.locale.currency)
            return PriceResponse(
                storefront: storefront, account: account?.name, priceLocale: formatter.locale, amount: price.amount,
                currency: price.currency, style: formatter.options.style == .appStore ? "app-store" : "icu",
                formatted: try formatter.format(price), period: period,
                pricePerPeriod: try period.map { (period) throws(StorePriceError) in try formatter.format(price, per: period) })
        } catch {
            throw ServiceError.badRequest("\(error)")
        }
    }
}

/// The answer to `GET /v1/price`: `{"storefront":"JPN","account":null,"price_locale":
/// "ja_JP@currency=JPY","amount":"1200","currency":"JPY","style":"icu","formatted":"￥1,200",
/// "period":null,"price_per_period":null}`.
struct PriceResponse: Encodable, Sendable {
    var storefront: Storefront?
    var account: String?
    var priceLocale: PriceLocale
    var amount: String
    var currency: CurrencyCode
    var style: String
    var formatted: String
    var period: SubscriptionPeriod?
    var pricePerPeriod: String?

    enum CodingKeys: String, CodingKey {
        case storefront, account, amount, currency, style, formatted, period
        case priceLocale = "price_locale"
        case pricePerPeriod = "price_per_period"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(storefront, forKey: .storefront)
        try container.encode(account, forKey: .account)
        try container.encode(priceLocale, forKey: .priceLocale)
        try container.encode(amount, forKey: .amount)
        try container.encode(currency, forKey: .currency)
        try container.encode(style, forKey: .style)
        try container.encode(formatted, forKey: .formatted)
        try container.encode(period, forKey: .period)
        try container.encode(pricePerPeriod, forKey: .pricePerPeriod)
    }
}
