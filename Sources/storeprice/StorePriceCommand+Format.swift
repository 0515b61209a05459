import ArgumentParser
import StorePrice

extension StorePriceCommand {
    struct Format: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "format",
            abstract: "Format one price, or a batch of prices from standard input.",
            usage: """
                storeprice format <amount> --locale <locale> [<options>]
                storeprice format <amount> --storefront <code> [--language <language>] [<options>]
                storeprice format <amount> --account <name> [--accounts <file>] [--label <label>] [<options>]
                storeprice format <amount> --store play --region <code> [--language <language>] [--currency <code>] [--micros] [<options>]
                storeprice format <amount> --store play --account <play tester> [<options>]
                storeprice format <amount> (--locale … | --storefront … | --account …) --period <period> [--per <unit>]
                storeprice format <amount> (--locale … | --storefront … | --account …) --offer <terms>
                storeprice format --batch [<options>] < LINES
                """,
            discussion: """
                Examples:
                  storeprice format 1200 --locale ja_JP@currency=JPY        ￥1,200
                  storeprice format 0.99 --locale en_GB@currency=USD        US$0.99
                  storeprice format 1234.5 --locale de_CH@currency=CHF --escape
                                                          CHF\\u{00A0}1\\u{2019}234.50
                  storeprice format -1.99 --locale sv_SE@currency=SEK       −1,99 kr
                  storeprice format 1200 --storefront JPN                    ￥1,200
                  storeprice format 0.99 --storefront BHS                    US$0.99
                  storeprice format 9.99 --storefront CAN --language fr      9,99 $
                  storeprice format 0.99 --account usa-en-gb-device          $0.99
                  storeprice format 0.99 --account usa-ar-device --label 'اشترِ %@'
                  storeprice format 800 --storefront JPN --style app-store   ¥800
                  storeprice format 4.99 --storefront GHA --style app-store  USD 4.99
                  printf 'ja_JP@currency=JPY\\t160\\n' | storeprice format --batch

                Google Play:
                  storeprice format 0.99 --store play --region RU --language en
                                                          RUB\u{00A0}0.99 (note: en_RU@currency=RUB)
                  storeprice format 5517539436 --micros --store play --region IN --style play
                                                                           ₹5,517.54
                  storeprice format 0.99 --store play --account play-us-ko      US$0.99
                  storeprice format 0 --store play --region GB --language en --style play
                                                                           Free
                  storeprice format 209.99 --store play --region UA --style play
                                                                           209,99 грн
                  storeprice format 0.99..49.99 --store play --region US --language en --style play
                                                          $0.99 - $49.99 per item

                Subscriptions and offers:
                  storeprice format 9.99 --storefront USA --period P1M       $9.99 per month
                  storeprice format 1200 --storefront JPN --period P1M       ￥1,200/月
                  storeprice format 59.99 --storefront USA --period P1Y --per month
                                                                           $4.99 per month
                  storeprice format 0 --storefront JPN --offer free:P1W      1 週間無料
                  storeprice format 0.99 --storefront USA --offer payAsYouGo:P1Mx3
                                                          $0.99 per month for 3 months
                  storeprice format 1.99 --storefront USA --offer payUpFront:P2M
                                                                           $1.99 for 2 months

                An amount is exact decimal text: digits, an optional leading '-', at most one '.'. \
                Without --rounding, an amount with more fraction digits than the price is shown \
                with (its currency's; in the App Store style, Apple's: none for rupees and rupiah) \
                is an error, never rounded silently. The Play style is the exception: Play shows \
                every price it holds, so it rounds as Play does, half-even (or --rounding half-up).

                --style app-store writes prices as Apple's servers do (StoreKit 2's displayPrice, \
                the App Store's pages): ¥800 in JPN, USD 4.99 in GHA, Rp 99ribu in IDN. A note on \
                standard error says when no evidence covers the store language asked for.

                --store play shows a Google Play price: in the buyer's device language (--language; \
                without it, the region's most common one), in the Play region (--region, its alpha-2 \
                code), with its buyer currency unless --currency names the price's; or as a built-in \
                Play licence tester sees it (--account play-ru-en; 'storeprice accounts --store \
                play' lists them); a note on \
                standard error names the price locale used. --micros reads the amount as Play's \
                micros (priceAmountMicros). --style play writes prices as Google's servers do: \
                Free for zero in English, грн in Ukrainian, rounded half-even as Play rounds \
                micros, and LOW..HIGH as a store page's range of in-app prices; 'storeprice \
                storefronts --store play' lists the regions.

                --batch reads PRICE_LOCALE<TAB>AMOUNT lines and writes \
                PRICE_LOCALE<TAB>AMOUNT<TAB>FORMATTED lines in the same order. A bad line is \
                written as PRICE_LOCALE<TAB>AMOUNT<TAB>error: MESSAGE, the rest go on, and the exit \
                status is 65 if any line failed.

                --period shows the price paid every period (ISO 8601: P1W, P1M, P3M, P1Y) with \
                CLDR's per-period pattern for the store language. --per restates it per another \
                period as an approximation in exact decimals, rounded to the digits the price is shown with, \
                down unless --per-rounding says otherwise, as store paywalls show it. --offer shows \
                an introductory or promotional offer whose price is the amount: free:PERIOD, \
                payAsYouGo:PERIODxCOUNT or payUpFront:PERIOD; its wording is StorePrice's own, \
                for the languages in Data/offer-wording.json.

                Exit status: 0 formatted, 64 usage error, 65 a bad amount, locale, currency, storefront, region or account (with --batch: any line failed), 74 standard output cannot be written, 141 standard output closed by its reader (| head).
                """
        )

        @Argument(
            parsing: .allUnrecognized,
            help: ArgumentHelp("The amount, such as 0.99, 1200 or -1.99 (not with --batch).", valueName: "amount"))
        var arguments: [String] = []

        /// The amounts given, without a `--` separator (negative amounts need none).
        var amounts: [String] { arguments.filter { $0 != "--" } }

        @Option(help: "The price locale, such as ja_JP@currency=JPY or ja-JP-u-cu-jpy.")
        var locale: String?

        @Option(help: "A storefront whose default price locale to use: numeric ID (143462), alpha-3 (JPN) or alpha-2 (JP).")
        var storefront: String?

        @Option(help: "With --storefront, a store language other than the default, such as fr in CAN; with --region, the buyer's device language, such as en.")
        var language: String?

        @Option(help: "Whose prices: the App Store's (storefronts) or Google Play's (regions, with --region).")
        var store: StoreChoice = .appStore

        @Option(help: "With --store play, the Google Play region: its alpha-2 code, such as RU.")
        var region: String?

        @Option(help: "With --region, the price's currency where Play names one other than the region's buyer currency, such as USD.")
        var currency: String?

        @Flag(help: "Read the amount as Google Play micros (millionths, such as 990000 for 0.99).")
        var micros = false

        enum StoreChoice: String, ExpressibleByArgument, CaseIterable {
            case appStore = "app-store"
            case play
        }

        @Option(help: "A test account whose store to show the price as, by name (see 'storeprice accounts'); with --store play, a Play tester.")
        var account: String?

        @OptionGroup var accountsSource: AccountsOptions

        @Option(help: "UI text with one %@ for the price, in the device's language, such as 'Buy %@'.")
        var label: String?

        @OptionGroup var formatting: FormattingOptions

        @Flag(help: "Read PRICE_LOCALE<TAB>AMOUNT lines from standard input.")
        var batch = false

        @Option(help: ArgumentHelp(
            "Show the amount as a subscription price paid every period: P1W, P1M, P3M, P1Y.", valueName: "period"))
        var period: String?

        @Option(help: ArgumentHelp(
            "With --period, restate the price per day, week, month, year or an ISO period, approximately.",
            valueName: "unit"))
        var per: String?

        @Option(help: "How --per rounds to the digits the price is shown with.")
        var perRounding: PerRounding = .down

        @Option(help: "Full words (per month), or CLDR's short (/m) or narrow forms, for --period, --per and --offer.")
        var periodStyle: PeriodStyleChoice = .wide

        @Option(help: ArgumentHelp(
            "Show an offer whose price is the amount: free:P1W, payAsYouGo:P1Mx3 or payUpFront:P2M.",
            valueName: "terms"))
        var offer: String?

        @Option(help: ArgumentHelp(
            "With --offer, a JSON file of your own wording: {\"freeTrial\": \"{duration} free\", \"payAsYouGo\": …, \"payUpFront\": …}.",
            valueName: "file"))
        var offerWording: String?

        enum PerRounding: String, ExpressibleByArgument, CaseIterable {
            case down, up
            case halfEven = "half-even"
            case halfUp = "half-up"

            var rounding: ApproximatePrice.Rounding {
                switch self {
                case .down: .down
                case .up: .up
                case .halfEven: .halfEven
                case .halfUp: .halfUp
                }
            }
        }

        typealias PeriodStyleChoice = PeriodStyleOption

        func validate() throws {
            // Amounts take what argument-parser does not recognize, so that `-1.99` is an amount;
            // anything else that starts with '-' is a mistyped option, said as argument-parser says it.
            // After `--` nothing is an option: an option there was meant before it.
            if let end = arguments.firstIndex(of: "--"),
                let option = arguments[(end + 1)...].first(where: { $0.hasPrefix("--") && Self.closestOption(to: $0) == $0 })
            {
                throw ValidationError(
                    "'\(option.escapedForMessage)' comes after '--', which ends the options; put options before it, "
                        + "such as 'storeprice format \(option) … -- -1.99'.")
            }
            if let unknown = amounts.first(where: { $0.hasPrefix("-") && Double($0) == nil && $0 != "-" }) {
                var message = "Unknown option '\(unknown.escapedForMessage)'."
                if let closest = Self.closestOption(to: unknown) { message += " Did you mean '\(closest)'?" }
                throw ValidationError(message)
            }
            let sources = [
                locale.map { _ in "--locale" }, storefront.map { _ in "--storefront" }, account.map { _ in "--account" },
                region.map { _ in "--region" },
            ].compactMap { $0 }
            if language != nil, storefront == nil, region == nil {
                throw ValidationError("--language goes with --storefront or --region, such as --storefront CAN --language fr.")
            }
            if region != nil, store != .play {
                throw ValidationError("--region names a Google Play region; add --store play, or give an App Store storefront with --storefront.")
            }
            if store == .play, storefront != nil {
                throw ValidationError("--storefront names the App Store; give a Google Play region with --region, such as --store play --region RU.")
            }
            if store == .play, accountsSource.accounts != nil {
                throw ValidationError("--accounts holds App Store testers; with --store play, --account names a built-in Play tester ('storeprice accounts --store play').")
            }
            if store == .play, region == nil, locale == nil, account == nil, !batch {
                throw ValidationError("Give a Google Play region: --store play --region RU, or a Play tester: --store play --account play-ru-en.")
            }
            if currency != nil, region == nil {
                throw ValidationError("--currency goes with --region, such as --store play --region KR --currency USD.")
            }
            if let range = amounts.first, range.contains("..") {
                guard formatting.priceStyle == .play else {
                    throw ValidationError("'\(range.escapedForMessage)' is a range, which only the Play style writes (--store play --style play).")
                }
                let bounds = range.split(separator: "..", omittingEmptySubsequences: false)
                guard bounds.count == 2, !bounds[0].isEmpty, !bounds[1].isEmpty else {
                    throw ValidationError("'\(range.escapedForMessage)' is not a range: write LOW..HIGH, such as 0.99..49.99.")
                }
                guard period == nil, offer == nil else {
                    throw ValidationError("A range of in-app prices has no period or offer; remove \(period != nil ? "--period" : "--offer").")
                }
            }
            if formatting.priceStyle == .play, store != .play, locale == nil, !batch {
                throw ValidationError("--style play writes Google Play's prices; add --store play with a --region or a Play tester's --account, or give a --locale.")
            }
            if store == .play, period != nil || offer != nil {
                throw ValidationError("\(period != nil ? "--period" : "--offer") words an App Store subscription's periods; Play's base plans and offers are not read yet, so it does not go with --store play.")
            }
            if batch, micros || store == .play {
                throw ValidationError("--batch reads PRICE_LOCALE<TAB>AMOUNT lines with decimal amounts; remove \(micros ? "--micros" : "--store play").")
            }
            if accountsSource.accounts != nil, account == nil {
                throw ValidationError("--accounts goes with --account, such as --account usa --accounts testers.json.")
            }
            if batch {
                guard amounts.isEmpty else {
                    throw ValidationError("--batch reads amounts from standard input; remove '\(amounts[0].escapedForMessage)'.")
                }
                guard sources.isEmpty else {
                    throw ValidationError("--batch reads each line's price locale; remove \(sources[0]).")
                }
                guard label == nil else { throw ValidationError("--label formats one price; remove it with --batch.") }
                guard period == nil, offer == nil else {
                    throw ValidationError("--period and --offer format one price; remove them with --batch.")
                }
            } else {
                guard let first = amounts.first else {
                    throw ValidationError("Give an amount, such as 'storeprice format 0.99 --locale en_US@currency=USD'.")
                }
                guard amounts.count == 1 else {
                    throw ValidationError("Give one amount; found '\(first.escapedForMessage)' and '\(amounts[1].escapedForMessage)'. Use --batch for many.")
                }
                if per != nil, period == nil {
                    throw ValidationError("--per goes with --period, such as --period P1Y --per month.")
                }
                if offerWording != nil, offer == nil {
                    throw ValidationError("--offer-wording goes with --offer.")
                }
                if period != nil, offer != nil {
                    throw ValidationError("Give --period or --offer, not both.")
                }
                guard sources.count == 1 else {
                    throw sources.isEmpty
                        ? ValidationError("Give a price locale: --locale ja_JP@currency=JPY, --storefront JPN, --account jpn or --store play --region RU.")
                        : ValidationError("Give one of \(sources.joined(separator: ", ")), not several.")
                }
            }
        }

        /// The option of this command nearest to a mistyped one, within two edits.
        static func closestOption(to typed: String) -> String? {
            let help = helpMessage(columns: 1000)
            var names: Set<String> = []
            for word in help.split(whereSeparator: { !($0.isLetter || $0 == "-") }) where word.hasPrefix("--") && word.count > 2 {
                names.insert(String(word))
            }
            let scored = names.map { ($0, editDistance(Array(typed), Array($0))) }.filter { $0.1 <= 2 }
            return scored.min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }?.0
        }

        private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
            var previous = Array(0...b.count)
            for (i, x) in a.enumerated() {
                var current = [i + 1]
                for (j, y) in b.enumerated() {
                    current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
                }
                previous = current
            }
            return previous[b.count]
        }

        func run() throws {
            if batch {
                let failures = try BulkPriceFormatter(options: formatting.options, escapeNonASCII: formatting.escape)
                    .formatLines(at: "-") { bytes in
                        if let code = OutputFile.writeAll(bytes.assumingMemoryBound(to: UInt8.self), to: Console.standardOutput) {
                            throw WriteFailure(path: nil, code: code)
                        }
                    }
                if failures > 0 {
                    Console.error("\(failures) line\(failures == 1 ? "" : "s") failed")
                    throw ExitCode.dataError
                }
                return
            }
            guard let amount = amounts.first else { throw ExitCode.validationFailure }
            let accounts = account == nil || store == .play ? nil : try accountsSource.load()
            let priceLocale: PriceLocale
            var uiLocale: String?
            var accountLanguage: String?
            if let account, store == .play {
                let tester = try PlayTester.named(account)
                priceLocale = tester.priceLocale
                Console.error(PlayNotes.locale(priceLocale, region: tester.region, language: tester.deviceLanguage, tester: tester.name))
            } else if let account, let accounts {
                let tester = try accounts.account(named: account)
                priceLocale = tester.priceLocale
                uiLocale = tester.uiLocale
                accountLanguage = tester.storeLanguage
            } else if let storefront {
                let found = try Storefront(storefront)
                priceLocale = try language.map { (language) throws(StorePriceError) in
                    try found.priceLocale(language: language)
                } ?? found.priceLocale
            } else if let region {
                let found = try PlayRegion(region)
                let priceCurrency = try currency.map { (code) throws(StorePriceError) in try CurrencyCode(code) }
                priceLocale = try found.priceLocale(language: language, currency: priceCurrency)
                Console.error(PlayNotes.locale(priceLocale, region: found, language: language))
            } else if let locale {
                priceLocale = try PriceLocale(locale)
            } else {
                throw ExitCode.validationFailure
            }
            var text: String
            do {
                text = try formatted(micros ? Self.decimal(ofMicros: amount, currency: priceLocale.currency) : amount, in: priceLocale)
            } catch {
                throw explained(error)
            }
            if let label {
                text = try PriceLabel.render(
                    label, price: text, priceLocale: priceLocale, uiLocale: uiLocale ?? priceLocale.languageIdentifier)
            }
            try Console.output(formatting.escape ? UnicodeEscaping.escapeNonASCII(text) : text)
            LanguageNotes.write(
                storefront: storefront, language: language, asked: askedLanguage(accountLanguage: accountLanguage),
                priceLocale: priceLocale, style: formatting.priceStyle)
        }

        /// The store language this run asked for: --language, a --locale's language, or an
        /// account's store language; nil for a storefront's or an account's default pages.
        private func askedLanguage(accountLanguage: String?) -> String? {
            if let language { return language }
            if let locale { return (try? PriceLocale(locale))?.languageIdentifier }
            return accountLanguage
        }

        /// An error with what this command knows: the amount as typed (`4.80`, not `4.8`), and
        /// the option a bad period came from.
        private func explained(_ error: StorePriceError) -> StorePriceError {
            switch error {
            case .excessPrecision(_, let currency, let digits) where !micros:
                return .excessPrecision(amount: amounts.first ?? "", currency: currency, fractionDigits: digits)
            case .invalidPeriod(let text, let reason) where text == period || text == per:
                return .invalidPeriod(text, reason: "\(reason) (\(text == per ? "--per" : "--period"))")
            case .invalidPeriod(let text, let reason) where offer?.contains(text) == true && !reason.hasSuffix(")"):
                return .invalidPeriod(text, reason: "\(reason) (--offer)")
            default:
                return error
            }
        }

        /// Micros as decimal text, each bound of a range (`990000..49990000`) alike.
        static func decimal(ofMicros text: String, currency: CurrencyCode) throws(StorePriceError) -> String {
            if let range = text.firstRange(of: "..") {
                let low = try decimal(ofMicros: String(text[..<range.lowerBound]), currency: currency)
                let high = try decimal(ofMicros: String(text[range.upperBound...]), currency: currency)
                return low + ".." + high
            }
            return try Price(micros: text, currency: currency).amount
        }

        /// The amount as a price, a price per period, or an offer.
        private func formatted(_ amount: String, in priceLocale: PriceLocale) throws(StorePriceError) -> String {
            let formatter = try PriceFormatter(locale: priceLocale, options: formatting.options)
            if let range = amount.firstRange(of: "..") {
                let low = try Price(String(amount[..<range.lowerBound]), currency: priceLocale.currency)
                let high = try Price(String(amount[range.upperBound...]), currency: priceLocale.currency)
                return try formatter.formatItemRange(low, high)
            }
            if let offer {
                let terms = try SubscriptionOffer(terms: offer, price: Price(amount, currency: priceLocale.currency))
                try StorePeriods.appStore.checkOffer(period: terms.period, count: terms.periodCount)
                let wording = try offerWording.map { (path) throws(StorePriceError) in try OfferWording(contentsOfFile: path) }
                return try terms.text(in: priceLocale, wording: wording, options: formatting.options, style: periodStyle.style)
            }
            guard let period else { return try formatter.format(amount: amount) }
            let billedEvery = try SubscriptionPeriod(period)
            try StorePeriods.appStore.checkSubscription(billedEvery)
            let price = try Price(amount, currency: priceLocale.currency)
            // The price billed is checked as any price is: more digits than it shows is an error
            // without --rounding, before it is restated.
            _ = try formatter.format(price)
            guard let per else { return try formatter.format(price, per: billedEvery, style: periodStyle.style) }
            let target: SubscriptionPeriod
            // ASCII only: `lowercased()` maps the Kelvin sign to 'k', reading "wee\u{212A}" as week.
            if per.utf8.allSatisfy({ $0 < 0x80 }), let unit = SubscriptionPeriod.Unit(rawValue: per.lowercased()) {
                target = try SubscriptionPeriod(value: 1, unit: unit)
            } else {
                do {
                    target = try SubscriptionPeriod(per)
                } catch {
                    throw .invalidPeriod(per, reason: "not a unit (day, week, month, year) or an ISO 8601 period such as P1M")
                }
            }
            let approximate = try price.approximately(
                per: target, billedEvery: billedEvery, rounding: perRounding.rounding,
                fractionDigits: formatter.fractionDigits)
            return try formatter.format(approximate, style: periodStyle.style)
        }
    }
}
