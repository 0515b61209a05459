import ICUNumberFormat

/// Formats prices in one price locale, byte for byte as ICU does.
///
/// A formatter is a value that is cheap to copy and safe to share across threads and tasks. The
/// ICU formatter behind it is opened once per (locale, options) and cached for the process.
///
/// ```swift
/// let formatter = try PriceFormatter(locale: PriceLocale("en_GB@currency=USD"))
/// let price = try Price("0.99", currency: CurrencyCode("USD"))
/// try formatter.format(price)  // "US$0.99"
/// ```
///
/// By default a price is never rounded: an amount with more fraction digits than its currency
/// uses is ``StorePriceError/excessPrecision(amount:currency:fractionDigits:)``. A price in a
/// currency other than the locale's is ``StorePriceError/currencyMismatch(price:locale:)``:
/// StorePrice never converts.
public struct PriceFormatter: Sendable {
    /// The price locale this formatter shows prices in.
    public let locale: PriceLocale
    /// How prices are shown and rounded.
    public let options: Options

    private let icu: ICUNumberFormatter

    /// Creates a formatter for a price locale.
    ///
    /// - Parameters:
    ///   - locale: the price locale, such as `ja_JP@currency=JPY`.
    ///   - options: currency display and rounding; by default the symbol and no rounding.
    /// - Throws: ``StorePriceError/icuFailure(code:operation:)`` if ICU cannot open a formatter.
    public init(locale: PriceLocale, options: Options = Options()) throws(StorePriceError) {
        self.locale = locale
        self.options = options
        self.icu = try FormatterCache.formatter(for: locale, options: options)
    }

    /// Formats a price in this formatter's locale.
    ///
    /// - Throws: ``StorePriceError/currencyMismatch(price:locale:)`` when the price's currency
    ///   is not the locale's; ``StorePriceError/excessPrecision(amount:currency:fractionDigits:)``
    ///   when rounding is `.reject` and the amount has more fraction digits than the currency.
    public func format(_ price: Price) throws(StorePriceError) -> String {
        try check(price)
        do {
            return try icu.format(decimal: price.amount)
        } catch {
            throw .icuFailure(code: error.name, operation: "format \(price) in \(locale)")
        }
    }

    /// Formats a price and passes its UTF-8 bytes to `body`, without building a `String`.
    ///
    /// The buffer is valid only inside `body`. Use this to write many prices to a byte stream.
    public func withFormattedUTF8<R>(
        _ price: Price, _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) throws(StorePriceError) -> R {
        try check(price)
        var amount = price.amount
        let result = amount.withUTF8 { bytes in
            Result { () throws(ICUError) -> R in try icu.format(decimalUTF8: bytes, body) }
        }
        switch result {
        case .success(let value): return value
        case .failure(let error):
            throw .icuFailure(code: error.name, operation: "format \(price) in \(locale)")
        }
    }

    /// Parses decimal text in the locale's currency and formats it.
    ///
    /// ```swift
    /// try PriceFormatter(locale: PriceLocale("ja_JP@currency=JPY")).format(amount: "1200")  // "￥1,200"
    /// ```
    public func format(amount: String) throws(StorePriceError) -> String {
        try format(Price(amount, currency: locale.currency))
    }

    private func check(_ price: Price) throws(StorePriceError) {
        guard price.currency == locale.currency else {
            throw .currencyMismatch(price: price, locale: locale)
        }
        if options.rounding == .reject, price.fractionDigits > price.currency.fractionDigits {
            throw .excessPrecision(amount: price.amount, currency: price.currency, fractionDigits: price.fractionDigits)
        }
    }
}

extension PriceFormatter {
    /// How a formatter shows the currency and rounds amounts.
    public struct Options: Hashable, Sendable {
        /// How the currency is shown.
        public var display: CurrencyDisplay
        /// What happens to amounts with more fraction digits than the currency uses.
        public var rounding: Rounding

        /// - Parameters:
        ///   - display: `.symbol` (`$`, `US$`) by default.
        ///   - rounding: `.reject` by default: an amount is never changed silently.
        public init(display: CurrencyDisplay = .symbol, rounding: Rounding = .reject) {
            self.display = display
            self.rounding = rounding
        }

        /// The ICU number skeleton for these options and a currency, such as
        /// `currency/JPY unit-width-short rounding-mode-unnecessary`.
        public func skeleton(currency: CurrencyCode) -> String {
            "currency/\(currency.code) \(display.skeleton) \(rounding.skeleton)"
        }
    }

    /// How the currency appears in a formatted price.
    public enum CurrencyDisplay: String, Hashable, Sendable, CaseIterable {
        /// The locale's symbol: `$0.99` in en_US, `US$0.99` in en_GB.
        case symbol
        /// The narrowest symbol: `$0.99` in en_GB too.
        case narrowSymbol
        /// The ISO code: `USD 0.99`.
        case isoCode
        /// The full name: `0.99 US dollars`.
        case name

        /// The skeleton fragment for this display.
        public var skeleton: String {
            switch self {
            case .symbol: "unit-width-short"
            case .narrowSymbol: "unit-width-narrow"
            case .isoCode: "unit-width-iso-code"
            case .name: "unit-width-full-name"
            }
        }
    }

    /// What a formatter does with an amount that has more fraction digits than its currency uses.
    public enum Rounding: String, Hashable, Sendable, CaseIterable {
        /// Refuse it with ``StorePriceError/excessPrecision(amount:currency:fractionDigits:)``.
        case reject
        /// Round to the nearest, ties to the even digit: ICU's and StoreKit's mode.
        case halfEven
        /// Round to the nearest, ties away from zero.
        case halfUp

        /// The skeleton fragment for this rounding.
        public var skeleton: String {
            switch self {
            case .reject: "rounding-mode-unnecessary"
            case .halfEven: "rounding-mode-half-even"
            case .halfUp: "rounding-mode-half-up"
            }
        }
    }
}
