#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ICUNumberFormat

/// An introductory or promotional offer on a subscription, as StoreKit describes one: a payment
/// mode, a period, how many periods, and a price.
///
/// ```swift
/// let usa = try Storefront("USA").priceLocale
/// try SubscriptionOffer.freeTrial(SubscriptionPeriod("P1W")).text(in: usa)                  // "1 week free"
/// try SubscriptionOffer.payAsYouGo(Price("0.99", currency: usa.currency),
///                                  every: SubscriptionPeriod("P1M"), count: 3).text(in: usa)  // "$0.99 per month for 3 months"
/// try SubscriptionOffer.payUpFront(Price("1.99", currency: usa.currency),
///                                  for: SubscriptionPeriod("P2M")).text(in: usa)            // "$1.99 for 2 months"
/// ```
public struct SubscriptionOffer: Hashable, Sendable, CustomStringConvertible {
    /// How the customer pays during the offer.
    public enum PaymentMode: String, Hashable, Sendable, CaseIterable {
        /// Nothing, for the offer's duration.
        case freeTrial
        /// The offer price every period, for a number of periods.
        case payAsYouGo
        /// The offer price once, for the whole duration.
        case payUpFront
    }

    /// How the customer pays.
    public let paymentMode: PaymentMode
    /// One period: a billing period for pay-as-you-go; the whole duration otherwise.
    public let period: SubscriptionPeriod
    /// How many periods the offer lasts; 1 except for pay-as-you-go.
    public let periodCount: Int
    /// The offer price per period (pay-as-you-go) or in total (pay-up-front); nil for a free trial.
    public let price: Price?

    /// A free trial lasting `period`.
    public static func freeTrial(_ period: SubscriptionPeriod) -> SubscriptionOffer {
        SubscriptionOffer(paymentMode: .freeTrial, period: period, periodCount: 1, price: nil)
    }

    /// `price` every `period`, `count` times.
    ///
    /// - Throws: ``StorePriceError/invalidOffer(_:reason:)`` when `count` is below 1 or the whole
    ///   duration is longer than a period can be.
    public static func payAsYouGo(_ price: Price, every period: SubscriptionPeriod, count: Int)
        throws(StorePriceError) -> SubscriptionOffer
    {
        let offer = SubscriptionOffer(paymentMode: .payAsYouGo, period: period, periodCount: count, price: price)
        guard count >= 1 else { throw .invalidOffer(offer.description, reason: "the number of periods must be at least 1") }
        _ = try offer.duration
        return offer
    }

    /// `price` once, for `period`.
    public static func payUpFront(_ price: Price, for period: SubscriptionPeriod) -> SubscriptionOffer {
        SubscriptionOffer(paymentMode: .payUpFront, period: period, periodCount: 1, price: price)
    }

    /// An offer as StoreKit configuration files and App Store Connect write it.
    ///
    /// - Parameters:
    ///   - paymentMode: `free`/`freeTrial`, `payAsYouGo` or `payUpFront`.
    ///   - period: one period: a billing period for pay-as-you-go, the whole length otherwise.
    ///   - periodCount: how many periods; 1 except for pay-as-you-go.
    ///   - price: the offer's price; required except for a free trial, where it must be absent or 0.
    /// - Throws: ``StorePriceError/invalidOffer(_:reason:)`` naming what does not fit.
    public init(
        paymentMode: String, period: SubscriptionPeriod, periodCount: Int, price: Price?
    ) throws(StorePriceError) {
        let text = "\(paymentMode):\(period)" + (periodCount == 1 ? "" : "x\(periodCount)") + (price.map { " at \($0.amount)" } ?? "")
        switch try Self.checkedPaymentMode(paymentMode, period: period, periodCount: periodCount, text: text) {
        case .freeTrial:
            guard price.map({ Self.isZero($0.amount) }) ?? true else {
                // The terms alone are quoted; the price given is named in the reason.
                let terms = "\(paymentMode):\(period)"
                throw .invalidOffer(terms, reason: "a free trial has no price, but \(price.map(\.amount) ?? "") was given; its price is 0")
            }
            self = .freeTrial(period)
        case .payAsYouGo:
            guard let price else { throw .invalidOffer(text, reason: "pay as you go needs a price per period") }
            self = try .payAsYouGo(price, every: period, count: periodCount)
        case .payUpFront:
            guard let price else { throw .invalidOffer(text, reason: "pay up front needs a price") }
            self = .payUpFront(price, for: period)
        }
    }

