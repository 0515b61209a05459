import Foundation
import TestSupport
import Testing

/// Paywall templates and offer wording come from remote configs and translators: what would
/// render wrong (quoting, a bare percent, a case that can never be chosen, a control character, a
/// printf placeholder) is refused by the check and by rendering, naming the template, language
/// and argument; values that would mislead are absent with the reason; and the options' values
/// are refused in words.
@Suite struct UntrustedTemplateTests {
    static let yearly = ["paywall", "--price", "59.99", "--period", "P1Y"]

    @Test(arguments: [
        // An apostrophe before an argument starts ICU's quoted text (French elision).
        (["--storefront", "FRA", "--offer", "free:P1W", "--template", "Profitez de l'{offer_duration} gratuite"],
         "storeprice: template '--template' (fr_FR), argument 'offer_duration': an apostrophe before '{' starts ICU's quoted "
            + "text, so 'l'{offer_duration} gratuite' is written as it is; write ’ (U+2019) or '' for an apostrophe\n"),
        // A bare number beside a percent sign: Turkish writes %76.
        (["--storefront", "TUR", "--compare", "4.99:P1W", "--template", "{savings_percent}% indirim"],
         "storeprice: template '--template' (tr_TR), argument 'savings_percent': is a bare number, and a '%' beside it is not "
            + "every language's percent (Turkish writes %76, French 76 %); use {savings}\n"),
        // The same inside a plural, where `#` is the number, and with a look-alike or a thin space.
        (["--storefront", "TUR", "--compare", "4.99:P1W", "--template", "{savings_percent, plural, one {#% indirim} other {#% indirim}}"],
         "storeprice: template '--template' (tr_TR), argument 'savings_percent': is a bare number, and a '%' beside it is not "
            + "every language's percent (Turkish writes %76, French 76 %); use {savings}\n"),
        (["--storefront", "FRA", "--compare", "4.99:P1W", "--template", "{savings_percent}\u{2009}٪"],
         "storeprice: template '--template' (fr_FR), argument 'savings_percent': is a bare number, and a '%' beside it is not "
            + "every language's percent (Turkish writes %76, French 76 %); use {savings}\n"),
        // An apostrophe before a plural's `#` quotes it too.
        (["--storefront", "FRA", "--template", "{period_count, plural, one {l'# mois d'essai} other {# mois}}"],
         "storeprice: template '--template' (fr_FR): an apostrophe before '#' starts ICU's quoted text, so 'l'# mois d'' is "
            + "written as it is; write ’ (U+2019) or '' for an apostrophe\n"),
        // A case given twice: the second is never chosen.
        (["--storefront", "USA", "--offer", "free:P1W", "--template", "{offer_type, select, free_trial {a} free_trial {b} other {c}}"],
         "storeprice: template '--template' (en_US), argument 'offer_type': select has the case 'free_trial' twice; ICU always "
            + "chooses the first, so the second is never shown\n"),
        (["--storefront", "USA", "--template", "{period_count, plural, one {# year} one {# yr} other {# years}}"],
         "storeprice: template '--template' (en_US), argument 'period_count': plural has the case 'one' twice; ICU always "
            + "chooses the first, so the second is never shown\n"),
        // A tab or ESC would forge output lines or act on a terminal.
        (["--storefront", "USA", "--template", "save\tFREE FOREVER"],
         "storeprice: template '--template' (en_US): has \\u{0009}, which would break the line or act on a terminal; a paywall "
            + "line is one line of text\n"),
        (["--storefront", "USA", "--template", "\u{1B}]52;c;cGF5\u{07}{price}"],
         "storeprice: template '--template' (en_US): has \\u{001B}, which would break the line or act on a terminal; a paywall "
            + "line is one line of text\n"),
    ])
    func aTemplateThatWouldRenderWrongIsRefused(_ arguments: [String], _ message: String) throws {
        let run = try runStorePrice(Self.yearly + arguments)
        #expect(run.status == 65)
        expectBytes(run.output, "")
        expectBytes(run.error, message)
    }

