@testable import StorePrice
import Foundation
import TestSupport
import Testing

/// Paywall strings: exact restated prices and savings, ICU MessageFormat templates with CLDR's
/// plural rules, the checks that name a template's problem, and bidi isolation.
@Suite struct PaywallTests {
    static func usd(_ amount: String) throws -> Price { try Price(amount, currency: CurrencyCode("USD")) }

    static func paywall(
        _ amount: String, _ period: String, in storefront: String = "USA", offer: SubscriptionOffer? = nil,
        compare: (String, String)? = nil, options: PriceFormatter.Options = .init(), language: String? = nil
    ) throws -> Paywall {
        // A storefront's code, or a whole price locale.
        let locale = try storefront.contains("@")
            ? PriceLocale(storefront)
            : language.map { try Storefront(storefront).priceLocale(language: $0) } ?? Storefront(storefront).priceLocale
        return try Paywall(
            price: Price(amount, currency: locale.currency), period: SubscriptionPeriod(period), offer: offer,
            comparedTo: try compare.map { Paywall.Plan(price: try Price($0.0, currency: locale.currency), period: try SubscriptionPeriod($0.1)) },
            locale: locale, options: options)
    }

    // MARK: The issue's cases, against the exact value

    /// The cases other paywall tools get wrong: each restated price is the exact value rounded
    /// down once to the currency's digits, and the saving is the exact one rounded down.
    @Test(arguments: [
        ("USA", "4.99", "P1W", PaywallArgument.amountPerMonth, "$21.68", "21.682"),
        ("USA", "83.99", "P1Y", .amountPerMonth, "$6.99", "6.999"),
        ("JPN", "9800", "P1Y", .amountPerMonth, "￥816", "816.666"),
        ("USA", "19.99", "P1M", .amountPerMonth, "$19.99", "19.99"),
        ("USA", "59.99", "P1Y", .amountPerWeek, "$1.15", "1.150"),
        ("USA", "59.99", "P1Y", .amountPerDay, "$0.16", "0.164"),
        ("en_KW@currency=KWD", "2.999", "P1M", .amountPerYear, "KWD\u{00A0}35.988", "35.988"),
    ] as [(String, String, String, PaywallArgument, String, String)])
    func restatedPricesAreTheExactValueRoundedDown(
        _ storefront: String, _ amount: String, _ period: String, _ argument: PaywallArgument, _ shown: String, _ exactPrefix: String
    ) throws {
        let paywall = try Self.paywall(amount, period, in: storefront)
        expectBytes(escaped(paywall.values[argument]?.text ?? "none"), escaped(shown))
        // The exact value, computed apart: amount × (length of the target) ÷ (length of the period),
        // in twelfths of a day (a day 12, a week 84, a month 365, a year 4,380).
        let twelfths: [String: Decimal] = ["P1W": 84, "P1M": 365, "P1Y": 4380]
        let target: Decimal = argument == .amountPerMonth ? 365 : argument == .amountPerWeek ? 84 : argument == .amountPerDay ? 12 : 4380
        let exact = try #require(Decimal(string: amount)) * target / twelfths[period]!
        #expect("\(exact)".hasPrefix(exactPrefix), "exact \(exact)")
    }