    /// The payment mode a file's name stands for, checked against the period count, before any price.
    static func checkedPaymentMode(
        _ paymentMode: String, period: SubscriptionPeriod, periodCount: Int, text: String? = nil
    ) throws(StorePriceError) -> PaymentMode {
        let text = text ?? "\(paymentMode):\(period)" + (periodCount == 1 ? "" : "x\(periodCount)")
        switch paymentMode {
        case "free", "freeTrial":
            guard periodCount == 1 else {
                throw .invalidOffer(text, reason: "a free trial lasts one period; write its length as the period, such as P2W")
            }
            return .freeTrial
        case "payAsYouGo":
            return .payAsYouGo
        case "payUpFront":
            guard periodCount == 1 else {
                throw .invalidOffer(text, reason: "pay up front is one payment; write the whole length as the period, such as P2M")
            }
            return .payUpFront
        default:
            throw .invalidOffer(text, reason: "the payment mode must be free, payAsYouGo or payUpFront")
        }
    }

    /// An offer written whole, as `storeprice paywall --offer` takes it: `free:P1W`,
    /// `payAsYouGo:P1Mx3:0.99` or `payUpFront:P2M:1.99`, the price in `currency`.
    ///
    /// - Throws: ``StorePriceError/invalidOffer(_:reason:)`` quoting the text, or the price's error.
    public init(_ text: String, currency: CurrencyCode) throws(StorePriceError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else {
            throw .invalidOffer(text, reason: "expected MODE:PERIOD[xCOUNT][:PRICE], such as free:P1W or payAsYouGo:P1Mx3:0.99")
        }
        let price = try parts.count == 3 ? Price(String(parts[2]), currency: currency) : nil
        try self.init(terms: parts.prefix(2).joined(separator: ":"), price: price)
    }

