@testable import StorePrice
import Foundation
import ICUNumberFormat
import TestSupport
import Testing

/// Random exact decimals in random valid price locales, checked against ICU's older NumberFormat
/// API (`unum`, configured separately from StorePrice's `unumf` skeletons), and formatted from 8
/// threads at once. The seed is fixed so a failure repeats; STOREPRICE_PROPERTY_SEED changes it.
@Suite struct PropertyTests {
    /// SplitMix64: small, fast, and the same on every platform.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let seed: UInt64 = ProcessInfo.processInfo.environment["STOREPRICE_PROPERTY_SEED"].flatMap { UInt64($0) }
        ?? 20_261_122

    struct Case: Sendable {
        var locale: PriceLocale
        var amount: String
    }

    /// `count` cases: a storefront's language, script and region with a currency drawn from every
    /// storefront currency plus 3-digit ones, and an amount of 1 to 30 significant digits with
    /// no more fraction digits than the currency uses.
    static func cases(_ count: Int) throws -> [Case] {
        var random = Generator(state: seed)
        let currencies = try Array(Set(Storefront.all.map(\.currency.code))).sorted().map { try CurrencyCode($0) }
            + ["KWD", "BHD", "JOD", "TND", "CLP", "ISK"].map { try CurrencyCode($0) }
        let places = Storefront.all.map(\.priceLocale)
        var cases: [Case] = []
        for _ in 0..<count {
            let place = places.randomElement(using: &random)!
            let currency = currencies.randomElement(using: &random)!
            let locale = try PriceLocale(language: place.language, script: place.script, region: place.region, currency: currency)
            let significant = Int.random(in: 1...30, using: &random)
            let fraction = min(Int.random(in: 0...currency.fractionDigits, using: &random), significant)
            var digits = (0..<significant).map { _ in String(Int.random(in: 0...9, using: &random)) }.joined()
            if Bool.random(using: &random) { digits = "1" + digits.dropFirst() }
            var amount = fraction == 0 ? digits : digits.dropLast(fraction) + "." + digits.suffix(fraction)
            if amount.hasPrefix(".") { amount = "0" + amount }
            if Int.random(in: 0..<5, using: &random) == 0 { amount = "-" + amount }
            cases.append(Case(locale: locale, amount: amount))
        }
        return cases
    }

    @Test func randomPricesMatchICUsOwnDecimalFormatting() throws {
        var mismatches: [String] = []
        let cases = try Self.cases(20_000)
        for item in cases {
            let ours = try PriceFormatter(locale: item.locale).format(amount: item.amount)
            // StorePrice writes amounts canonically, and a negative zero as 0: no "-$0.00".
            let canonical = try Price(item.amount, currency: item.locale.currency).amount
            let theirs = ICULegacyFormat.currency(canonical, locale: item.locale.identifier)
            if ours != theirs {
                mismatches.append("\(item.locale) \(item.amount): \(escaped(ours)) vs ICU \(escaped(theirs ?? "nil"))")
            }
        }
        #expect(cases.count == 20_000)
        #expect(mismatches.isEmpty, "seed \(Self.seed): \(mismatches.count) of \(cases.count), first: \(mismatches.prefix(5))")
    }

    @Test func eightThreadsFormatTheSameBytes() throws {
        let cases = try Self.cases(2_000)
        let expected = try cases.map { try PriceFormatter(locale: $0.locale).format(amount: $0.amount) }
        let results = ResultBox(count: 8)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            // Each thread walks the cases from a different starting point, so the same formatter
            // is in use on several threads at once.
            var out = [String](repeating: "", count: cases.count)
            for step in 0..<cases.count {
                let index = (step + thread * cases.count / 8) % cases.count
                out[index] = (try? PriceFormatter(locale: cases[index].locale).format(amount: cases[index].amount)) ?? "error"
            }
            results.set(thread, out)
        }
        // The expected strings are the single-threaded run's; each is also checked against ICU's
        // older API, so an empty or wrong reference cannot pass.
        #expect(expected.count == 2_000)
        for (item, text) in zip(cases, expected).prefix(200) {
            let canonical = try Price(item.amount, currency: item.locale.currency).amount
            expectBytes(text, ICULegacyFormat.currency(canonical, locale: item.locale.identifier) ?? "nil", "\(item.locale)")
        }
        for thread in 0..<8 {
            let got = results.get(thread)
            #expect(got.count == expected.count, "thread \(thread) formatted \(got.count) strings")
            let differing = zip(got, expected).filter { $0 != $1 }.count
            #expect(differing == 0, "thread \(thread): \(differing) strings differ")
        }
    }

    final class ResultBox: @unchecked Sendable {
        private var values: [[String]]
        private let lock = NSLock()
        init(count: Int) { values = Array(repeating: [], count: count) }
        func set(_ index: Int, _ value: [String]) { lock.withLock { values[index] = value } }
        func get(_ index: Int) -> [String] { lock.withLock { values[index] } }
    }
}