    @Test func savingsAreComputedFromTheExactPricesAndRoundedDown() throws {
        // Yearly $59.99 against weekly $4.99: 1 − 59.99 ÷ (4.99 × 365 ÷ 7) = 76.94…%.
        let yearly = try Self.paywall("59.99", "P1Y", compare: ("4.99", "P1W"))
        #expect(yearly.values[.savingsPercent] == .number("76"))
        expectBytes(try yearly.render("save"), "Save 76%")
        // Against monthly $9.99: 1 − 59.99 ÷ 119.88 = 49.958…%, shown as 49, never 50.
        #expect(try Self.paywall("59.99", "P1Y", compare: ("9.99", "P1M")).values[.savingsPercent] == .number("49"))
        // Exactly half: 50.
        #expect(try Self.paywall("60", "P1Y", compare: ("10", "P1M")).values[.savingsPercent] == .number("50"))
        // A plan that costs more, or saves under 1%, has no saving to show.
        let dearer = try Self.paywall("130", "P1Y", compare: ("10", "P1M"))
        #expect(dearer.values[.savings] == nil)
        #expect(throws: StorePriceError.invalidTemplate(
            name: "save", source: "built-in", locale: "en_US", argument: "savings",
            reason: "has no value: 130 USD every P1Y costs more over the same time than 10 USD every P1M; "
                + "compare with the dearer plan (a yearly plan with the monthly one)")) { try dearer.render("save") }
        // Saving under 1%: 119 a year against 9.99 a month (119.88 a year) saves 0.73%.
        #expect(throws: StorePriceError.invalidTemplate(
            name: "save", source: "built-in", locale: "en_US", argument: "savings",
            reason: "has no value: 119 USD every P1Y saves less than 1% against 9.99 USD every P1M")
        ) { try Self.paywall("119", "P1Y", compare: ("9.99", "P1M")).render("save") }
        // Without an offer, offer_type is none, so one template serves both.
        let select = PaywallTemplate("{offer_type, select, none {{price_per_period}} other {{offer}, then {price_per_period}}}")
        expectBytes(try Self.paywall("59.99", "P1Y").render(select), "$59.99 per year")
    }

    /// CLDR's percent format for the language, not `76%` everywhere.
    @Test(arguments: [
        ("TUR", nil, "%76"), ("FRA", nil, "76\\u{00A0}%"), ("DEU", nil, "76\\u{00A0}%"),
        ("SAU", nil, "\\u{0667}\\u{0666}\\u{066A}\\u{061C}"), ("USA", nil, "76%"), ("CHE", "fr", "76%"),
    ] as [(String, String?, String)])
    func savingsUseTheLanguagesPercentFormat(_ storefront: String, _ language: String?, _ expected: String) throws {
        let paywall = try Self.paywall("59.99", "P1Y", in: storefront, compare: ("4.99", "P1W"), language: language)
        expectBytes(escaped(paywall.values[.savings]?.text ?? "none"), expected)
    }

    @Test func billedAmountFirstIsCLDRsOwnPatternInEveryLanguage() throws {
        expectBytes(try Self.paywall("59.99", "P1Y").render("billed_amount_first"), "$59.99 per year ($4.99 per month)")
        expectBytes(try Self.paywall("9.99", "P1M").render("billed_amount_first"), "$9.99 per month ($2.29 per week)")
        expectBytes(try Self.paywall("9800", "P1Y", in: "JPN").render("billed_amount_first"), "￥9,800/年 (￥816/月)")
        expectBytes(
            escaped(try Self.paywall("68", "P1Y", in: "CHN").render("billed_amount_first")),
            "\\u{00A5}68.00/\\u{5E74}\\u{FF08}\\u{00A5}5.66/\\u{6708}\\u{FF09}")
    }

    @Test func theAppStoreStyleReachesEveryPrice() throws {
        let paywall = try Self.paywall("9800", "P1Y", in: "JPN", options: .init(style: .appStore))
        expectBytes(try paywall.render("billed_amount_first"), "¥9,800/年 (¥816/月)")
        let india = try Self.paywall("999", "P1Y", in: "IND", options: .init(style: .appStore))
        // Rupees in the App Store style have no fraction digits, so the restated price has none.
        expectBytes(escaped(india.values[.amountPerMonth]?.text ?? "none"), "\\u{20B9}\\u{00A0}83")
    }

    @Test func offersHaveTheirPricePeriodCountAndEndDate() throws {
        let start = Date(timeIntervalSince1970: 1_769_817_600)  // 2026-01-31
        let usa = try Storefront("USA").priceLocale
        let paywall = try Paywall(
            price: Self.usd("59.99"), period: SubscriptionPeriod("P1Y"),
            offer: .payAsYouGo(Self.usd("0.99"), every: SubscriptionPeriod("P1M"), count: 3), locale: usa, offerStart: start)
        #expect(paywall.values[.offerPrice] == .text("$0.99"))
        #expect(paywall.values[.offerPeriod] == .text("1 month"))
        #expect(paywall.values[.offerCount] == .number("3"))
        #expect(paywall.values[.offerDuration] == .text("3 months"))
        #expect(paywall.values[.offerPricePerPeriod] == .text("$0.99 per month"))
        #expect(paywall.values[.trialEndDate] == .text("Apr 30, 2026"))
        expectBytes(try paywall.render("offer_then_price"), "$0.99 per month for 3 months, then $59.99 per year")
        let trial = try Paywall(
            price: Price("9800", currency: CurrencyCode("JPY")), period: SubscriptionPeriod("P1Y"),
            offer: .freeTrial(SubscriptionPeriod("P1M")), locale: try Storefront("JPN").priceLocale, offerStart: start)
        // A month after 31 January is the last day of February, in the language's date format.
        #expect(trial.values[.trialEndDate] == .text("2026年2月28日"))
    }

    /// Monthly payments of a yearly plan: the payment, its count and what they come to.
    @Test func aBillingPlanHasItsPaymentCountAndTotal() throws {
        let usa = try Storefront("USA").priceLocale
        let paywall = try Paywall(
            price: Self.usd("59.99"), period: SubscriptionPeriod("P1Y"),
            billingPlan: Paywall.Plan(price: Self.usd("5.49"), period: SubscriptionPeriod("P1M")), locale: usa)
        #expect(paywall.values[.billingPlanPrice] == .text("$5.49"))
        #expect(paywall.values[.billingPlanPricePerPeriod] == .text("$5.49 per month"))
        #expect(paywall.values[.billingPlanCount] == .number("12"))
        #expect(paywall.values[.billingPlanTotal] == .text("$65.88"))
        expectBytes(
            try paywall.render(PaywallTemplate("{billing_plan_count, plural, one {# payment} other {# payments}} of {billing_plan_price}")),
            "12 payments of $5.49")
        // A year is no whole number of weeks: no count, no total.
        let weekly = try Paywall(
            price: Self.usd("59.99"), period: SubscriptionPeriod("P1Y"),
            billingPlan: Paywall.Plan(price: Self.usd("1.29"), period: SubscriptionPeriod("P1W")), locale: usa)
        #expect(weekly.values[.billingPlanCount] == nil)
        #expect(weekly.missing[.billingPlanTotal] == "P1Y is not a whole number of P1W payments")
        // In yen, in the App Store style's digits.
        let yen = try Paywall(
            price: Price("9800", currency: CurrencyCode("JPY")), period: SubscriptionPeriod("P1Y"),
            billingPlan: Paywall.Plan(price: Price("900", currency: CurrencyCode("JPY")), period: SubscriptionPeriod("P1M")),
            locale: try Storefront("JPN").priceLocale, options: .init(style: .appStore))
        #expect(yen.values[.billingPlanTotal] == .text("¥10,800"))
    }

    // MARK: Templates

    /// `plural` uses CLDR's rules for the store language, through ICU's MessageFormat.
    @Test(arguments: [
        ("RUS", "P1M", "1 месяц"), ("RUS", "P3M", "3 месяца"), ("RUS", "P6M", "6 месяцев"), ("RUS", "P21D", "21 день"),
        ("POL", "P2M", "2 miesiące"), ("POL", "P5M", "5 miesięcy"),
    ])
    func pluralsFollowTheLanguagesRules(_ storefront: String, _ period: String, _ expected: String) throws {
        let templates = try PaywallTemplates([
            "ru": ["length": "{period_count, plural, one {# {period_unit, select, day {день} other {месяц}}} few {# месяца} many {# {period_unit, select, day {дней} other {месяцев}}} other {# месяца}}"],
            "pl": ["length": "{period_count, plural, one {# miesiąc} few {# miesiące} many {# miesięcy} other {# miesiąca}}"],
        ])
        let paywall = try Self.paywall(storefront == "RUS" ? "299" : "29.99", period, in: storefront)
        expectBytes(try paywall.render("length", templates: templates), expected)
    }

    /// Each mistake is an error naming the template, the language and the argument.
    @Test(arguments: [
        ("{pirce} a year", "argument 'pirce': unknown; did you mean 'price'?"),
        ("{0} a year", "argument '0': unknown; arguments have names, such as {price}; 'storeprice paywall --help' lists them"),
        ("{price a year", "not valid MessageFormat at character 2 (ICU: U_PATTERN_SYNTAX_ERROR)"),
        ("{price, plural, other {#}}", "argument 'price': is text; plural needs a number: period_count, savings_percent, offer_count, billing_plan_count"),
        ("{period_count, plural, one {# месяц} many {# месяцев} other {# месяца}}", "argument 'period_count': plural has no 'few' case, which 'ru' needs for 2, 3, 4, …"),
        ("{period_count, plural, one {# month} other {# months}}",
         "argument 'period_count': plural has no 'few' (2, 3, 4, …) or 'many' (5, 6, 7, …) case, which 'ru' needs"),
        ("{period_count, plural, one {# месяц}}", "not valid MessageFormat at character 1: a plural or select needs an 'other' case (ICU: U_DEFAULT_KEYWORD_MISSING)"),
        ("%d месяцев", "'%d' is a printf placeholder, which MessageFormat writes as it is; use a named argument such as {period_count}"),
        ("Скидка {savings}%", "argument 'savings': already has the language's percent sign (76 %, %76); remove the '%' beside it"),
        ("{trial_end_date, date, short}", "argument 'trial_end_date': is text already formatted; write {trial_end_date}"),
        ("{savings}", "argument 'savings': has no value: no plan to compare with"),
        ("{offer_type, select, free_trial {free} other {{offer_price}}}", "argument 'offer_price': has no value: there is no offer"),
    ])
    func mistakesNameTheTemplateAndArgument(_ pattern: String, _ reason: String) throws {
        let paywall = try Self.paywall("299", "P1M", in: "RUS")
        do {
            let text = try paywall.render(PaywallTemplate(pattern, name: "line", source: "paywall.json"))
            Issue.record("rendered \(text)")
        } catch {
            let place = reason.hasPrefix("argument") ? ", " : ": "
            expectBytes(error.description, "template 'line' in 'paywall.json' (ru_RU)\(place)\(reason)")
        }
    }

    /// An explicit `=1` case covers 1 and nothing else: enough for English's `one`, not for
    /// Russian's, which 21 and 31 take too.
    @Test func anExplicitCaseCoversItsOwnNumberOnly() throws {
        let template = PaywallTemplate("{period_count, plural, =1 {# month} other {# months}}")
        #expect(template.problems(in: try Storefront("USA").priceLocale).isEmpty)
        let russian = PaywallTemplate("{period_count, plural, =1 {# месяц} few {# месяца} many {# месяцев} other {# месяца}}")
        #expect(russian.problems(in: try Storefront("RUS").priceLocale).map(\.description) == [
            "template 'template' (ru_RU), argument 'period_count': plural has no 'one' case, which 'ru' needs for 21, 31, 41, …"
        ])
    }

    /// A value a branch needs is an error only when that branch is chosen.
    @Test func aMissingValueInABranchNotTakenIsNoError() throws {
        let template = PaywallTemplate("{offer_type, select, free_trial {{offer_duration} free} other {{offer_price_per_period} for {offer_duration}}}")
        let trial = try Paywall(
            price: Self.usd("59.99"), period: SubscriptionPeriod("P1Y"), offer: .freeTrial(SubscriptionPeriod("P1W")),
            locale: try Storefront("USA").priceLocale)
        expectBytes(try trial.render(template), "1 week free")
        let paid = try Paywall(
            price: Self.usd("59.99"), period: SubscriptionPeriod("P1Y"), offer: .payUpFront(Self.usd("1.99"), for: SubscriptionPeriod("P2M")),
            locale: try Storefront("USA").priceLocale)
        expectBytes(try paid.render(template), "$1.99 per 2 months for 2 months")
        #expect(throws: StorePriceError.invalidTemplate(
            name: "template", source: "template", locale: "en_US", argument: "offer_price",
            reason: "has no value: the offer is a free trial")) { try trial.render(PaywallTemplate("{offer_price} today")) }
    }

    /// A price of the other direction is isolated; one of the same direction is not.
    @Test func pricesOfTheOtherDirectionAreIsolated() throws {
        let arabic = PaywallTemplate("فقط {amount_per_month}")
        let english = PaywallTemplate("Only {amount_per_month}")
        let dollars = try Self.paywall("4.99", "P1M")
        let riyals = try Self.paywall("4.99", "P1M", in: "SAU")
        let riyalText = try #require(riyals.values[.amountPerMonth]?.text)
        expectBytes(escaped(try dollars.render(arabic)), escaped("فقط \u{2068}$4.99\u{2069}"))
        expectBytes(escaped(try riyals.render(english)), escaped("Only \u{2068}\(riyalText)\u{2069}"))
        expectBytes(escaped(try riyals.render(arabic)), escaped("فقط \(riyalText)"))
        expectBytes(try dollars.render(english), "Only $4.99")
        // A value a select chooses by is compared as it is, in text of either direction.
        expectBytes(try dollars.render(PaywallTemplate("{period_unit, select, month {شهري} other {سنوي}}")), "شهري")
        // A dollar price in Arabic starts with a right-to-left mark: it runs with the Arabic text.
        let arabicDollars = try Self.paywall("4.99", "P1M", in: "USA", language: "ar")
        let arabicDollarText = try #require(arabicDollars.values[.amountPerMonth]?.text)
        expectBytes(escaped(try arabicDollars.render(arabic)), escaped("فقط \(arabicDollarText)"))
    }

    @Test func anAppsTemplateOverridesTheBuiltInOneOfItsName() throws {
        let templates = try PaywallTemplates(["en": ["save": "Save {savings} today"], "pt-PT": ["save": "Poupe já {savings}"]])
        let paywall = try Self.paywall("59.99", "P1Y", compare: ("4.99", "P1W"))
        expectBytes(try paywall.render("save", templates: templates), "Save 76% today")
        expectBytes(try paywall.render("billed_amount_first", templates: templates), "$59.99 per year ($4.99 per month)")
        #expect(templates.languageTag(for: try Storefront("PRT").priceLocale) == "pt-PT")
        #expect(templates.languageTag(for: try Storefront("BRA").priceLocale) == nil)
        #expect(throws: StorePriceError.invalidTemplate(
            name: "headline", source: "templates", locale: "en_US", argument: nil,
            reason: "no such template; there are billed_amount_first, offer_then_price, period, price_per_period, save, savings")
        ) { try paywall.render("headline", templates: templates) }
    }

    /// With a rounding, every number starts from the price as shown: `￥1` a day is `￥7` a
    /// week, not the `￥9` that 1.4 a day would give.
    @Test func restatedPricesStartFromThePriceAsShown() throws {
        let yen = try Self.paywall("1.4", "P1D", in: "JPN", options: .init(rounding: .halfEven))
        #expect(yen.values[.price] == .text("￥1"))
        #expect(yen.values[.amountPerWeek] == .text("￥7"))
        let dollars = try Self.paywall("8.694", "P1M", options: .init(rounding: .halfEven))
        expectBytes(try dollars.render("billed_amount_first"), "$8.69 per month ($1.99 per week)")
        // A saving from the prices as shown: ￥12 a month against ￥3 a week saves 7.9%, not 22%.
        let saving = try Self.paywall("11.5", "P1M", in: "JPN", compare: ("3.4", "P1W"), options: .init(rounding: .halfEven))
        #expect(saving.values[.savingsPercent] == .number("7"))
        // A price billed daily is restated as nothing shorter.
        expectBytes(try Self.paywall("0.99", "P1D").render("billed_amount_first"), "$0.99 per day")
        // A price too large to restate per year still shows itself.
        let huge = try Self.paywall("12345678901234567890123456789012.99", "P1W")
        expectBytes(try huge.render(PaywallTemplate("{price}")), "$12,345,678,901,234,567,890,123,456,789,012.99")
        #expect(huge.values[.amountPerYear] == nil)
    }

    /// What the hostile review found the checks missed or flagged wrongly.
    @Test(arguments: [
        ("Save { savings }%", "argument 'savings': already has the language's percent sign (76 %, %76); remove the '%' beside it"),
        ("{savings_percent, number, percent}", "argument 'savings_percent': 'percent' is not a style for it; write {savings_percent} or {savings_percent, number}, or {savings} for the language's percent"),
        ("{period_count, number, ::currency/EUR}", "argument 'period_count': '::currency/EUR' is not a style for it; write {period_count} or {period_count, number}"),
    ])
    func moreMistakesAreFound(_ pattern: String, _ reason: String) throws {
        let problems = PaywallTemplate(pattern).problems(in: try Storefront("USA").priceLocale).map(\.description)
        #expect(problems == ["template 'template' (en_US), " + reason])
    }

    @Test func germanPercentWordsAreNoPlaceholder() throws {
        #expect(PaywallTemplate("100%ig werbefrei, {price}").problems(in: try Storefront("DEU").priceLocale).isEmpty)
        #expect(PaywallTemplate("{period_count, number, integer} Monate").problems(in: try Storefront("DEU").priceLocale).isEmpty)
    }

    @Test func oneLanguageWrittenTwiceIsRefused() throws {
        #expect(throws: StorePriceError.invalidTemplate(
            name: "", source: "templates", locale: nil, argument: nil, reason: "'pt-BR' and 'pt-br' are one language; keep one")
        ) { try PaywallTemplates(["pt-BR": ["a": "A"], "pt-br": ["a": "B"]]) }
        #expect(throws: StorePriceError.invalidTemplate(
            name: "", source: "templates", locale: nil, argument: nil,
            reason: "template name 'a\\u{0009}b' in en is empty or has a control character, a line or paragraph separator, "
                + "or a bidi override")
        ) { try PaywallTemplates(["en": ["a\tb": "A"]]) }
    }

    /// The direction of a template's words is found in the branch it takes.
    @Test func theDirectionIsTheTakenBranchs() throws {
        let arabic = PaywallTemplate("{period_unit, select, year {سنوي: {price_per_period}} other {Monthly}}")
        let dollars = try Self.paywall("59.99", "P1Y")
        expectBytes(escaped(try dollars.render(arabic)), escaped("سنوي: \u{2068}$59.99 per year\u{2069}"))
        let english = PaywallTemplate("{period_unit, select, year {Yearly: {price_per_period}} other {شهري}}")
        expectBytes(try dollars.render(english), "Yearly: $59.99 per year")
        // A line that is only a value is not isolated.
        let emirates = try Self.paywall("59.99", "P1Y", in: "ARE", compare: ("4.99", "P1W"))
        #expect(try emirates.render("savings") == emirates.values[.savings]?.text)
    }

    // MARK: Every storefront

    /// The lines made only of CLDR data render in every store language of every storefront, with
    /// one numbering system and one way of writing the currency.
    @Test(arguments: [PriceFormatter.Style.icu, .appStore])
    func cldrLinesRenderInEveryStoreLanguageWithOneNumberingSystem(_ style: PriceFormatter.Style) throws {
        var checked = 0
        for storefront in Storefront.all {
            for language in storefront.storeLanguages {
                let locale = try storefront.priceLocale(language: language)
                let sample = try PaywallTemplates.samplePaywall(in: locale)
                // The App Store style writes Latin digits in Arabic storefronts: the text follows them.
                let paywall = try Paywall(
                    price: sample.plan.price, period: sample.plan.period, offer: sample.offer, comparedTo: sample.comparedPlan,
                    locale: locale, options: .init(rounding: .halfEven, style: style),
                    offerStart: Date(timeIntervalSince1970: 1_767_225_600))
                var texts: [String] = []
                for name in PaywallTemplates.cldrTemplateNames {
                    texts.append(try paywall.render(name))
                }
                let prices: [PaywallArgument] = [.price, .amountPerMonth, .amountPerWeek, .comparePrice, .offerPrice]
                texts += [.offer, .offerDuration, .trialEndDate, .savings].compactMap { paywall.values[$0]?.text }
                let symbols = Set(prices.compactMap { paywall.values[$0]?.text }.map(Self.withoutNumber))
                #expect(symbols.count == 1, "\(locale): \(symbols)")
                for text in texts + prices.compactMap({ paywall.values[$0]?.text }) {
                    let systems = Set(text.unicodeScalars.compactMap(Self.digitZero))
                    #expect(systems.count <= 1, "\(locale): \(escaped(text))")
                }
                checked += 1
            }
        }
        #expect(checked > 175)
    }

    /// The zero of the numbering system a decimal digit belongs to.
    static func digitZero(_ scalar: Unicode.Scalar) -> UInt32? {
        guard scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue else { return nil }
        return scalar.value - UInt32(value)
    }

    /// A formatted price without its digits and separators: the currency as written.
    static func withoutNumber(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter {
            $0.properties.numericType == nil && !",.'\u{066B}\u{066C}\u{2019}\u{00A0}\u{202F} \u{200F}\u{200E}\u{061C}".unicodeScalars.contains($0)
        }))
    }

    @Test func theCheckListsEachProblemOnceWithItsStorefronts() throws {
        let templates = try PaywallTemplates([
            "en": ["months": "{period_count, plural, one {# month} other {# months}}"],
            "ar": ["intro": "{offer_duration} مجانًا، ثم {price_per_preiod}"],
            "ja": ["months": "%d月"],
            "ru": ["intro": "{offer}, затем {price_per_period}"],
        ], source: "paywall.json")
        let report = templates.check()
        expectBytes(report.problems.map(\.description).joined(separator: "\n"), """
            template 'intro' in 'paywall.json' (ar), argument 'price_per_preiod': unknown; did you mean 'price_per_period'? (in 17 storefronts: ARE, BHR, DZA, EGY, IRQ, JOR, …)
            template 'months' in 'paywall.json' (ja): '%d' is a printf placeholder, which MessageFormat writes as it is; use a named argument such as {period_count} (in JPN)
            template 'intro' in 'paywall.json' (ru), argument 'offer': has no value: StorePrice has no offer wording in 'ru'; pass the app's own (in 3 storefronts: RUS, UKR, USA)
            """)
        #expect(report.uncoveredLanguages.contains("pl"))
        #expect(try PaywallTemplates(["en": ["a": "{price}"]]).check().problems.isEmpty)
        #expect(throws: StorePriceError.invalidTemplate(
            name: "", source: "templates", locale: nil, argument: nil,
            reason: "'english' is not a language tag ICU knows, such as en, pt-BR or zh-Hant")) { try PaywallTemplates(["english": [:]]) }
    }

    @Test func theBuiltInSentencesAreCleanInEveryLanguageTheyHave() throws {
        let report = PaywallTemplates.builtIn.check()
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(Set(PaywallTemplates.builtIn.languages.keys.map { $0.split(separator: "-")[0] }) == Set(OfferWording.builtInLanguages.map { $0.split(separator: "-")[0] }))
    }

    // MARK: Never more than the exact value

    /// Over random prices in currencies of 0, 2 and 3 digits and every pair of periods, no restated
    /// price exceeds the exact value and adding one last digit would, and no saving is overstated:
    /// checked with Foundation's Decimal, apart from StorePrice's digit arithmetic.
    @Test func restatedPricesAndSavingsNeverExceedTheExactValue() throws {
        var random = PropertyTests.Generator(state: PropertyTests.seed)
        let periods = try ["P1D", "P3D", "P1W", "P2W", "P1M", "P2M", "P3M", "P6M", "P1Y", "P2Y"].map { try SubscriptionPeriod($0) }
        var checked = 0
        for code in ["JPY", "KRW", "USD", "EUR", "INR", "KWD", "BHD", "TND"] {
            let currency = try CurrencyCode(code)
            let digits = currency.fractionDigits
            for _ in 0..<300 {
                let minor = Int.random(in: 0...9_999_999, using: &random)
                let amount = Self.amount(minor, digits)
                let compareMinor = Int.random(in: 1...9_999_999, using: &random)
                let period = periods.randomElement(using: &random)!
                let other = periods.randomElement(using: &random)!
                let price = try Price(amount, currency: currency)
                let compared = try Price(Self.amount(compareMinor, digits), currency: currency)
                let length = { (p: SubscriptionPeriod) in Decimal(p.value * p.unit.twelfthsOfADay) }
                // Restated: r × billed ≤ amount × target < (r + 1 unit) × billed.
                let restated = try price.approximately(per: other, billedEvery: period)
                let r = Decimal(string: restated.price.amount)!
                let exact = Decimal(string: amount)! * length(other)
                let unit = pow(Decimal(10), -digits)
                #expect(r * length(period) <= exact, "\(amount) \(period) per \(other): \(r)")
                #expect((r + unit) * length(period) > exact, "\(amount) \(period) per \(other): \(r)")
                // Savings: s ≤ 100 (X − Y) ÷ X < s + 1, X the compared cost and Y this plan's over the same time.
                let x = Decimal(string: compared.amount)! * length(period)
                let y = Decimal(string: amount)! * length(other)
                let saved = Decimal(100) * (x - y)
                switch SavingsPercent.of(.init(price: price, period: period), against: .init(price: compared, period: other)) {
                case let s?:
                    #expect(Decimal(s) * x <= saved && Decimal(s + 1) * x > saved, "\(amount)/\(period) vs \(compared.amount)/\(other): \(s)")
                case nil:
                    #expect(saved < x, "\(amount)/\(period) vs \(compared.amount)/\(other): none")
                }
                checked += 1
            }
        }
        #expect(checked == 2_400)
    }

    static func amount(_ minor: Int, _ digits: Int) -> String {
        guard digits > 0 else { return String(minor) }
        let text = String(repeating: "0", count: max(0, digits + 1 - String(minor).count)) + String(minor)
        return text.dropLast(digits) + "." + text.suffix(digits)
    }
}

