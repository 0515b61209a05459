import ICUNumberFormat

/// What one plan saves against another per the same length of time, as a whole percent rounded
/// down, from the exact prices: `100 × (1 − (price ÷ period) ÷ (compared ÷ compared period))`.
enum SavingsPercent {
    /// The saving, from 1 to 100; nil when it is less than 1% (or the plan costs more).
    static func of(_ plan: Paywall.Plan, against compared: Paywall.Plan) -> Int? {
        let (x, y) = costs(of: plan, against: compared)
        guard !x.isZero else { return nil }
        // The least k with k × X ≥ 100 × Y is the cost as a percent, rounded up; 100 − k the saving, rounded down.
        let hundredY = y.multiplied(by: 100)
        var low = 0
        var high = 100
        guard x.multiplied(by: 100) >= hundredY else { return nil }
        while low < high {
            let middle = (low + high) / 2
            if x.multiplied(by: middle) >= hundredY { high = middle } else { low = middle + 1 }
        }
        let saving = 100 - low
        return saving >= 1 ? saving : nil
    }

    /// Why `plan` has no saving against `compared` to show.
    static func whyNone(_ plan: Paywall.Plan, against compared: Paywall.Plan) -> String {
        let (x, y) = costs(of: plan, against: compared)
        if x.isZero { return "the compared plan is free" }
        guard y > x else {
            return "\(plan.price) every \(plan.period) saves less than 1% against \(compared.price) every \(compared.period)"
        }
        return "\(plan.price) every \(plan.period) costs more over the same time than \(compared.price) every "
            + "\(compared.period); compare with the dearer plan (a yearly plan with the monthly one)"
    }

    /// The compared plan's cost over this plan's period, X, and this plan's over the compared
    /// one's, Y, each times the other's length, in units of the finer price's last digit: the
    /// saving is 100 × (X − Y) ÷ X. Prices are 0 or more (``Paywall`` refuses others).
    private static func costs(of plan: Paywall.Plan, against compared: Paywall.Plan) -> (BigDecimalInteger, BigDecimalInteger) {
        let digits = max(plan.price.fractionDigits, compared.price.fractionDigits)
        let x = BigDecimalInteger(compared.price.amount, fractionDigits: digits).multiplied(by: plan.period.twelfthsOfADay)
        let y = BigDecimalInteger(plan.price.amount, fractionDigits: digits).multiplied(by: compared.period.twelfthsOfADay)
        return (x, y)
    }

    /// The saving in CLDR's percent format for the store language: `76%`, `%76`, `76 %`, `٧٦٪؜`.
    static func format(_ percent: Int, in locale: PriceLocale) throws(StorePriceError) -> String {
        let formatter = try FormatterCache.formatter(skeleton: "percent", locale: locale.identifier)
        do {
            return try formatter.format(decimal: String(percent))
        } catch {
            throw .icuFailure(code: error.name, operation: "format \(percent)% in \(locale)")
        }
    }
}

/// A non-negative integer of any size, in base 10⁹, for comparing exact products of prices.
struct BigDecimalInteger: Comparable {
    /// Base-10⁹ limbs, least significant first, without leading zero limbs.
    private var limbs: [UInt64]

    /// The amount's digits, with `fractionDigits` fraction digits (`1.5` at 2 is 150); the sign is ignored.
    init(_ amount: String, fractionDigits: Int) {
        let parts = amount.utf8.filter { $0 != UInt8(ascii: "-") }.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        var digits = Array(parts.first ?? [])
        let fraction = parts.count > 1 ? Array(parts[1]) : []
        digits += fraction + Array(repeating: UInt8(ascii: "0"), count: max(0, fractionDigits - fraction.count))
        limbs = []
        var end = digits.count
        while end > 0 {
            let start = max(0, end - 9)
            limbs.append(digits[start..<end].reduce(0) { $0 * 10 + UInt64($1 - UInt8(ascii: "0")) })
            end = start
        }
        trim()
    }

    var isZero: Bool { limbs.isEmpty }

    /// This times a factor below 10⁹.
    func multiplied(by factor: Int) -> BigDecimalInteger {
        var result = self
        var carry: UInt64 = 0
        for index in result.limbs.indices {
            let product = result.limbs[index] * UInt64(factor) + carry
            result.limbs[index] = product % 1_000_000_000
            carry = product / 1_000_000_000
        }
        while carry > 0 {
            result.limbs.append(carry % 1_000_000_000)
            carry /= 1_000_000_000
        }
        result.trim()
        return result
    }

    private mutating func trim() {
        while limbs.last == 0 { limbs.removeLast() }
    }

    static func < (lhs: BigDecimalInteger, rhs: BigDecimalInteger) -> Bool {
        if lhs.limbs.count != rhs.limbs.count { return lhs.limbs.count < rhs.limbs.count }
        for index in lhs.limbs.indices.reversed() where lhs.limbs[index] != rhs.limbs[index] {
            return lhs.limbs[index] < rhs.limbs[index]
        }
        return false
    }
}
