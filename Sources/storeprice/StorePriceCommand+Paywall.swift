import ArgumentParser
import StorePrice

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension StorePriceCommand {
    struct Paywall: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "paywall",
            abstract: "Show a subscription's paywall strings, exact, from ICU MessageFormat templates.",
            usage: """
                storeprice paywall (--storefront … | --locale … | --account …) --price <amount> --period <period> [<options>]
                storeprice paywall … --template <text>
                storeprice paywall … --templates <file> [--name <name>]
                storeprice paywall (--storefront … | --account …) --catalog <file> --product <id> [--compare <id>]
                storeprice paywall --check <file>
                """,
            discussion: """
                Examples:
                  storeprice paywall --storefront USA --price 59.99 --period P1Y \\
                      --compare 4.99:P1W --offer free:P1W
                  storeprice paywall --storefront JPN --price 9800 --period P1Y \\
                      --style app-store
                  storeprice paywall --storefront USA --price 59.99 --period P1Y --arguments
                  storeprice paywall --storefront USA --price 24.99 --period P3M \\
                      --template '{period_count, plural, one {# month} other {# months}}'
                                                                   3 months
                  storeprice paywall --storefront USA --catalog catalog.jsonl \\
                      --product com.example.pro.yearly --compare com.example.pro.weekly
                  storeprice paywall --check paywall-templates.json

                With --catalog and --product, the subscription is a product of a catalog (any \
                catalog render reads, asc pull's among them): its price in the storefront, its \
                period, and its introductory offer there; --compare then names another product of \
                the catalog.

                Without --template or --templates, every built-in line is written as NAME<TAB>TEXT: \
                period, price_per_period, billed_amount_first and savings in every store language \
                (made only of CLDR data), and offer, offer_then_price and save in the languages \
                StorePrice words. --arguments writes every argument a template can use as \
                NAME<TAB>VALUE instead, and says on standard error why the others have none. With \
                --templates and no --name, every template the file has for the store language is \
                written, in name order; one that fails is said on standard error, the others go \
                on, and the exit status is 65.

                Prices restated per day, week, month and year are exact decimals rounded once to \
                the digits the price is shown with, down unless --per-rounding says otherwise, so \
                a paywall never shows more than the customer pays. A year is 365 days and 12 months \
                (a month is 365/12 days, a year ≈ 52.14 weeks). Savings (--compare) are computed \
                from the exact prices and rounded down to a whole percent, written with CLDR's \
                percent format (%76 in Turkish, 76 % in French). --billing-plan PRICE:PERIOD, \
                such as 4.99:P1M for monthly payments of a yearly plan, gives the payment, how many \
                the period has, and what they come to.

                Templates are ICU MessageFormat: {price}, and plural and select with CLDR's rules \
                for the store language. Arguments: \(PaywallArgument.allCases.map(\.name).joined(separator: ", ")); \
                \(PaywallArgument.allCases.filter(\.isNumber).map(\.name).joined(separator: ", ")) are numbers, for plural. \
                offer_type is none without an offer: {offer_type, select, none {…} other {…}} serves \
                plans with and without one. A templates file is a JSON object of language tags, each \
                an object of template names and patterns: {"en": {"headline": "…"}, "ru": {…}}. A \
                paywall uses the most specific language that matches its store language, and \
                StorePrice's built-in template for a name the file lacks.

                --check renders every template of a file in every store language of the 175 \
                storefronts that the file has a language for, and lists each problem once with \
                the storefronts it shows in: a pattern that does not parse, an unknown argument, \
                text used as a number, a plural without every case the language needs, a printf \
                placeholder (%d), a % beside {savings}, an argument with no value. It renders each \
                template for a yearly plan with a week free and for one with 3 months at a lower \
                price, both compared with a weekly plan; plans without an offer or a compared plan \
                are not rendered.

                Exit status: 0 written (--check: no problem), 64 usage error, 65 a bad price, \
                period, offer, locale, template or templates file (--check: a problem found), 74 \
                standard output cannot be written, 141 standard output closed by its reader (| head).
                """
        )

        @Option(help: "The price locale, such as ja_JP@currency=JPY.")
        var locale: String?

        @Option(help: "A storefront: numeric ID (143462), alpha-3 (JPN) or alpha-2 (JP).")
        var storefront: String?

        @Option(help: "With --storefront, a store language other than the default, such as fr in CAN.")
        var language: String?

        @Option(help: "A test account whose store to show the paywall as (see 'storeprice accounts').")
        var account: String?

        @OptionGroup var accountsSource: AccountsOptions

        // Unconditional: `--price -5` is a value to refuse in words, not a missing one.
        @Option(parsing: .unconditional, help: ArgumentHelp("The price billed each period, such as 59.99.", valueName: "amount"))
        var price: String?

        @Option(help: ArgumentHelp("How often it is billed: P1W, P1M, P3M, P1Y.", valueName: "period"))
        var period: String?

        @Option(help: ArgumentHelp(
            "An offer: free:P1W, payAsYouGo:P1Mx3:0.99 or payUpFront:P2M:1.99 (MODE:PERIOD[xCOUNT][:PRICE]).",
            valueName: "terms"))
        var offer: String?

        @Option(help: ArgumentHelp(
            "The day the offer starts, for trial_end_date: YYYY-MM-DD (1900 to 9999), in UTC; today by default.", valueName: "date"))
        var offerStart: String?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("A plan to compute savings against, such as 4.99:P1W (the weekly plan).", valueName: "price:period"))
        var compare: String?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "A billing plan: a payment every shorter period, such as 4.99:P1M (monthly payments of a yearly plan).",
                valueName: "price:period"))
        var billingPlan: String?

        @Option(help: ArgumentHelp(
            "A catalog whose subscription --product is: its price, period and introductory offer in the storefront.", valueName: "file"))
        var catalog: String?

        @Option(help: ArgumentHelp("With --catalog, the subscription's product ID.", valueName: "id"))
        var product: String?

        @Option(help: "With --catalog, the catalog's format when its name does not tell it; play for Google Play's (then --storefront is a Play region, --account a Play tester).")
        var catalogFormat: CatalogFormatChoice?

        @OptionGroup var effectiveDate: EffectiveDateOption

        @Option(help: ArgumentHelp("A template to render, such as '{offer}, then {price_per_period}'.", valueName: "text"))
        var template: String?

        @Option(help: ArgumentHelp("A JSON file of templates by language; every one for the store language is written.", valueName: "file"))
        var templates: String?

        @Option(help: ArgumentHelp("With --templates, the one template to write.", valueName: "name"))
        var name: String?

        @Option(help: ArgumentHelp("Check a templates file in every storefront's store languages.", valueName: "file"))
        var check: String?

        @Flag(help: "Write every template argument as NAME<TAB>VALUE.")
        var arguments = false

        @Option(help: "Full words (per month), or CLDR's short (/m) or narrow forms.")
        var periodStyle: PeriodStyleOption = .wide

        @Option(help: "How restated prices round to the digits the price is shown with.")
        var perRounding: StorePriceCommand.Format.PerRounding = .down

        @Option(help: ArgumentHelp(
            "With --offer, a JSON file of your own offer wording: {\"freeTrial\": \"{duration} free\", …}.", valueName: "file"))
        var offerWording: String?

        @OptionGroup var formatting: FormattingOptions

        func validate() throws {
            try formatting.style.checkStyle(in: "storeprice paywall", play: isPlay)
            if isPlay, accountsSource.accounts != nil {
                throw ValidationError("--accounts reads App Store test accounts; with a Play catalog, --account names a built-in Play tester (storeprice accounts --store play).")
            }
            if let check {
                let others = [
                    locale, storefront, language, account, accountsSource.accounts, price, period, offer, offerStart, compare,
                    billingPlan, template, templates, name, offerWording, catalog, product,
                ]
                guard others.allSatisfy({ $0 == nil }), !arguments else {
                    throw ValidationError("--check '\(check.escapedForMessage)' checks a file in every storefront; give it alone.")
                }
                return
            }
            if let catalog {
                guard product != nil else {
                    throw ValidationError("--catalog '\(catalog.escapedForMessage)' needs --product, the subscription's product ID.")
                }
                for (given, option) in [(price, "--price"), (period, "--period"), (offer, "--offer"), (billingPlan, "--billing-plan"), (locale, "--locale")]
                where given != nil {
                    throw ValidationError(
                        option == "--locale"
                            ? "--locale goes without --catalog; a catalog's prices are a storefront's: give --storefront or --account."
                            : "\(option) comes from the catalog's product; remove it, or --catalog.")
                }
                try effectiveDate.validate(catalog: catalog, format: catalogFormat?.format)
            } else if product != nil || catalogFormat != nil || effectiveDate.day != nil {
                throw ValidationError("--product, --catalog-format and --date go with --catalog FILE.")
            }
            if catalog == nil, let compare, compare.split(separator: ":", omittingEmptySubsequences: false).count != 2 {
                throw ValidationError("--compare takes PRICE:PERIOD, such as 4.99:P1W; found '\(compare.escapedForMessage)'.")
            }
            if let billingPlan, billingPlan.split(separator: ":", omittingEmptySubsequences: false).count != 2 {
                throw ValidationError("--billing-plan takes PRICE:PERIOD, such as 4.99:P1M; found '\(billingPlan.escapedForMessage)'.")
            }
            if let offerStart, (try? Self.startDate(offerStart)) == nil {
                throw ValidationError(
                    "--offer-start takes a day from 1900-01-01 to 9999-12-31, written YYYY-MM-DD, such as 2026-11-27; "
                        + "found '\(offerStart.escapedForMessage)'.")
            }
            let sources = [locale.map { _ in "--locale" }, storefront.map { _ in "--storefront" }, account.map { _ in "--account" }]
                .compactMap { $0 }
            guard sources.count == 1 else {
                throw sources.isEmpty
                    ? ValidationError("Give a price locale: --storefront USA, --locale en_US@currency=USD or --account usa.")
                    : ValidationError("Give one of \(sources.joined(separator: ", ")), not several.")
            }
            if language != nil, storefront == nil {
                throw ValidationError("--language goes with --storefront, such as --storefront CAN --language fr.")
            }
            guard catalog != nil || (price != nil && period != nil) else {
                throw ValidationError(
                    "Give the subscription's --price and --period, such as --price 59.99 --period P1Y, or --catalog FILE --product ID.")
            }
            if template != nil, templates != nil {
                throw ValidationError("Give --template or --templates, not both.")
            }
            if name != nil, templates == nil {
                throw ValidationError("--name picks a template of --templates FILE.")
            }
            if arguments, template != nil || templates != nil {
                throw ValidationError("--arguments writes the arguments, not templates; remove --template or --templates.")
            }
            if offerStart != nil, offer == nil, catalog == nil {
                throw ValidationError("--offer-start goes with --offer.")
            }
            if offerWording != nil, offer == nil, catalog == nil {
                throw ValidationError("--offer-wording goes with --offer.")
            }
        }

        func run() throws {
            if let check { return try runCheck(check) }
            let priceLocale = try self.priceLocale()
            let paywall = try makePaywall(in: priceLocale)
            if arguments {
                for argument in PaywallArgument.allCases {
                    guard let value = paywall.values[argument] else {
                        let reason = paywall.missing[argument] ?? "none"
                        Console.error("note: \(argument.name) has no value: \(reason)\(Self.hint(argument, reason))")
                        continue
                    }
                    try write(value.text, named: argument.name)
                }
                return writeLanguageNote(priceLocale)
            }
            do {
                try writeTemplates(paywall, in: priceLocale)
                writeLanguageNote(priceLocale)
            } catch let error as StorePriceError {
                throw Self.withHint(error)
            }
        }

        /// As `format` notes them, after the lines: a language no customer of the store sees, or
        /// one the App Store style has no evidence for.
        private func writeLanguageNote(_ priceLocale: PriceLocale) {
            let asked = language ?? locale.flatMap { try? PriceLocale($0).languageIdentifier }
                ?? account.flatMap { try? accountsSource.load().account(named: $0).storeLanguage }
            LanguageNotes.write(
                storefront: storefront, language: language, asked: asked, priceLocale: priceLocale, style: formatting.priceStyle)
        }

        /// The option that gives an argument its value, for a message saying why it has none.
        static func hint(_ argument: PaywallArgument, _ reason: String) -> String {
            if reason.hasPrefix("there is no offer") { return " (--offer)" }
            if reason.hasPrefix("there is no billing plan") { return " (--billing-plan PRICE:PERIOD)" }
            switch argument {
            case .comparePrice, .comparePricePerPeriod: return " (--compare PRICE:PERIOD)"
            case .savings, .savingsPercent: return reason.hasPrefix("no plan") ? " (--compare PRICE:PERIOD)" : ""
            case .trialEndDate: return " (--offer-start)"
            case .offer: return reason.contains("wording") ? " (--offer-wording FILE)" : ""
            default: return ""
            }
        }

        /// A missing value's error, with the option that gives it.
        static func withHint(_ error: StorePriceError) -> StorePriceError {
            guard case .invalidTemplate(let name, let source, let locale, let argument?, let reason) = error,
                reason.hasPrefix("has no value"), let known = PaywallArgument(rawValue: argument)
            else { return error }
            let why = String(reason.dropFirst("has no value: ".count))
            return .invalidTemplate(
                name: name, source: source, locale: locale, argument: argument, reason: reason + hint(known, why))
        }

        private func writeTemplates(_ paywall: StorePrice.Paywall, in priceLocale: PriceLocale) throws {
            if let template {
                return try write(paywall.render(PaywallTemplate(template, name: "--template", source: "--template")))
            }
            let set = try templates.map { (path) throws(StorePriceError) in try PaywallTemplates(contentsOfFile: path) }
            if let set, let name {
                return try write(paywall.render(name, templates: set))
            }
            let names: [String]
            if let set {
                guard let tag = set.languageTag(for: priceLocale) else {
                    throw StorePriceError.invalidTemplate(
                        name: "", source: set.source, locale: priceLocale.languageIdentifier, argument: nil,
                        reason: "no templates for this language; the file has \(set.languages.keys.sorted().joined(separator: ", "))")
                }
                names = (set.languages[tag] ?? [:]).keys.sorted()
            } else {
                names = PaywallTemplates.cldrTemplateNames + ["offer", "offer_then_price", "save"]
            }
            var failures = 0
            for name in names {
                let text: String
                do {
                    text = try name == "offer"
                        ? paywall.render(PaywallTemplate("{offer}", name: "offer", source: "built-in"))
                        : paywall.render(name, templates: set ?? .builtIn)
                } catch {
                    // Built-in lines that need what this subscription lacks (an offer, a plan to
                    // compare with, wording for its language) are left out; a file's are said.
                    guard set != nil else { continue }
                    Console.error(Self.withHint(error).description)
                    failures += 1
                    continue
                }
                try write(text, named: name)
            }
            if failures > 0 {
                Console.error("\(failures) of \(names.count) templates failed")
                throw ExitCode.dataError
            }
        }

        /// Writes a line of text, after `NAME<TAB>` when named; --escape escapes the text.
        private func write(_ text: String, named name: String? = nil) throws {
            let shown = formatting.escape ? UnicodeEscaping.escapeNonASCII(text) : text
            try Console.output(name.map { "\($0)\t\(shown)" } ?? shown)
        }

        private func runCheck(_ path: String) throws {
            let set = try PaywallTemplates(contentsOfFile: path)
            let report = set.check()
            for problem in report.problems {
                try Console.output(problem.description)
            }
            let summary = "\(report.problems.isEmpty ? "no problems" : "\(report.problems.count) problem\(report.problems.count == 1 ? "" : "s")") "
                + "in \(set.names.count) template\(set.names.count == 1 ? "" : "s") of '\(path.escapedForMessage)', "
                + "checked in \(report.checkedLanguages) storefront languages"
            Console.error(summary)
            if !report.uncoveredLanguages.isEmpty {
                Console.error(
                    "note: no templates for \(report.uncoveredLanguages.joined(separator: ", ")); "
                        + "paywalls in these languages have only StorePrice's built-in lines")
            }
            if !report.problems.isEmpty { throw ExitCode.dataError }
        }

        private func priceLocale() throws -> PriceLocale {
            if isPlay, let account { return try PlayTester.named(account).priceLocale }
            if isPlay, let storefront {
                return try PlayRegion(storefront).priceLocale(language: language)
            }
            if let account {
                return try accountsSource.load().account(named: account).priceLocale
            }
            if let storefront {
                let found = try Storefront(storefront)
                return try language.map { (language) throws(StorePriceError) in try found.priceLocale(language: language) }
                    ?? found.priceLocale
            }
            return try PriceLocale(locale ?? "")
        }

        /// Whether the catalog is Google Play's (`--catalog-format play`).
        private var isPlay: Bool { catalogFormat == .play }

        /// The paywall of `--product` of `--catalog` where the storefront or account shows it.
        private func catalogPaywall(_ path: String, product id: String) throws -> StorePrice.Paywall {
            let products = try Catalog.load(path, format: catalogFormat?.format, effectiveOn: effectiveDate.date)
            func find(_ id: String, option: String) throws -> Product {
                guard let found = products.first(where: { $0.id == id }) else {
                    throw StorePriceError.invalidCatalog(
                        source: path, line: nil, field: nil,
                        reason: "no product '\(id.escapedForMessage)' (\(option)); it has \(products.count) product\(products.count == 1 ? "" : "s")")
                }
                return found
            }
            let subscription = try find(id, option: "--product")
            let compared = try compare.map { try find($0, option: "--compare") }
            let target: RenderTarget
            if let account {
                target = RenderTarget(
                    account: isPlay ? try PlayTester.named(account).account : try accountsSource.load().account(named: account))
            } else {
                let found = isPlay ? try PlayRegion(storefront ?? "").storefront : try Storefront(storefront ?? "")
                target = try language.map { (language) throws(StorePriceError) in try RenderTarget(storefront: found, language: language) }
                    ?? RenderTarget(storefront: found)
            }
            let wording = try offerWording.map { (path) throws(StorePriceError) in try OfferWording(contentsOfFile: path) }
            return try StorePrice.Paywall(
                subscription: subscription, for: target, comparedTo: compared, options: formatting.options(play: isPlay),
                periodStyle: periodStyle.style, rounding: perRounding.rounding, offerStart: try Self.startDate(offerStart),
                offerWording: wording)
        }

        private func makePaywall(in priceLocale: PriceLocale) throws -> StorePrice.Paywall {
            if let catalog, let product { return try catalogPaywall(catalog, product: product) }
            let currency = priceLocale.currency
            let billed = try Price(price ?? "", currency: currency)
            let every = try StorePriceCommand.periods(of: "--period") { () throws(StorePriceError) in
                let every = try SubscriptionPeriod(period ?? "")
                try StorePeriods.appStore.checkSubscription(every)
                return every
            }
            let offerTerms = try offer.map { (text) throws(StorePriceError) in try Self.offer(text, currency: currency) }
            if let offerTerms {
                try StorePriceCommand.periods(of: "--offer") { () throws(StorePriceError) in
                    try StorePeriods.appStore.checkOffer(period: offerTerms.period, count: offerTerms.periodCount)
                }
            }
            let compared = try compare.map { (text) throws(StorePriceError) in try Self.plan(text, currency: currency, option: "--compare") }
            if let compared {
                try StorePriceCommand.periods(of: "--compare") { () throws(StorePriceError) in
                    try StorePeriods.appStore.checkSubscription(compared.period)
                }
            }
            let plan = try billingPlan.map { (text) throws(StorePriceError) in
                try Self.plan(text, currency: currency, option: "--billing-plan")
            }
            let start = try offer.map { _ in try Self.startDate(offerStart) }
            let wording = try offerWording.map { (path) throws(StorePriceError) in try OfferWording(contentsOfFile: path) }
            return try StorePrice.Paywall(
                price: billed, period: every, offer: offerTerms, comparedTo: compared, billingPlan: plan, locale: priceLocale,
                options: formatting.options, periodStyle: periodStyle.style, rounding: perRounding.rounding,
                offerStart: start, offerWording: wording)
        }

        /// `free:P1W`, `payAsYouGo:P1Mx3:0.99`, `payUpFront:P2M:1.99`: the terms as `render` writes them.
        static func offer(_ text: String, currency: CurrencyCode) throws(StorePriceError) -> SubscriptionOffer {
            do {
                return try SubscriptionOffer(text, currency: currency)
            } catch {
                guard case .invalidOffer(let offer, let reason) = error, reason.hasPrefix("expected MODE") else { throw error }
                throw .invalidOffer(offer, reason: reason + " (--offer)")
            }
        }

        /// `4.99:P1W`: a price and its period, for `option`; `validate()` checked the colon.
        static func plan(_ text: String, currency: CurrencyCode, option: String) throws(StorePriceError) -> StorePrice.Paywall.Plan {
            do {
                return try StorePrice.Paywall.Plan(text, currency: currency)
            } catch {
                switch error {
                case .invalidAmount(let amount, let reason): throw .invalidAmount(amount, reason: reason + " (\(option))")
                case .invalidPeriod(let period, let reason): throw .invalidPeriod(period, reason: reason + " (\(option))")
                default: throw error
                }
            }
        }

        /// Midnight UTC of a `YYYY-MM-DD` day, or of today.
        static func startDate(_ text: String?) throws(StorePriceError) -> Date {
            guard let text else {
                let now = Date().timeIntervalSince1970
                return Date(timeIntervalSince1970: (now / 86_400).rounded(.down) * 86_400)
            }
            let fields = text.split(separator: "-", omittingEmptySubsequences: false)
            guard fields.count == 3, fields[0].count == 4, fields[1].count == 2, fields[2].count == 2,
                fields.allSatisfy({ $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
                let year = Int(fields[0]), let month = Int(fields[1]), let day = Int(fields[2]),
                year >= 1900, (1...12).contains(month), (1...CivilTime.daysIn(month, of: year)).contains(day)
            else {
                throw .invalidOffer(text, reason: "the start is a day written YYYY-MM-DD, such as 2026-11-27 (--offer-start)")
            }
            return Date(timeIntervalSince1970: Double(CivilTime.daysFromEpoch(year, month, day)) * 86_400)
        }
    }
}