/// The tables of the Paywall strings article, generated from the code: `STOREPRICE_UPDATE_DOCS=1
/// swift test --filter PaywallArticleTests` writes them into the article.
@Suite struct PaywallArticleTests {
    static let article = repositoryFile("Sources/StorePrice/StorePrice.docc/PaywallStrings.md")

    /// `21.682738…`: up to six fraction digits of an exact value, and `…` when it has more.
    static func shown(_ value: Decimal) -> String {
        let text = "\(value)"
        guard let point = text.firstIndex(of: ".") else { return text }
        let fraction = text[text.index(after: point)...]
        return fraction.count <= 6 ? text : String(text[...point]) + fraction.prefix(6) + "…"
    }

    static func exactTable() throws -> String {
        func length(_ period: String) -> Decimal {
            ["P1D": 12, "P1W": 84, "P1M": 365, "P1Y": 4380][period]!
        }
        var rows = ["| input | shown as | StorePrice | exact value |", "|---|---|---|---|"]
        let restated: [(String, String, String, String, PaywallArgument, String)] = [
            ("USA", "4.99", "P1W", "every week", .amountPerMonth, "P1M"),
            ("USA", "83.99", "P1Y", "every year", .amountPerMonth, "P1M"),
            ("JPN", "9800", "P1Y", "every year", .amountPerMonth, "P1M"),
            ("USA", "19.99", "P1M", "every month", .amountPerMonth, "P1M"),
            ("USA", "59.99", "P1Y", "every year", .amountPerWeek, "P1W"),
            ("en_KW@currency=KWD", "2.999", "P1M", "every month", .amountPerYear, "P1Y"),
        ]
        for (place, amount, period, every, argument, target) in restated {
            let paywall = try PaywallTests.paywall(amount, period, in: place)
            let exact = Decimal(string: amount)! * length(target) / length(period)
            let price = paywall.values[.price]?.text ?? ""
            let where_ = place.contains("@") ? "KWT (KWD)" : place
            let unit = ["P1W": "week", "P1M": "month", "P1Y": "year"][target]!
            rows.append("| `\(price)` \(every), \(where_) | per \(unit) | `\(paywall.values[argument]?.text ?? "none")` | \(shown(exact)) |")
        }
        let compared: [(String, String, String, String, String, String)] = [
            ("USA", "59.99", "P1Y", "4.99", "P1W", "every week"),
            ("USA", "59.99", "P1Y", "9.99", "P1M", "every month"),
            ("TUR", "59.99", "P1Y", "4.99", "P1W", "every week"),
        ]
        for (place, amount, period, other, otherPeriod, every) in compared {
            let paywall = try PaywallTests.paywall(amount, period, in: place, compare: (other, otherPeriod))
            let x = Decimal(string: other)! * length(period)
            let y = Decimal(string: amount)! * length(otherPeriod)
            let exact = Decimal(100) * (x - y) / x
            let price = paywall.values[.price]?.text ?? ""
            let comparePrice = paywall.values[.comparePrice]?.text ?? ""
            let where_ = place
            rows.append("| `\(price)` every year against `\(comparePrice)` \(every), \(where_) | savings | `\(paywall.values[.savings]?.text ?? "none")` | \(shown(exact))% |")
        }
        return rows.joined(separator: "\n")
    }