    /// `’`, a doubled `''`, and one quoted syntax character (`'{'`, `'}'`, `'#'`) are written on
    /// purpose, wherever they stand.
    @Test(arguments: [
        ("Profitez de l’{offer_duration} ''gratuite'' '{'", "Profitez de l’1\u{00A0}semaine 'gratuite' {"),
        ("'{'{price}'}'", "{59,99\u{00A0}€}"),
        ("{period_count, plural, one {# '#'} other {# '#'}}", "1 #"),
        ("{offer_type, select, free_trial {'{'} other {x}}", "{"),
        ("'}'{price}", "}59,99\u{00A0}€"),
    ])
    func anApostropheWrittenOnPurposeIsKept(_ template: String, _ expected: String) throws {
        let run = try runStorePrice(Self.yearly + ["--storefront", "FRA", "--offer", "free:P1W", "--template", template])
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.output, expected + "\n")
    }

    /// The check lists every problem of a file with each language's name.
    @Test func theCheckListsEachUntrustedPattern() throws {
        let directory = try temporaryDirectory()
        let file = directory.appendingPathComponent("templates.json")
        try Data(#"""
            {"fr": {"trial": "Profitez de l'{offer_duration} gratuite"},
             "tr": {"save": "{savings_percent}% indirim"},
             "en": {"line": "{offer_type, select, free_trial {a} free_trial {b} other {c}}", "forged": "a\nb"}}
            """#.utf8).write(to: file)
        let run = try runStorePrice(["paywall", "--check", file.path])
        #expect(run.status == 65)
        #expect(run.error.hasPrefix("storeprice: 4 problems in 4 templates of "), "\(run.error)")
        for expected in [
            "template 'trial' in", "(fr), argument 'offer_duration': an apostrophe before '{'",
            "template 'save' in", "(tr), argument 'savings_percent': is a bare number",
            "template 'line' in", "argument 'offer_type': select has the case 'free_trial' twice",
            "template 'forged' in", "has \\u{000A}",
        ] {
            #expect(run.output.contains(expected), "\(expected) in \(run.output)")
        }
    }

    /// A template's name is written as `NAME<TAB>TEXT`: one that would reorder or break the line
    /// is refused as the file is read.
    @Test func aTemplateNameThatWouldReorderTheLineIsRefused() throws {
        let file = try temporaryDirectory().appendingPathComponent("templates.json")
        try Data(#"{"en": {"d\u202Ee": "{price}"}}"#.utf8).write(to: file)
        let run = try runStorePrice(Self.yearly + ["--storefront", "USA", "--templates", file.path])
        #expect(run.status == 65)
        expectBytes(run.output, "")
        #expect(run.error.contains("template name 'd\\u{202E}e' in en is empty or has a control character"), "\(run.error)")
    }

    @Test(arguments: [
        (#"{"freeTrial": "%@ for %d", "payAsYouGo": "{price_per_period} for {duration}", "payUpFront": "{price} for {duration}"}"#,
         "'freeTrial' has '%@', a printf placeholder, which MessageFormat writes as it is; it may have {duration}"),
        (#"{"freeTrial": "Essai de l'{duration}", "payAsYouGo": "{price_per_period} for {duration}", "payUpFront": "{price} for {duration}"}"#,
         "'freeTrial': an apostrophe before '{' starts ICU's quoted text"),
        (#"{"freeTrial": "{duration}\u001b[2J free", "payAsYouGo": "{price_per_period} for {duration}", "payUpFront": "{price} for {duration}"}"#,
         "'freeTrial' has \\u{001B}; an offer's wording is one line of text"),
    ])
    func offerWordingIsCheckedAsTemplatesAre(_ wording: String, _ reason: String) throws {
        let file = try temporaryDirectory().appendingPathComponent("wording.json")
        try Data(wording.utf8).write(to: file)
        let run = try runStorePrice(Self.yearly + ["--storefront", "USA", "--offer", "free:P1W", "--offer-wording", file.path, "--template", "{offer}"])
        #expect(run.status == 65)
        expectBytes(run.output, "")
        #expect(run.error.hasPrefix("storeprice: offer wording '") && run.error.contains(reason), "\(run.error)")
    }

    /// ¥150 a year is ¥0.41 a day: shown in yen's whole digits it would read as free.
    @Test func aPaidPlanRestatedAsNothingIsAbsentWithTheReason() throws {
        let run = try runStorePrice(["paywall", "--storefront", "JPN", "--price", "150", "--period", "P1Y", "--arguments"])
        #expect(run.status == 0, "\(run.error)")
        #expect(!run.output.contains("price_per_day\t") && !run.output.contains("amount_per_day\t"))
        #expect(run.output.contains("price_per_month\t￥12/月"), "\(run.output)")
        #expect(run.error.contains("note: price_per_day has no value: ￥150 every P1Y comes to ￥0 a day as shown; a paid plan would read as free"))
        let template = try runStorePrice(["paywall", "--storefront", "JPN", "--price", "150", "--period", "P1Y", "--template", "{price_per_day}"])
        #expect(template.status == 65)
        expectBytes(template.output, "")
    }

    @Test(arguments: [
        (["--price", "-5", "--period", "P1M"], "storeprice: invalid amount '-5': a subscription's prices are 0 or more\n"),
        (["--price", "59.99", "--period", "P1Y", "--compare", "-4.99:P1W"],
         "storeprice: invalid amount '-4.99': a subscription's prices are 0 or more\n"),
        (["--price", "4.99", "--period", "P1M", "--billing-plan", "4.99:P1Y"],
         "storeprice: invalid period 'P1Y': a billing plan's payments are shorter than the subscription's period, P1M; give one "
            + "such as 4.99:P1W\n"),
        (["--price", "4.99", "--period", "P1M", "--billing-plan", "4.99:P1M"],
         "storeprice: invalid period 'P1M': a billing plan's payments are shorter than the subscription's period, P1M; give one "
            + "such as 4.99:P1W\n"),
    ])
    func optionValuesAreRefusedInWords(_ arguments: [String], _ message: String) throws {
        let run = try runStorePrice(["paywall", "--storefront", "USA"] + arguments + ["--template", "{price}"])
        #expect(run.status == 65)
        expectBytes(run.error, message)
    }

    /// `paywall` says what `format` says about the language asked for.
    @Test(arguments: [
        (["--storefront", "JPN", "--language", "fr"],
         "storeprice: note: 'fr' is not a store language of JPN (ja, en-US); no customer of its store sees this price\n"),
        (["--storefront", "USA", "--language", "es", "--style", "app-store"],
         "storeprice: note: no evidence of Apple's strings in USA pages in 'es'; this is the rule of its pages in en-GB and en-US\n"),
    ])
    func aLanguageNoteIsTheFormatCommands(_ arguments: [String], _ note: String) throws {
        let paywall = try runStorePrice(["paywall"] + arguments + ["--price", "12", "--period", "P1M", "--template", "{price}"])
        let format = try runStorePrice(["format", "12"] + arguments)
        #expect(paywall.status == 0 && format.status == 0)
        expectBytes(paywall.error, note)
        expectBytes(format.error, note)
    }
}