    /// An offer from its terms as the CLI's `--offer` writes them: `free:P1W`, `payAsYouGo:P1Mx3`
    /// or `payUpFront:P2M` (also `pay-as-you-go` and `pay-up-front`), with its price given apart.
    ///
    /// - Throws: ``StorePriceError/invalidOffer(_:reason:)`` quoting the terms.
    public init(terms: String, price: Price?) throws(StorePriceError) {
        let parts = terms.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw .invalidOffer(terms, reason: "expected MODE:PERIOD, such as free:P1W, payAsYouGo:P1Mx3 or payUpFront:P2M")
        }
        let mode: String
        switch parts[0].asciiLowercased() {
        case "free", "freetrial", "free-trial": mode = "free"
        case "payasyougo", "pay-as-you-go": mode = "payAsYouGo"
        case "payupfront", "pay-up-front": mode = "payUpFront"
        default: throw .invalidOffer(terms, reason: "the mode must be free, payAsYouGo or payUpFront")
        }
        let periodParts = parts[1].split(separator: "x", omittingEmptySubsequences: false)
        guard periodParts.count <= 2 else { throw .invalidOffer(terms, reason: "expected PERIODxCOUNT, such as P1Mx3") }
        var count = 1
        if periodParts.count == 2 {
            if periodParts[1].contains(where: { $0 == "." || $0 == "," }),
                periodParts[1].allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",") })
            {
                throw .invalidOffer(terms, reason: "the number of periods after 'x' is whole, such as x3; \(periodParts[1]) is not")
            }
            guard let parsed = Int(periodParts[1]), parsed >= 1, parsed <= SubscriptionPeriod.maximumCount else {
                throw .invalidOffer(terms, reason: "the number of periods after 'x' must be 1 to \(SubscriptionPeriod.maximumCount)")
            }
            count = parsed
        }
        try self.init(paymentMode: mode, period: SubscriptionPeriod(String(periodParts[0])), periodCount: count, price: price)
    }

    private init(paymentMode: PaymentMode, period: SubscriptionPeriod, periodCount: Int, price: Price?) {
        self.paymentMode = paymentMode
        self.period = period
        self.periodCount = periodCount
        self.price = price
    }

    /// How long the offer lasts: `P3M` for three monthly payments.
    public var duration: SubscriptionPeriod {
        get throws(StorePriceError) {
            let (total, overflow) = period.value.multipliedReportingOverflow(by: periodCount)
            guard !overflow, let duration = try? SubscriptionPeriod(value: total, unit: period.unit) else {
                throw .invalidOffer(description, reason: "it lasts longer than \(SubscriptionPeriod.maximumCount) \(period.unit.rawValue)s")
            }
            return duration
        }
    }

    /// `free:P1W`, `payAsYouGo:P1Mx3:0.99`, `payUpFront:P2M:1.99`: the form the CLI's `--offer` takes.
    public var description: String {
        switch paymentMode {
        case .freeTrial: "free:\(period)"
        case .payAsYouGo: "payAsYouGo:\(period)x\(periodCount):\(price?.amount ?? "")"
        case .payUpFront: "payUpFront:\(period):\(price?.amount ?? "")"
        }
    }

    /// The offer in the store language of a price locale, with ICU's price, period and
    /// per-period text, put together with ``OfferWording``: `1 week free`,
    /// `$0.99 per month for 3 months`, `$1.99 for 2 months`.
    ///
    /// - Parameters:
    ///   - locale: the price locale, whose language the text is in.
    ///   - wording: the phrases; by default StorePrice's built-in wording for the locale's language.
    ///   - options: currency display and rounding for the price.
    ///   - style: full words or CLDR's short forms for the duration and per-period price.
    /// - Throws: ``StorePriceError/invalidOffer(_:reason:)`` when there is no wording for the
    ///   language; a price's own errors (another currency, excess precision).
    public func text(
        in locale: PriceLocale, wording: OfferWording? = nil, options: PriceFormatter.Options = .init(),
        style: SubscriptionPeriod.Style = .wide
    ) throws(StorePriceError) -> String {
        let builtIn = wording == nil ? try OfferWording.builtIn(for: locale) : nil
        guard let wording = wording ?? builtIn else {
            throw .invalidOffer(
                description,
                reason: "StorePrice has no offer wording for \(locale.languageIdentifier); "
                    + "pass OfferWording with your app's own (--offer-wording in the CLI)")
        }
        // The duration is in the prices' digits (see PriceFormatter.textLocale).
        let formatter = try PriceFormatter(locale: locale, options: options).forTextLocale()
        let textLocale = formatter.locale
        var values: [String: PaywallValue] = ["duration": .text(try duration.text(in: textLocale, style: style))]
        let phrase: String
        let field: String
        // Pay-as-you-go and pay-up-front offers always have a price; only a free trial has none.
        switch (paymentMode, price) {
        case (.payAsYouGo, let price?):
            (phrase, field) = (wording.payAsYouGo, "payAsYouGo")
            values["price_per_period"] = .text(try formatter.format(price, per: period, style: style))
        case (.payUpFront, let price?):
            (phrase, field) = (wording.payUpFront, "payUpFront")
            values["price"] = .text(try formatter.format(price))
        default:
            (phrase, field) = (wording.freeTrial, "freeTrial")
        }
        do {
            let message = try MessagePatterns.message(phrase, locale: textLocale.identifier)
            let used = Set(message.arguments.map(\.name))
            return try MessagePatterns.format(message, values.filter { used.contains($0.key) }, rightToLeft: locale.isRightToLeft)
        } catch let error as ICUMessageFormat.SyntaxError {
            throw .invalidOffer(description, reason: "the wording's '\(field)' is not valid MessageFormat (ICU: \(error.icu.name))")
        } catch {
            throw .invalidOffer(description, reason: "ICU cannot format the wording's '\(field)': \(error)")
        }
    }

    private static func isZero(_ amount: String) -> Bool {
        amount.utf8.allSatisfy { $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
    }
}