    static func argumentsTable() throws -> String {
        let start = Date(timeIntervalSince1970: 1_795_737_600)  // 2026-11-27
        func paywall(_ storefront: String, _ amount: String, _ compared: String, _ monthly: String) throws -> Paywall {
            let locale = try Storefront(storefront).priceLocale
            return try Paywall(
                price: Price(amount, currency: locale.currency), period: SubscriptionPeriod("P1Y"),
                offer: .freeTrial(SubscriptionPeriod("P1W")),
                comparedTo: Paywall.Plan(price: Price(compared, currency: locale.currency), period: SubscriptionPeriod("P1W")),
                billingPlan: Paywall.Plan(price: Price(monthly, currency: locale.currency), period: SubscriptionPeriod("P1M")),
                locale: locale, offerStart: start)
        }
        let columns = try [
            paywall("USA", "59.99", "4.99", "5.49"), paywall("FRA", "59.99", "4.99", "5.49"), paywall("JPN", "9800", "600", "900"),
        ]
        var rows = ["| argument | kind | en_US | fr_FR | ja_JP (JPY 9800, 600, 900) |", "|---|---|---|---|---|"]
        for argument in PaywallArgument.allCases {
            let cells = columns.map { paywall in
                paywall.values[argument].map { "`\($0.text)`" } ?? "none: \(paywall.missing[argument] ?? "")"
            }
            rows.append("| `\(argument.name)` | \(argument.isNumber ? "number" : "text") | " + cells.joined(separator: " | ") + " |")
        }
        return rows.joined(separator: "\n")
    }

