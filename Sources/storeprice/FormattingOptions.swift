import ArgumentParser
import StorePrice

/// How formatted prices look: currency display and rounding.
struct PriceStyleOptions: ParsableArguments {
    enum Display: String, ExpressibleByArgument, CaseIterable {
        case symbol, narrow, iso, name

        var currencyDisplay: PriceFormatter.CurrencyDisplay {
            switch self {
            case .symbol: .symbol
            case .narrow: .narrowSymbol
            case .iso: .isoCode
            case .name: .name
            }
        }
    }

    enum RoundingChoice: String, ExpressibleByArgument, CaseIterable {
        case reject
        case halfEven = "half-even"
        case halfUp = "half-up"

        var rounding: PriceFormatter.Rounding {
            switch self {
            case .reject: .reject
            case .halfEven: .halfEven
            case .halfUp: .halfUp
            }
        }
    }

    enum StyleChoice: String, ExpressibleByArgument, CaseIterable {
        case icu
        case appStore = "app-store"
        case play

        var style: PriceFormatter.Style {
            switch self {
            case .icu: .icu
            case .appStore: .appStore
            case .play: .play
            }
        }
    }

    @Option(help: ArgumentHelp(
        "Whose formats: ICU's (CLDR's, byte for byte; the default), the App Store's, as Apple's servers write prices (¥800, USD 4.99, Rp 99ribu), or Google Play's (Free, 209,99 грн; the default for a Play catalog).",
        valueName: "style"))
    var style: StyleChoice?

    @Option(help: "How to show the currency: the locale's symbol (US$), its narrow symbol ($), the ISO code (USD) or its name (US dollars).")
    var display: Display = .symbol

    @Option(help: "What to do with more fraction digits than the currency uses: reject them (an error), or round half-even or half-up.")
    var rounding: RoundingChoice = .reject

    var options: PriceFormatter.Options { options(play: false) }

    /// The options for prices of Google Play (`play`: the Play style unless another is given) or
    /// of the App Store.
    func options(play: Bool) -> PriceFormatter.Options {
        PriceFormatter.Options(
            display: display.currencyDisplay, rounding: rounding.rounding, style: (style ?? (play ? .play : .icu)).style)
    }

    /// Refuses the Play style for App Store prices, and the App Store style for Play's.
    func checkStyle(in command: String, play: Bool) throws {
        if style == .play, !play {
            throw ValidationError("--style play writes Google Play's prices, which 'storeprice format --store play' and Play catalogs (--catalog-format play) show; '\(command)' shows App Store storefronts' prices here: use --style icu or app-store.")
        }
        if style == .appStore, play {
            throw ValidationError("--style app-store writes the App Store's prices; a Play catalog (--catalog-format play) is shown in the Play style, the default, or ICU's (--style icu).")
        }
    }

    func validate() throws {
        if style == .appStore, display != .symbol {
            throw ValidationError("--display \(display.rawValue) goes with the ICU style; the App Store style writes the currency as Apple does.")
        }
        if style == .play, display != .symbol {
            throw ValidationError("--display \(display.rawValue) goes with the ICU style; the Play style writes the currency as Google Play does.")
        }
    }
}

/// The flags every subcommand that prints prices shares: their style, and escaping.
struct FormattingOptions: ParsableArguments {
    @OptionGroup var style: PriceStyleOptions

    @Flag(help: "Write non-ASCII characters in formatted prices as \\u{XXXX}, to read invisible spaces and marks.")
    var escape = false

    var options: PriceFormatter.Options { style.options }
    var priceStyle: PriceFormatter.Style { style.options.style }

    /// The options for a Play catalog's prices (`play`) or the App Store's.
    func options(play: Bool) -> PriceFormatter.Options { style.options(play: play) }
}

/// `--any-product-id`: which product IDs a catalog may have.
struct ProductIDOptions: ParsableArguments {
    @Flag(help: ArgumentHelp(
        "Keep any text as a product ID.",
        discussion: "By default a product ID is what App Store Connect accepts: 1 to 100 letters, digits, '.', '-' or '_'; anything else is refused, naming the line. With this flag any text is kept, and escaped or neutralized in every output."))
    var anyProductID = false

    var rule: ProductIDRule { anyProductID ? .any : .appStore }
}

/// `--period-style`: how periods and per-period prices are written.
enum PeriodStyleOption: String, ExpressibleByArgument, CaseIterable {
    case wide, short, narrow

    var style: SubscriptionPeriod.Style {
        switch self {
        case .wide: .wide
        case .short: .short
        case .narrow: .narrow
        }
    }
}
