/// The arguments a paywall template can use, named the same in the library, the CLI and the docs.
///
/// Text arguments are written as they are (`{price}`); number arguments are exact decimals for
/// `plural`, `selectordinal` and `#` (`{period_count, plural, one {# month} other {# months}}`).
/// Prices are formatted in the paywall's price locale and style; restated prices are exact
/// decimal arithmetic, rounded once to the digits the price is shown with, down by default.
public enum PaywallArgument: String, Hashable, Sendable, CaseIterable, Codable {
    /// The price billed each period: `$59.99`.
    case price
    /// The period, in the period style: `1 year`, `3 months`.
    case period
    /// How many units the period has, a number: `3` for `P3M`.
    case periodCount = "period_count"
    /// The period's unit, for `select`: `day`, `week`, `month` or `year`.
    case periodUnit = "period_unit"
    /// The price with CLDR's pattern for its period: `$59.99 per year`, `￥9,800/年`.
    case pricePerPeriod = "price_per_period"
    /// The price restated per day, with CLDR's per-day pattern: `$0.16 per day`.
    case pricePerDay = "price_per_day"
    /// The price restated per week: `$1.15 per week`.
    case pricePerWeek = "price_per_week"
    /// The price restated per month: `$4.99 per month`.
    case pricePerMonth = "price_per_month"
    /// The price restated per year: `$59.99 per year`.
    case pricePerYear = "price_per_year"
    /// The price restated per day, the amount alone: `$0.16`.
    case amountPerDay = "amount_per_day"
    /// The price restated per week, the amount alone: `$1.15`.
    case amountPerWeek = "amount_per_week"
    /// The price restated per month, the amount alone: `$4.99`.
    case amountPerMonth = "amount_per_month"
    /// The price restated per year, the amount alone: `$59.99`.
    case amountPerYear = "amount_per_year"
    /// What this plan saves against the compared one, in CLDR's percent format for the
    /// language: `76%`, `%76` in Turkish, `76 %` in French. Only when it saves 1% or more.
    case savings
    /// The savings as a whole number of percent, rounded down, for `plural`: `76`.
    case savingsPercent = "savings_percent"
    /// The compared plan's price: `$4.99`.
    case comparePrice = "compare_price"
    /// The compared plan's price with its period's pattern: `$4.99 per week`.
    case comparePricePerPeriod = "compare_price_per_period"
    /// The offer in StorePrice's wording (or the app's `OfferWording`): `1 week free`.
    case offer
    /// The offer's payment mode, for `select`: `free_trial`, `pay_as_you_go` or `pay_up_front`;
    /// `none` without an offer, so one template serves plans with and without one.
    case offerType = "offer_type"
    /// The offer's price; none for a free trial: `$0.99`.
    case offerPrice = "offer_price"
    /// One period of the offer: `1 month`.
    case offerPeriod = "offer_period"
    /// How many periods the offer lasts, a number: `3`.
    case offerCount = "offer_count"
    /// The offer's whole length: `3 months`.
    case offerDuration = "offer_duration"
    /// The offer's price with its period's pattern: `$0.99 per month`; none for a free trial.
    case offerPricePerPeriod = "offer_price_per_period"
    /// The date the offer ends, from a given start, in the language's medium date format:
    /// `Dec 4, 2026`, `2026年12月4日`.
    case trialEndDate = "trial_end_date"
    /// A billing plan's payment, such as the monthly payment for a yearly commitment: `$4.99`.
    case billingPlanPrice = "billing_plan_price"
    /// That payment with its period's pattern: `$4.99 per month`.
    case billingPlanPricePerPeriod = "billing_plan_price_per_period"
    /// How many payments the subscription's period has, a number: `12` for monthly payments
    /// of a yearly plan; none when the period is not a whole number of them.
    case billingPlanCount = "billing_plan_count"
    /// What the payments come to over the subscription's period: `$59.88`.
    case billingPlanTotal = "billing_plan_total"

    /// Whether the argument is a number, for `plural`, `selectordinal` and `#`.
    public var isNumber: Bool {
        switch self {
        case .periodCount, .savingsPercent, .offerCount, .billingPlanCount: true
        default: false
        }
    }

    /// The keys of an argument that chooses words with `select` rather than being shown: every
    /// value it can have. Nil for the arguments that are text or numbers to show.
    public var selectKeys: [String]? {
        switch self {
        case .offerType: ["none", "free_trial", "pay_as_you_go", "pay_up_front"]
        case .periodUnit: ["day", "week", "month", "year"]
        default: nil
        }
    }

    /// The argument's name in templates: `price_per_month`.
    public var name: String { rawValue }
}

/// An argument's value: text written as it is, or an exact decimal number for `plural`.
public enum PaywallValue: Hashable, Sendable {
    /// Formatted text, such as `$4.99` or `1 week`.
    case text(String)
    /// An exact decimal number in ASCII, such as `3` or `76`.
    case number(String)

    /// The text, or the number as ASCII digits.
    public var text: String {
        switch self {
        case .text(let text), .number(let text): text
        }
    }
}
