/// A price restated for another period: a yearly price per month, a monthly price per week.
///
/// It is an approximation by nature. The customer pays ``billed`` every ``billedEvery``; this
/// is what that comes to per ``period``, rounded to the currency's own digits (0 for JPY and KRW,
/// 3 for KWD, never a fixed two) in an explicit ``ApproximatePrice/Rounding``, down by default, as
/// store paywalls show it: `$59.99/year` is shown as `$4.99/month`, never `$5.00/month`.
///
/// ```swift
/// let yearly = try Price("59.99", currency: CurrencyCode("USD"))
/// let monthly = try yearly.approximately(per: SubscriptionPeriod("P1M"), billedEvery: SubscriptionPeriod("P1Y"))
/// monthly.price.amount   // "4.99"
/// monthly.isExact        // false
/// ```
///
/// The arithmetic is exact decimal: no `Double`, and no digits lost before the one rounding.
/// Periods are compared by length with a year of 365 days and a month of a twelfth of a year,
/// so a year is exactly 12 months and a week exactly 7 days, while a month is 365/12 ≈ 30.42 days
/// ≈ 4.345 weeks.
public struct ApproximatePrice: Hashable, Sendable, CustomStringConvertible {
    /// How the restated price is rounded to the currency's digits.
    public enum Rounding: String, Hashable, Sendable, CaseIterable, Codable {
        /// Toward zero: what a paywall shows, never more than the customer pays. The default.
        case down
        /// Away from zero.
        case up
        /// To the nearest, ties to the even digit.
        case halfEven
        /// To the nearest, ties away from zero.
        case halfUp
    }

    /// The restated price, rounded.
    public let price: Price
    /// The period it is stated per.
    public let period: SubscriptionPeriod
    /// The price actually billed.
    public let billed: Price
    /// How often it is billed.
    public let billedEvery: SubscriptionPeriod
    /// The rounding used.
    public let rounding: Rounding
    /// Whether no rounding was needed: the restated price is exact.
    public let isExact: Bool

    /// `≈ 4.99 USD per P1M (59.99 USD every P1Y, rounded down)`, for logs; show it to people with
    /// a ``PriceFormatter``.
    public var description: String {
        "≈ \(price) per \(period) (\(billed) every \(billedEvery), rounded \(rounding.rawValue))"
    }
}

extension Price {
    /// This price, billed every `billedEvery`, restated per `period` and rounded to the
    /// currency's digits, or to `fractionDigits` (a formatter's ``PriceFormatter/fractionDigits``,
    /// 0 for rupees in the App Store style); see ``ApproximatePrice``.
    ///
    /// - Throws: ``StorePriceError/invalidAmount(_:reason:)`` if the result has more digits than a
    ///   ``Price`` holds.
    public func approximately(
        per period: SubscriptionPeriod, billedEvery: SubscriptionPeriod,
        rounding: ApproximatePrice.Rounding = .down, fractionDigits: Int? = nil
    ) throws(StorePriceError) -> ApproximatePrice {
        let numerator = period.twelfthsOfADay
        let denominator = billedEvery.twelfthsOfADay
        let (amount, exact) = DecimalDigits.scale(
            amount, by: numerator, over: denominator, fractionDigits: fractionDigits ?? currency.fractionDigits,
            rounding: rounding)
        return ApproximatePrice(
            price: try Price(amount, currency: currency), period: period, billed: self, billedEvery: billedEvery,
            rounding: rounding, isExact: exact)
    }
}

