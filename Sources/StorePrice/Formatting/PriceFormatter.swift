import ICUNumberFormat

/// Formats prices in one price locale: byte for byte as ICU does, or as the App Store does.
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
/// With ``Style/appStore`` in its options, a formatter writes prices the way Apple's servers do
/// (StoreKit 2's `displayPrice`, the App Store's pages): `¥800` in Japan, `USD 4.99` in Ghana. See
/// ``AppStoreRule``.
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
    /// With the App Store style, Apple's text around ICU's number; `nil` for ICU's own output.
    private let appStore: AppStoreFormat?
    /// With the Play style, Google Play's rules for this locale; `nil` otherwise.
    private let play: PlayFormat?
    /// The fraction digits this formatter shows, and a price may have before it is rounded or
    /// refused: the currency's, or in the App Store style Apple's (0 for rupees, where ICU has 2).
    public let fractionDigits: Int

    /// Creates a formatter for a price locale.
    ///
    /// - Parameters:
    ///   - locale: the price locale, such as `ja_JP@currency=JPY`.
    ///   - options: currency display and rounding; by default the symbol and no rounding.
    /// - Throws: ``StorePriceError/icuFailure(code:operation:)`` if ICU cannot open a formatter.
    public init(locale: PriceLocale, options: Options = Options()) throws(StorePriceError) {
        try self.init(locale: locale, options: options, buildsAtOnce: false)
    }

    /// A formatter whose ICU data is built on its first format rather than its third: for a bulk
    /// run, which builds each formatter it uses before rendering (see `compile()`).
    init(locale: PriceLocale, options: Options, buildsAtOnce: Bool) throws(StorePriceError) {
        self.locale = locale
        self.play = options.style == .play ? PlayFormat(locale: locale) : nil
        // Play shows every price it holds, micros and all: the Play style rounds as Play does.
        var options = options
        if options.style == .play, options.rounding == .reject { options.rounding = .halfEven }
        self.options = options
        if options.style == .appStore, let format = try AppStoreFormat(rule: AppStoreRule(for: locale), options: options) {
            self.appStore = format
            self.icu = format.number
            self.fractionDigits = format.fractionDigits
        } else {
            self.appStore = nil
            self.icu = try FormatterCache.formatter(for: locale, options: options, buildsAtOnce: buildsAtOnce)
            self.fractionDigits = locale.currency.fractionDigits
        }
    }

    /// Has ICU build this formatter's data now: see `ICUNumberFormatter.compile()`.
    func compile() { icu.compile() }

    /// Formats a price in this formatter's locale.
    ///
    /// - Throws: ``StorePriceError/currencyMismatch(price:locale:)`` when the price's currency
    ///   is not the locale's; ``StorePriceError/excessPrecision(amount:currency:fractionDigits:)``
    ///   when rounding is `.reject` and the amount has more fraction digits than the currency.
    public func format(_ price: Price) throws(StorePriceError) -> String {
        let amount = try amountToFormat(price)
        if let appStore { return try appStore.format(amount, price: price, locale: locale) }
        let text = try icuText(amount, price: price)
        guard let play else { return text }
        return play.apply(text, amount: price.amount)
    }

    /// ICU's output for the decimal text of a price.
    private func icuText(_ amount: String, price: Price) throws(StorePriceError) -> String {
        do {
            return try icu.format(decimal: amount)
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
        var amount = try amountToFormat(price)
        if let appStore {
            var text = try appStore.format(amount, price: price, locale: locale)
            return text.withUTF8 { body($0) }
        }
        if let play {
            var text = play.apply(try icuText(amount, price: price), amount: price.amount)
            return text.withUTF8 { body($0) }
        }
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

    /// The locale for the text around this formatter's prices (periods, counts, percents,
    /// dates): the price locale, or in the App Store style, where Apple writes Latin digits in a
    /// locale whose own are not (`SAR 59.99` in Saudi Arabia), the same locale with Latin digits,
    /// so that one line never mixes two numbering systems.
    var textLocale: PriceLocale {
        guard appStore != nil else { return locale }
        return Self.textLocales.value(for: TextLocaleKey(locale: locale, options: options)) {
            let price = (try? format(Price(minorUnits: 123, currency: locale.currency))) ?? ""
            let ownDigits = (try? FormatterCache.formatter(skeleton: "", locale: locale.identifier).format(decimal: "123")) ?? "123"
            let latin = price.unicodeScalars.contains { ("0"..."9").contains($0) }
            return latin && !ownDigits.unicodeScalars.contains { ("0"..."9").contains($0) } ? locale.withLatinDigits : locale
        }
    }

    /// A formatter with this one's options for ``textLocale``: itself, or one for the locale
    /// with Latin digits; its prices are the same, and its periods and counts match them.
    func forTextLocale() throws(StorePriceError) -> PriceFormatter {
        let text = textLocale
        return text == locale ? self : try PriceFormatter(locale: text, options: options)
    }

    private struct TextLocaleKey: Hashable, Sendable {
        var locale: PriceLocale
        var options: Options
    }

    private static let textLocales = BoundedCache<TextLocaleKey, PriceLocale>(limit: FormatterCache.limit)

    /// The price as this formatter shows it: rounded to its digits when its options round, so
    /// that arithmetic on it (a price restated per month, a saving) starts from what the customer
    /// sees.
    ///
    /// - Throws: as ``format(_:)`` does, for a price it cannot show.
    func shown(_ price: Price) throws(StorePriceError) -> Price {
        _ = try amountToFormat(price)
        guard price.fractionDigits > fractionDigits else { return price }
        let rounding: ApproximatePrice.Rounding = options.rounding == .halfUp ? .halfUp : .halfEven
        let (amount, _) = DecimalDigits.scale(price.amount, by: 1, over: 1, fractionDigits: fractionDigits, rounding: rounding)
        return try Price(amount, currency: price.currency)
    }

    /// The decimal text ICU formats for a price, after checking it can be shown.
    ///
    /// A negative amount that rounds to zero is given without its sign: `-0.001` in dollars is
    /// `$0.00`, as `-0` is, where ICU would write `-$0.00`.
    private func amountToFormat(_ price: Price) throws(StorePriceError) -> String {
        guard price.currency == locale.currency else {
            throw .currencyMismatch(price: price, locale: locale)
        }
        let digits = fractionDigits
        guard price.fractionDigits > digits else { return price.amount }
        if options.rounding == .reject {
            if let appStore, digits != price.currency.fractionDigits {
                throw .invalidAmount(
                    price.amount,
                    reason: "the App Store shows \(price.currency) with \(digits) fraction digits in \(appStore.storefront)"
                        + "; give a rounding, such as half-even, to round it")
            }
            throw .excessPrecision(amount: price.amount, currency: price.currency, fractionDigits: price.fractionDigits)
        }
        guard price.isNegative, roundsToZero(price.amount.utf8.dropFirst(), keeping: digits) else {
            return price.amount
        }
        return String(price.amount.dropFirst())
    }

    /// Whether a canonical non-negative amount (`0.0049`) rounds to zero at `digits` fraction
    /// digits under this formatter's rounding.
    private func roundsToZero(_ magnitude: Substring.UTF8View, keeping digits: Int) -> Bool {
        // Canonical text has no leading zeros, so a zero integer part is the single digit 0.
        guard magnitude.starts(with: "0.".utf8) else { return false }
        let fraction = magnitude.dropFirst(2)
        guard fraction.prefix(digits).allSatisfy({ $0 == UInt8(ascii: "0") }) else { return false }
        let dropped = fraction.dropFirst(digits)
        guard let first = dropped.first else { return true }
        if first < UInt8(ascii: "5") { return true }
        // Exactly half (canonical text has no trailing zeros): half-even keeps the even 0.
        return first == UInt8(ascii: "5") && dropped.count == 1 && options.rounding == .halfEven
    }
}

extension PriceFormatter {
    /// How a formatter shows the currency and rounds amounts.
    public struct Options: Hashable, Sendable {
        /// How the currency is shown.
        public var display: CurrencyDisplay
        /// What happens to amounts with more fraction digits than the currency uses.
        public var rounding: Rounding
        /// ICU's output, or the App Store's.
        public var style: Style

        /// Options for showing and rounding prices.
        ///
        /// - Parameters:
        ///   - display: `.symbol` (`$`, `US$`) by default. The App Store style writes Apple's
        ///     currency text and ignores it, except where a storefront has no rule.
        ///   - rounding: `.reject` by default: an amount is never changed silently.
        ///   - style: `.icu` by default: ICU's output, byte for byte.
        public init(display: CurrencyDisplay = .symbol, rounding: Rounding = .reject, style: Style = .icu) {
            self.display = display
            self.rounding = rounding
            self.style = style
        }

        /// The ICU number skeleton for these options and a currency, such as
        /// `currency/JPY unit-width-short rounding-mode-unnecessary`.
        public func skeleton(currency: CurrencyCode) -> String {
            "currency/\(currency.code) \(display.skeleton) \(rounding.skeleton)"
        }
    }

    /// Whose formats a price is written in.
    ///
    /// ```swift
    /// let japan = try Storefront("JPN").priceLocale
    /// try PriceFormatter(locale: japan).format(amount: "800")                                   // "￥800"
    /// try PriceFormatter(locale: japan, options: .init(style: .appStore)).format(amount: "800")  // "¥800"
    /// ```
    public enum Style: String, Hashable, Sendable, CaseIterable {
        /// ICU's output for the price locale (CLDR's formats), byte for byte.
        case icu
        /// What Apple's servers write (StoreKit 2's `displayPrice`, the App Store's pages): ICU's
        /// number inside each storefront's rule from `Data/app-store-style.json`. The price
        /// locale's region and currency must be a storefront's. See ``AppStoreRule``.
        case appStore = "app-store"
        /// What Google Play's servers write (Play Billing's `formattedPrice`, Play's pages): ICU's
        /// output for the price locale with the rules of `Data/play-style.json` (`Free` for a
        /// price of exactly zero in English, `грн` in Ukrainian). Every amount is rounded as Play
        /// rounds micros, half-even (`5517.539436` rupees is `₹5,517.54`) unless the options say
        /// half-up: Play shows every price it holds. See
        /// ``PlayRegion/priceLocale(language:currency:)`` for the locale.
        case play
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
    ///
    /// A negative amount that rounds to zero is shown without its sign, as `-0` is: `-0.001`
    /// rounded half-even in `en_US@currency=USD` is `$0.00`, and `-0.4` in yen is `￥0`.
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
