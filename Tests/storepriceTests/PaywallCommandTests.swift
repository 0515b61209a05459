import Foundation
import TestSupport
import Testing

/// `storeprice paywall`: the built-in lines, templates, arguments, the check, and its errors.
@Suite struct PaywallCommandTests {
    @Test func writesEveryBuiltInLine() throws {
        let run = try runStorePrice([
            "paywall", "--storefront", "USA", "--price", "59.99", "--period", "P1Y", "--compare", "4.99:P1W", "--offer", "free:P1W",
        ])
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.output, """
            period\t1 year
            price_per_period\t$59.99 per year
            billed_amount_first\t$59.99 per year ($4.99 per month)
            savings\t76%
            offer\t1 week free
            offer_then_price\t1 week free, then $59.99 per year
            save\tSave 76%

            """)
    }

    @Test(arguments: [
        (["--storefront", "JPN", "--price", "9800", "--period", "P1Y", "--style", "app-store", "--template", "{amount_per_month}/月"], "¥816/月"),
        (["--storefront", "RUS", "--price", "2990", "--period", "P3M", "--template",
          "{period_count, plural, one {# месяц} few {# месяца} many {# месяцев} other {# месяца}}"], "3 месяца"),
        (["--storefront", "TUR", "--price", "59.99", "--period", "P1Y", "--compare", "4.99:P1W", "--template", "{savings}"], "%76"),
        (["--storefront", "USA", "--price", "59.99", "--period", "P1Y", "--offer", "free:P1W", "--offer-start", "2026-11-27",
          "--template", "Free until {trial_end_date}"], "Free until Dec 4, 2026"),
        (["--storefront", "USA", "--price", "9.99", "--period", "P1M", "--period-style", "short", "--template", "{price_per_period}"], "$9.99/m"),
        (["--storefront", "USA", "--price", "59.99", "--period", "P1Y", "--billing-plan", "4.99:P1M", "--template",
          "{billing_plan_price_per_period}, {billing_plan_total} a year"], "$4.99 per month, $59.88 a year"),
        (["--account", "usa-ar-device", "--price", "4.99", "--period", "P1M", "--template", "{price}"], "$4.99"),
    ])
    func rendersATemplate(_ arguments: [String], _ expected: String) throws {
        let run = try runStorePrice(["paywall"] + arguments)
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.output, expected + "\n")
    }

    @Test func writesEveryArgument() throws {
        let run = try runStorePrice(["paywall", "--storefront", "DEU", "--price", "59.99", "--period", "P1Y", "--arguments", "--escape"])
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.output, """
            price\t59,99\\u{00A0}\\u{20AC}
            period\t1 Jahr
            period_count\t1
            period_unit\tyear
            price_per_period\t59,99\\u{00A0}\\u{20AC} pro Jahr
            price_per_day\t0,16\\u{00A0}\\u{20AC} pro Tag
            price_per_week\t1,15\\u{00A0}\\u{20AC} pro Woche
            price_per_month\t4,99\\u{00A0}\\u{20AC} pro Monat
            price_per_year\t59,99\\u{00A0}\\u{20AC} pro Jahr
            amount_per_day\t0,16\\u{00A0}\\u{20AC}
            amount_per_week\t1,15\\u{00A0}\\u{20AC}
            amount_per_month\t4,99\\u{00A0}\\u{20AC}
            amount_per_year\t59,99\\u{00A0}\\u{20AC}
            offer_type\tnone

            """)
        #expect(run.error.hasPrefix("storeprice: note: savings has no value: no plan to compare with (--compare PRICE:PERIOD)\n"), "\(run.error)")
    }

    @Test func templatesFromAFileOverrideTheBuiltInOnes() throws {
        let url = try temporaryDirectory().appendingPathComponent("paywall.json")
        try #"{"en": {"save": "Save {savings} today", "headline": "{offer_duration} free"}, "fr": {"save": "Économisez {savings}"}}"#
            .write(to: url, atomically: true, encoding: .utf8)
        let all = try runStorePrice([
            "paywall", "--storefront", "USA", "--price", "59.99", "--period", "P1Y", "--compare", "9.99:P1M", "--offer", "free:P1W",
            "--templates", url.path,
        ])
        #expect(all.status == 0, "\(all.error)")
        expectBytes(all.output, "headline\t1 week free\nsave\tSave 49% today\n")
        let one = try runStorePrice([
            "paywall", "--storefront", "FRA", "--price", "59.99", "--period", "P1Y", "--templates", url.path, "--name", "billed_amount_first",
        ])
        expectBytes(one.output, "59,99\u{00A0}€ par an (4,99\u{00A0}€ par mois)\n")
        let missing = try runStorePrice(["paywall", "--storefront", "DEU", "--price", "59.99", "--period", "P1Y", "--templates", url.path])
        #expect(missing.status == 65)
        expectBytes(missing.error, "storeprice: templates in '\(url.path)' (de_DE): no templates for this language; the file has en, fr\n")
    }

    /// Every template of a file is written; one that fails is said, and the others go on.
    @Test func aTemplateThatFailsDoesNotStopTheOthers() throws {
        let url = try temporaryDirectory().appendingPathComponent("paywall.json")
        try #"{"en": {"a": "{offer_price} now", "b": "{price}", "c": "{savings}"}}"#.write(to: url, atomically: true, encoding: .utf8)
        let run = try runStorePrice(["paywall", "--storefront", "USA", "--price", "9.99", "--period", "P1M", "--templates", url.path])
        #expect(run.status == 65)
        expectBytes(run.output, "b\t$9.99\n")
        expectBytes(run.error, """
            storeprice: template 'a' in '\(url.path)' (en_US), argument 'offer_price': has no value: there is no offer (--offer)
            storeprice: template 'c' in '\(url.path)' (en_US), argument 'savings': has no value: no plan to compare with (--compare PRICE:PERIOD)
            storeprice: 2 of 3 templates failed

            """)
    }

    @Test(arguments: [
        (["--template", "{pirce}"], "storeprice: template '--template' (en_US), argument 'pirce': unknown; did you mean 'price'?\n"),
        (["--template", "{savings}"],
         "storeprice: template '--template' (en_US), argument 'savings': has no value: no plan to compare with (--compare PRICE:PERIOD)\n"),
        (["--compare", "x:P1W"], "storeprice: invalid amount 'x': expected ASCII digits with an optional leading '-' and one '.' (--compare)\n"),
        (["--compare=-4.99:P1W"], "storeprice: invalid amount '-4.99': a subscription's prices are 0 or more\n"),
        (["--template", String(repeating: "{period_unit, select, other {", count: 65) + "x" + String(repeating: "}}", count: 65)],
         "storeprice: template '--template' (en_US): braces nested more than 64 deep\n"),
        (["--offer", "payAsYouGo:P1Mx3"], "storeprice: invalid offer 'payAsYouGo:P1Mx3': pay as you go needs a price per period\n"),
    ])
    func badInputIsADataErrorNamingIt(_ arguments: [String], _ message: String) throws {
        let run = try runStorePrice(["paywall", "--storefront", "USA", "--price", "59.99", "--period", "P1Y"] + arguments)
        #expect(run.status == 65)
        expectBytes(run.error, message)
        expectBytes(run.output, "")
    }

    @Test(arguments: [
        ["--storefront", "USA", "--price", "59.99"],
        ["--price", "59.99", "--period", "P1Y"],
        ["--storefront", "USA", "--price", "59.99", "--period", "P1Y", "--template", "x", "--templates", "y"],
        ["--check", "x.json", "--storefront", "USA"],
        ["--storefront", "USA", "--price", "59.99", "--period", "P1Y", "--offer-start", "2026-01-01"],
        ["--storefront", "USA", "--price", "59.99", "--period", "P1Y", "--compare", "4.99"],
        ["--storefront", "USA", "--price", "59.99", "--period", "P1Y", "--billing-plan", "4.99"],
        ["--storefront", "USA", "--price", "59.99", "--period", "P1Y", "--offer", "free:P1W", "--offer-start", "2026-02-30"],
        ["--storefront", "USA", "--price", "59.99", "--period", "P1Y", "--offer", "free:P1W", "--offer-start", "+202-01-01"],
        ["--check", "x.json", "--arguments"],
    ])
    func usageMistakesExit64(_ arguments: [String]) throws {
        #expect(try runStorePrice(["paywall"] + arguments).status == 64)
    }

    @Test func theCheckListsProblemsAndExits65() throws {
        let url = try temporaryDirectory().appendingPathComponent("paywall.json")
        try #"{"ja": {"months": "%d月"}, "ru": {"months": "{period_count, plural, one {# месяц} other {# месяцев}}"}}"#
            .write(to: url, atomically: true, encoding: .utf8)
        let run = try runStorePrice(["paywall", "--check", url.path])
        #expect(run.status == 65)
        expectBytes(run.output, """
            template 'months' in '\(url.path)' (ja): '%d' is a printf placeholder, which MessageFormat writes as it is; use a named argument such as {period_count} (in JPN)
            template 'months' in '\(url.path)' (ru), argument 'period_count': plural has no 'few' (2, 3, 4, …) or 'many' (5, 6, 7, …) case, which 'ru' needs (in 3 storefronts: RUS, UKR, USA)

            """)
        #expect(run.error.hasPrefix("storeprice: 2 problems in 1 template of '\(url.path)', checked in 4 storefront languages\n"), "\(run.error)")
        try #"{"en": {"months": "{period_count, plural, one {# month} other {# months}}"}}"#.write(to: url, atomically: true, encoding: .utf8)
        let clean = try runStorePrice(["paywall", "--check", url.path])
        #expect(clean.status == 0, "\(clean.error)")
        expectBytes(clean.output, "")
    }
}
