import Foundation
import TestSupport
import Testing

@Suite struct SubscriptionCommandTests {
    @Test(arguments: [
        (["9.99", "--storefront", "USA", "--period", "P1M"], "$9.99 per month"),
        (["59.99", "--storefront", "USA", "--period", "P1Y"], "$59.99 per year"),
        (["59.99", "--storefront", "USA", "--period", "P1Y", "--per", "month"], "$4.99 per month"),
        (["59.99", "--storefront", "USA", "--period", "P1Y", "--per", "month", "--per-rounding", "half-even"], "$5.00 per month"),
        (["1.99", "--storefront", "USA", "--period", "P1M", "--per", "P1W"], "$0.45 per week"),
        (["1200", "--storefront", "JPN", "--period", "P1M"], "￥1,200/月"),
        (["9800", "--storefront", "JPN", "--period", "P1Y", "--per", "month"], "￥816/月"),
        (["9.99", "--storefront", "DEU", "--period", "P3M"], "9,99\u{00A0}€ pro 3 Monate"),
        (["9.99", "--storefront", "USA", "--period", "P1M", "--period-style", "short"], "$9.99/m"),
        (["0", "--storefront", "JPN", "--offer", "free:P1W"], "1 週間無料"),
        (["0.99", "--storefront", "USA", "--offer", "payAsYouGo:P1Mx3"], "$0.99 per month for 3 months"),
        (["1.99", "--storefront", "USA", "--offer", "payUpFront:P2M"], "$1.99 for 2 months"),
        (["0", "--account", "can-fr", "--offer", "free:P1M"], "1 mois d’essai gratuit"),  // fr_CA: a plain space, as CLDR has it
    ])
    func formatsPeriodsAndOffers(_ arguments: [String], _ expected: String) throws {
        let run = try runStorePrice(["format"] + arguments)
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.output, expected + "\n")
    }

    @Test(arguments: [
        (["9.99", "--storefront", "USA", "--period", "1 month"],
         "storeprice: invalid period '1 month': an ISO 8601 period starts with 'P', such as P1M or P1Y (--period)\n"),
        (["1", "--storefront", "USA", "--offer", "free:P1W"],
         "storeprice: invalid offer 'free:P1W': a free trial has no price, but 1 was given; its price is 0\n"),
        (["0", "--storefront", "RUS", "--offer", "free:P1W"],
         "storeprice: invalid offer 'free:P1W': StorePrice has no offer wording for ru_RU; pass OfferWording with your app's own (--offer-wording in the CLI)\n"),
        (["160.5", "--storefront", "JPN", "--period", "P1M"], "storeprice: '160.5' needs 1 fraction digit; JPY prices are whole amounts; give a rounding, such as half-even, to round it (--rounding half-even)\n"),
        // The Kelvin sign lower-cases to 'k' by Unicode's rules, not by ASCII's.
        (["59.99", "--storefront", "USA", "--period", "P1Y", "--per", "wee\u{212A}"],
         "storeprice: invalid period 'wee\u{212A}': not a unit (day, week, month, year) or an ISO 8601 period such as P1M (--per)\n"),
    ])
    func badPeriodsAndOffersAreDataErrors(_ arguments: [String], _ message: String) throws {
        let run = try runStorePrice(["format"] + arguments)
        #expect(run.status == 65)
        expectBytes(run.error, message)
    }

    @Test func offerWordingFromAFile() throws {
        let url = try temporaryDirectory().appendingPathComponent("ru.json")
        try #"{"freeTrial": "{duration} бесплатно", "payAsYouGo": "{price_per_period}, {duration}", "payUpFront": "{price} за весь срок: {duration}"}"#
            .write(to: url, atomically: true, encoding: .utf8)
        let run = try runStorePrice(["format", "0", "--storefront", "RUS", "--offer", "free:P1W", "--offer-wording", url.path])
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.output, "1 неделя бесплатно\n")
    }

    /// A wording file is checked as it is read: a phrase that would print a placeholder as it is,
    /// or a field that would be ignored, is an error naming it.
    @Test(arguments: [
        (#"{"freeTrial": "{duration} free", "payAsYouGo": "{pricePerPeriod} for {duration}", "payUpFront": "{price}"}"#,
         "'payAsYouGo' has the placeholder {pricePerPeriod}; StorePrice now names it {price_per_period}; it may have {duration}, {price_per_period}"),
        (#"{"freeTrial": "{price} free", "payAsYouGo": "{price_per_period}", "payUpFront": "{price}"}"#,
         "'freeTrial' has the placeholder {price}; it may have {duration}"),
        (#"{"freeTrial": "x", "payAsYouGo": "y", "payUpFront": "z", "extra": "w"}"#,
         "unknown field 'extra'; fields are freeTrial, payAsYouGo, payUpFront"),
        (#"{"free_trial": "x", "payAsYouGo": "y", "payUpFront": "z"}"#,
         "unknown field 'free_trial'; fields are freeTrial, payAsYouGo, payUpFront"),
        (#"{"payAsYouGo": "y", "payUpFront": "z"}"#, "missing 'freeTrial'"),
        (#"["x"]"#, #"expected a JSON object of strings, {"freeTrial": …, "payAsYouGo": …, "payUpFront": …}"#),
    ])
    func badOfferWordingNamesTheField(_ contents: String, _ reason: String) throws {
        // A name past the 64 characters that a value is cut to: the file is named whole.
        let url = try temporaryDirectory().appendingPathComponent(String(repeating: "w", count: 80) + ".json")
        try contents.write(to: url, atomically: true, encoding: .utf8)
        let run = try runStorePrice(["format", "0.99", "--storefront", "USA", "--offer", "payAsYouGo:P1Mx3", "--offer-wording", url.path])
        #expect(run.status == 65)
        expectBytes(run.error, "storeprice: offer wording '\(url.path)': \(reason)\n")
    }

    @Test func usageMistakesExit64() throws {
        for arguments in [["9.99", "--storefront", "USA", "--per", "month"],
                          ["9.99", "--storefront", "USA", "--period", "P1M", "--offer", "free:P1W"]] {
            #expect(try runStorePrice(["format"] + arguments).status == 64)
        }
    }

    @Test func sandboxScheduleListsTheRenewals() throws {
        let run = try runStorePrice(["sandbox-schedule", "--period", "P1Y", "--start", "2026-11-22T09:00:00Z", "--renewals", "3"])
        #expect(run.status == 0, "\(run.error)")
        expectBytes(run.output, """
            P1Y renews every hour in the sandbox; 3 renewals, then it expires.
            NUMBER  EVENT       AT
            0       purchase    2026-11-22T09:00:00Z
            1       renewal     2026-11-22T10:00:00Z
            2       renewal     2026-11-22T11:00:00Z
            3       renewal     2026-11-22T12:00:00Z
            4       expiration  2026-11-22T13:00:00Z

            """)
        let csv = try runStorePrice(["sandbox-schedule", "--period", "P1Y", "--start", "2026-11-22T09:00:00Z", "--renewals", "1", "--format", "csv"])
        expectBytes(csv.output, "number,event,at\n0,purchase,2026-11-22T09:00:00Z\n1,renewal,2026-11-22T10:00:00Z\n2,expiration,2026-11-22T11:00:00Z\n")
        let monthly = try runStorePrice(["sandbox-schedule", "--period", "P1M", "--start", "2026-11-22T09:00:00Z"])
        let lines = monthly.output.split(separator: "\n")
        #expect(lines.count == 16)
        expectBytes(String(lines[0]), "P1M renews every 5 minutes in the sandbox; 12 renewals, then it expires.")
        expectBytes(String(lines[15]), "13      expiration  2026-11-22T10:05:00Z")

        let offerOnly = try runStorePrice(["sandbox-schedule", "--period", "P3D"])
        #expect(offerOnly.status == 65)
        expectBytes(offerOnly.error, "storeprice: invalid period 'P3D': the App Store's subscriptions renew every P1W, P1M, P2M, P3M, P6M or P1Y (--period)\n")
    }

    @Test func theSampleStoreKitSubscriptionsRenderWithPeriodsAndOffers() throws {
        let run = try runStorePrice([
            "render", repositoryFile("Data/catalog-sample.storekit").path, "--storefronts", "USA", "--format", "csv",
        ])
        #expect(run.status == 0, "\(run.error)")
        let rows = run.output.split(separator: "\n").filter { $0.hasPrefix("com.example.pro.") }
        let weekly = "com.example.pro.weekly,USA,,en_US@currency=USD,1.99,$1.99,Pro Weekly,P1W,$1.99 per week,3 days free,free:P3D,"
            + "introductory: 3 days free,,\"billed_amount_first: $1.99 per week ($0.28 per day); "
            + "offer_then_price: 3 days free, then $1.99 per week\""
        let monthly: String = "com.example.pro.monthly,USA,,en_US@currency=USD,4.99,$4.99,Pro Monthly,P1M,$4.99 per month,"
            + "$0.99 per month for 3 months,payAsYouGo:P1Mx3:0.99,introductory: $0.99 per month for 3 months; "
            + "promotional com.example.pro.winback: $1.99 for 2 months; offer_code SPRING: 1 month free,,"
            + "\"billed_amount_first: $4.99 per month ($1.14 per week); "
            + "offer_then_price: $0.99 per month for 3 months, then $4.99 per month\""
        let yearly = "com.example.pro.yearly,USA,,en_US@currency=USD,39.99,$39.99,Pro Yearly,P1Y,$39.99 per year,1 week free,free:P1W,"
            + "introductory: 1 week free,,\"billed_amount_first: $39.99 per year ($3.33 per month); "
            + "offer_then_price: 1 week free, then $39.99 per year\""
        #expect(rows.map(String.init) == [weekly, monthly, yearly])
    }
}