/// The phrases that put an offer's ICU-formatted parts together, for one language.
///
/// Each phrase is ICU MessageFormat, formatted by ICU, with the arguments `{duration}` (the offer's
/// whole length, `3 months`), `{price}` (the formatted price) and `{price_per_period}` (`$0.99 per
/// month`), named as the fields of `storeprice render`; a price or period of the other direction
/// is isolated (U+2068…U+2069). As in any MessageFormat pattern, `'{'` writes a brace. The phrases are keyed by StoreKit's payment modes, as Apple spells them. StorePrice has wording for English,
/// German, Spanish, French, Italian, Dutch, Portuguese, Arabic, Japanese, Korean and Chinese
/// (`Data/offer-wording.json`); it is StorePrice's own, not Apple's or CLDR's. Production
/// paywalls should pass the app's reviewed copy:
///
/// ```swift
/// let wording = OfferWording(freeTrial: "Try {duration} free", payAsYouGo: "{price_per_period} for {duration}",
///                            payUpFront: "{price} for {duration}")
/// ```
public struct OfferWording: Hashable, Sendable, Decodable {
    /// Reads wording from a JSON object with `freeTrial`, `payAsYouGo` and `payUpFront` strings.
    ///
    /// - Throws: ``StorePriceError/unreadableFile(path:reason:)``, or
    ///   ``StorePriceError/invalidOfferWording(source:reason:)`` naming a missing or unknown
    ///   field, or a placeholder the phrase does not have.
    public init(contentsOfFile path: String) throws(StorePriceError) {
        let bytes = try InputFile(path: path).readAll()
        if let problem = JSONText.problem(in: bytes) { throw .invalidOfferWording(source: path, reason: problem) }
        let fields: [String: String]
        do {
            fields = try JSONDecoder().decode([String: String].self, from: Data(bytes))
        } catch {
            throw .invalidOfferWording(source: path, reason: "expected a JSON object of strings, {\"freeTrial\": …, \"payAsYouGo\": …, \"payUpFront\": …}")
        }
        if let repeated = JSONDuplicateKeys.firstRepeatedKey(in: String(decoding: bytes, as: UTF8.self)) {
            throw .invalidOfferWording(
                source: path, reason: JSONDuplicateKeys.reason(naming: repeated))
        }
        for key in fields.keys.sorted() where Self.placeholders[key] == nil {
            throw .invalidOfferWording(source: path, reason: "unknown field '\(key.escapedForMessage)'; fields are freeTrial, payAsYouGo, payUpFront")
        }
        func phrase(_ key: String) throws(StorePriceError) -> String {
            guard let phrase = fields[key] else { throw .invalidOfferWording(source: path, reason: "missing '\(key)'") }
            let allowed = Self.placeholders[key] ?? []
            guard phrase.contains(where: { !$0.isWhitespace }) else {
                throw .invalidOfferWording(
                    source: path,
                    reason: "'\(key)' is empty; it words the offer, such as \(allowed.sorted().map { "{\($0)}" }.joined(separator: ", "))")
            }
            if let isolate = PaywallTemplate.unpairedIsolate(in: phrase) {
                throw .invalidOfferWording(
                    source: path, reason: "'\(key)' has \(isolate) without its pair; a bidi isolate is closed by U+2069")
            }
            let message: ICUMessageFormat
            do {
                message = try MessagePatterns.message(phrase, locale: "root")
            } catch {
                throw .invalidOfferWording(source: path, reason: "'\(key)' is \(PaywallTemplate.syntaxReason(error))")
            }
            if let placeholder = PaywallTemplate.printfPlaceholder(in: phrase) {
                throw .invalidOfferWording(
                    source: path,
                    reason: "'\(key)' has '\(placeholder)', a printf placeholder, which MessageFormat writes as it is; it may have "
                        + allowed.sorted().map { "{\($0)}" }.joined(separator: ", "))
            }
            if let quoted = PaywallTemplate.quotingApostrophe(in: phrase) {
                throw .invalidOfferWording(
                    source: path,
                    reason: "'\(key)': an apostrophe before '\(quoted.brace)' starts ICU's quoted text, so "
                        + "'\(quoted.text.escapedForMessage)' is written as it is; write ’ (U+2019) or '' for an apostrophe")
            }
            if let control = PaywallTemplate.controlCharacter(in: phrase) {
                throw .invalidOfferWording(source: path, reason: "'\(key)' has \(control.escapedLiteral); an offer's wording is one line of text")
            }
            for argument in message.arguments where !allowed.contains(argument.name) || argument.kind != .none {
                let name = argument.name
                let hint = name == "pricePerPeriod" ? "; StorePrice now names it {price_per_period}" : ""
                let use = allowed.contains(name) ? "is text; write it as {\(name.escapedForMessage)}" : "has the placeholder {\(name.escapedForMessage)}\(hint)"
                throw .invalidOfferWording(
                    source: path,
                    reason: "'\(key)' \(use); it may have "
                        + allowed.sorted().map { "{\($0)}" }.joined(separator: ", "))
            }
            return phrase
        }
        self.init(freeTrial: try phrase("freeTrial"), payAsYouGo: try phrase("payAsYouGo"), payUpFront: try phrase("payUpFront"))
    }