    @Test func theArticlesTablesAreGeneratedFromTheCode() throws {
        var text = try String(contentsOf: Self.article, encoding: .utf8)
        let original = text
        for (name, table) in [("paywall-exact", try Self.exactTable()), ("paywall-arguments", try Self.argumentsTable())] {
            let begin = "<!-- \(name):begin -->\n"
            let end = "\n<!-- \(name):end -->"
            let start = try #require(text.range(of: begin)).upperBound
            let stop = try #require(text.range(of: end, range: start..<text.endIndex)).lowerBound
            text.replaceSubrange(start..<stop, with: table)
        }
        if ProcessInfo.processInfo.environment["STOREPRICE_UPDATE_DOCS"] == "1" {
            try text.write(to: Self.article, atomically: true, encoding: .utf8)
        }
        expectBytes(escaped(original), escaped(text), "the article's tables; STOREPRICE_UPDATE_DOCS=1 rewrites them")
    }
}

/// Templates that pass ICU's parser yet mislead are refused, by the check and at render alike,
/// naming the template, the language and what is wrong.
@Suite struct MisleadingTemplateTests {
    @Test(arguments: [
        ("{savings_percent, plural, one {#} other {#}}%", "savings_percent",
         "a '%' beside a plural or select that writes the bare number at its edge stands beside the number whichever case is chosen; use {savings}"),
        ("%{offer_type, select, free_trial {{savings}} other {{savings}}}", "savings",
         "a '%' beside a plural or select that writes {savings} at its edge stands beside the number whichever case is chosen; {savings} has the language's percent sign already"),
        ("{offer_type}: {price}", "offer_type",
         "is a key for select (none, free_trial, pay_as_you_go, pay_up_front), not text to show; choose the words with {offer_type, select, free_trial {…} other {…}}"),
        ("{period_unit, select, monthly {a month} other {{period}}}", "period_unit",
         "select has the case 'monthly', which it never is; its keys are day, week, month, year; did you mean 'month'?"),
        ("\u{2068}{price} a year", nil,
         "has \\u{2068} without its pair; a bidi isolate (U+2066, U+2067, U+2068) is closed by U+2069, or it reorders the rest of the line"),
        ("  ", nil, "is empty; a template writes a line, such as '{offer}, then {price_per_period}'"),
    ] as [(String, String?, String)])
    func aMisleadingTemplateIsRefused(_ pattern: String, _ argument: String?, _ reason: String) throws {
        let locale = try Storefront("USA").priceLocale
        let template = PaywallTemplate(pattern, name: "headline", source: "app.json")
        let expected = StorePriceError.invalidTemplate(name: "headline", source: "app.json", locale: "en_US", argument: argument, reason: reason)
        #expect(template.problems(in: locale).first == expected)
        let paywall = try PaywallTests.paywall("59.99", "P1Y", offer: .freeTrial(SubscriptionPeriod("P1W")), compare: ("4.99", "P1W"))
        #expect(throws: expected) { try paywall.render(template) }
    }

    /// The cases a select may have are every key its argument can be, and other.
    @Test func aSelectOfEveryKeyPasses() throws {
        let template = PaywallTemplate(
            "{offer_type, select, none {{price_per_period}} free_trial {{offer}, then {price_per_period}} pay_as_you_go {{offer}} pay_up_front {{offer}} other {}}",
            name: "line")
        #expect(template.problems(in: try Storefront("USA").priceLocale).isEmpty)
    }
}
