#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension PriceLocale {
    /// A price locale from a Foundation `Locale` that names its currency, as StoreKit's
    /// `Product.priceFormatStyle.locale` does (`ja_JP@currency=JPY`), checked as
    /// ``init(_:)-(String)`` checks text.
    ///
    /// ```swift
    /// let locale = try PriceLocale(Locale(identifier: "ja_JP@currency=JPY"))
    /// locale.currency.code  // "JPY"
    /// ```
    ///
    /// - Throws: ``StorePriceError/unsupportedLocale(_:reason:)`` for a locale without a currency
    ///   or one ICU does not know.
    public init(_ locale: Locale) throws(StorePriceError) {
        try self.init(locale.identifier)
    }
}

extension Locale {
    /// The Foundation `Locale` of a price locale, currency keyword included.
    ///
    /// ```swift
    /// Locale(try PriceLocale("de_CH@currency=CHF")).identifier  // "de_CH@currency=CHF"
    /// ```
    public init(_ priceLocale: PriceLocale) {
        self.init(identifier: priceLocale.identifier)
    }
}