    /// The placeholders each phrase may have.
    static let placeholders: [String: Set<String>] = [
        "freeTrial": ["duration"], "payAsYouGo": ["price_per_period", "duration"], "payUpFront": ["price", "duration"],
    ]

    /// A free trial: `{duration} free`.
    public var freeTrial: String
    /// Pay as you go: `{price_per_period} for {duration}`.
    public var payAsYouGo: String
    /// Pay up front: `{price} for {duration}`.
    public var payUpFront: String

    /// Wording with the three phrases: a free trial's with `{duration}`, pay as you go's with
    /// `{price_per_period}` and `{duration}`, pay up front's with `{price}` and `{duration}`.
    public init(freeTrial: String, payAsYouGo: String, payUpFront: String) {
        self.freeTrial = freeTrial
        self.payAsYouGo = payAsYouGo
        self.payUpFront = payUpFront
    }

    /// StorePrice's wording for a price locale's language, or nil when it has none. Chinese is
    /// chosen by script: `zh-Hant` for Taiwan, Hong Kong and Macao, `zh-Hans` otherwise.
    public static func builtIn(for locale: PriceLocale) throws(StorePriceError) -> OfferWording? {
        let table = try BuiltInOfferWording.table()
        if locale.language == "zh" {
            return table[locale.scriptOrLikely == "Hant" ? "zh-Hant" : "zh-Hans"]
        }
        return table[locale.language]
    }

    /// The languages with built-in wording, as their keys in `Data/offer-wording.json`.
    public static var builtInLanguages: [String] {
        ((try? BuiltInOfferWording.table()) ?? [:]).keys.sorted()
    }
}

/// `Data/offer-wording.json`, decoded once.
enum BuiltInOfferWording {
    private struct File: Decodable {
        var languages: [String: OfferWording]
    }

    private static let decoded: Result<[String: OfferWording], StorePriceError> = {
        do {
            return .success(try JSONDecoder().decode(File.self, from: Data(EmbeddedData.offerWording.utf8)).languages)
        } catch {
            return .failure(.invalidOffer("built-in wording", reason: "Data/offer-wording.json cannot be read: \(error)"))
        }
    }()

    static func table() throws(StorePriceError) -> [String: OfferWording] {
        try decoded.get()
    }
}

/// An offer encodes in the catalog's and StoreKit's fields: `{"payment_mode":"payAsYouGo",
/// "period":"P1M","period_count":3,"price":{"amount":"0.99","currency":"USD"}}` (`"price":null`
/// for a free trial), and decodes with the same checks as
/// ``init(paymentMode:period:periodCount:price:)``; `period_count` may be left out when it is 1.
/// The CLI's terms, `{"terms":"payAsYouGo:P1Mx3","price":…}`, are read too.
extension SubscriptionOffer: Codable {
    private enum CodingKeys: String, CodingKey {
        case paymentMode = "payment_mode"
        case period
        case periodCount = "period_count"
        case price, terms
    }

    /// The terms without the price: `free:P1W`, `payAsYouGo:P1Mx3`, `payUpFront:P2M`.
    var termsWithoutPrice: String {
        switch paymentMode {
        case .freeTrial: "free:\(period)"
        case .payAsYouGo: "payAsYouGo:\(period)x\(periodCount)"
        case .payUpFront: "payUpFront:\(period)"
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let price = try container.decodeIfPresent(Price.self, forKey: .price)
        if let terms = try container.decodeIfPresent(String.self, forKey: .terms) {
            do {
                self = try SubscriptionOffer(terms: terms, price: price)
            } catch {
                throw DecodingError.dataCorruptedError(forKey: .terms, in: container, debugDescription: error.description)
            }
            return
        }
        let mode = try container.decode(String.self, forKey: .paymentMode)
        let period = try container.decode(SubscriptionPeriod.self, forKey: .period)
        let count = try container.decodeIfPresent(Int.self, forKey: .periodCount) ?? 1
        do {
            self = try SubscriptionOffer(paymentMode: mode, period: period, periodCount: count, price: price)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .paymentMode, in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(paymentMode.rawValue, forKey: .paymentMode)
        try container.encode(period, forKey: .period)
        try container.encode(periodCount, forKey: .periodCount)
        try container.encode(price, forKey: .price)
    }
}