/// Exact arithmetic on decimal text, digit by digit, for restating prices.
enum DecimalDigits {
    /// `amount × numerator ÷ denominator`, rounded to `fractionDigits`, as canonical decimal text;
    /// and whether it was exact. `amount` is a canonical ``Price`` amount; both integers are
    /// positive.
    static func scale(
        _ amount: String, by numerator: Int, over denominator: Int, fractionDigits: Int,
        rounding: ApproximatePrice.Rounding
    ) -> (String, Bool) {
        var text = Substring(amount)
        let negative = text.first == "-"
        if negative { text = text.dropFirst() }
        let point = text.firstIndex(of: ".")
        let fraction = point.map { text[text.index(after: $0)...] } ?? ""
        let scale = fraction.count
        var digits = (point.map { text[..<$0] } ?? text).utf8.map { Int($0) - 48 } + fraction.utf8.map { Int($0) - 48 }

        // value = digits × 10^-scale; result = digits × numerator × 10^f ÷ denominator ÷ 10^scale.
        multiply(&digits, by: numerator)
        digits += repeatElement(0, count: fractionDigits)
        let remainder = divide(&digits, by: denominator)
        let dropped = Array(digits.suffix(scale))
        digits.removeLast(min(scale, digits.count))
        if digits.isEmpty { digits = [0] }

        // Compare what was dropped, (dropped + remainder/denominator) / 10^scale, with one half.
        let isZero = remainder == 0 && dropped.allSatisfy { $0 == 0 }
        let half: Int  // -1 below one half, 0 exactly one half, 1 above
        if scale == 0 {
            half = (2 * remainder).signum(comparedTo: denominator)
        } else {
            let halfway = [5] + Array(repeating: 0, count: scale - 1)
            if dropped == halfway {
                half = remainder == 0 ? 0 : 1
            } else {
                half = dropped.lexicographicallyPrecedes(halfway) ? -1 : 1
            }
        }
        let roundUp: Bool
        switch rounding {
        case .down: roundUp = false
        case .up: roundUp = !isZero
        case .halfUp: roundUp = half >= 0 && !isZero
        case .halfEven: roundUp = half > 0 || (half == 0 && (digits.last ?? 0) % 2 == 1)
        }
        if roundUp { multiply(&digits, by: 1, adding: 1) }

        while digits.count > fractionDigits + 1, digits.first == 0 { digits.removeFirst() }
        while digits.count < fractionDigits + 1 { digits.insert(0, at: 0) }
        var result = String(decoding: digits[..<(digits.count - fractionDigits)].map { UInt8($0 + 48) }, as: UTF8.self)
        if fractionDigits > 0 {
            result += "." + String(decoding: digits.suffix(fractionDigits).map { UInt8($0 + 48) }, as: UTF8.self)
        }
        let isZeroResult = digits.allSatisfy { $0 == 0 }
        return ((negative && !isZeroResult ? "-" : "") + result, isZero)
    }

    /// `digits × factor + addend`, in place.
    private static func multiply(_ digits: inout [Int], by factor: Int, adding addend: Int = 0) {
        var carry = addend
        for index in digits.indices.reversed() {
            let product = digits[index] * factor + carry
            digits[index] = product % 10
            carry = product / 10
        }
        while carry > 0 {
            digits.insert(carry % 10, at: 0)
            carry /= 10
        }
    }

    /// `digits ÷ divisor` in place; returns the remainder.
    private static func divide(_ digits: inout [Int], by divisor: Int) -> Int {
        var remainder = 0
        for index in digits.indices {
            let current = remainder * 10 + digits[index]
            digits[index] = current / divisor
            remainder = current % divisor
        }
        return remainder
    }
}

extension Int {
    /// -1, 0 or 1 as this is less than, equal to or greater than `other`.
    fileprivate func signum(comparedTo other: Int) -> Int {
        self < other ? -1 : (self == other ? 0 : 1)
    }
}

/// An approximate price encodes as `{"price":{"amount":"4.99","currency":"USD"},"period":"P1M","billed":{"amount":
/// "59.99","currency":"USD"},"billed_every":"P1Y","rounding":"down","is_exact":false}`, and
/// decodes only when the restated price is what the billed price restates to.
extension ApproximatePrice: Codable {
    private enum CodingKeys: String, CodingKey {
        case price, period, billed, rounding
        case billedEvery = "billed_every"
        case isExact = "is_exact"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let price = try container.decode(Price.self, forKey: .price)
        let billed = try container.decode(Price.self, forKey: .billed)
        let period = try container.decode(SubscriptionPeriod.self, forKey: .period)
        let billedEvery = try container.decode(SubscriptionPeriod.self, forKey: .billedEvery)
        let rounding = try container.decode(Rounding.self, forKey: .rounding)
        // Restated again, to the digits the price is written with: a price that is not this
        // restatement is refused.
        let digits = price.amount.split(separator: ".").dropFirst().first?.count ?? 0
        let restated = try? billed.approximately(
            per: period, billedEvery: billedEvery, rounding: rounding, fractionDigits: digits)
        guard let restated, restated.price == price else {
            throw DecodingError.dataCorruptedError(
                forKey: .price, in: container,
                debugDescription: "\(billed) every \(billedEvery) is not \(price) per \(period), rounded \(rounding.rawValue)")
        }
        self = restated
    }
}
