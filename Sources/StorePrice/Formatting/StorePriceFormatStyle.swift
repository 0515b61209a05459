#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A Foundation `FormatStyle` that writes a price as its store shows it, so that formatting
/// reads as Swift's own does:
///
/// ```swift
/// let price = try Price("1200", currency: CurrencyCode("JPY"))
/// price.formatted(.storePrice(storefront: try Storefront("JPN")))                         // "￥1,200"
/// price.formatted(.storePrice(storefront: try Storefront("JPN"), options: .init(style: .appStore)))  // "¥1,200"
/// price.formatted(.storePrice(try PriceLocale("ja_JP@currency=JPY")))                    // "￥1,200"
/// ```
///
/// A `FormatStyle` cannot throw. A price the style cannot show (in another currency than the
/// price locale's, or with more digits than the currency has under ``PriceFormatter/Rounding/reject``)
/// is written as its exact amount and ISO code, `1200.5 JPY`, never in another currency's format;
/// ``PriceFormatter`` gives the error instead.
public struct StorePriceFormatStyle: FormatStyle, Sendable {
    /// The price locale prices are shown in.
    public var locale: PriceLocale
    /// Currency display, rounding and style.
    public var options: PriceFormatter.Options

    /// A style for a price locale.
    public init(locale: PriceLocale, options: PriceFormatter.Options = .init()) {
        self.locale = locale
        self.options = options
    }

    /// The price as the store shows it, or its amount and ISO code when the style cannot show it.
    public func format(_ price: Price) -> String {
        do {
            return try PriceFormatter(locale: locale, options: options).format(price)
        } catch {
            return "\(price.amount) \(price.currency.code)"
        }
    }
}

extension FormatStyle where Self == StorePriceFormatStyle {
    /// Prices in a price locale: `price.formatted(.storePrice(locale))`.
    public static func storePrice(_ locale: PriceLocale, options: PriceFormatter.Options = .init()) -> StorePriceFormatStyle {
        StorePriceFormatStyle(locale: locale, options: options)
    }

    /// Prices as a storefront shows them, in its default price locale.
    public static func storePrice(storefront: Storefront, options: PriceFormatter.Options = .init()) -> StorePriceFormatStyle {
        StorePriceFormatStyle(locale: storefront.priceLocale, options: options)
    }

    /// Prices as a test account's store shows them.
    public static func storePrice(account: TestAccount, options: PriceFormatter.Options = .init()) -> StorePriceFormatStyle {
        StorePriceFormatStyle(locale: account.priceLocale, options: options)
    }
}

extension Price {
    /// The price written by a format style: `price.formatted(.storePrice(storefront: japan))`.
    public func formatted<Style: FormatStyle>(_ style: Style) -> Style.FormatOutput where Style.FormatInput == Price {
        style.format(self)
    }
}

/// Options encode as their text forms: `{"display":"symbol","rounding":"reject","style":"icu"}`.
extension PriceFormatter.Options: Codable {
    private enum CodingKeys: String, CodingKey {
        case display, rounding, style
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            display: try container.decodeIfPresent(PriceFormatter.CurrencyDisplay.self, forKey: .display) ?? .symbol,
            rounding: try container.decodeIfPresent(PriceFormatter.Rounding.self, forKey: .rounding) ?? .reject,
            style: try container.decodeIfPresent(PriceFormatter.Style.self, forKey: .style) ?? .icu)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(display, forKey: .display)
        try container.encode(rounding, forKey: .rounding)
        try container.encode(style, forKey: .style)
    }
}

extension PriceFormatter.CurrencyDisplay: Codable {}
extension PriceFormatter.Rounding: Codable {}
extension PriceFormatter.Style: Codable {}
