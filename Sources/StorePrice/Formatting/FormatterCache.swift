import ICUNumberFormat

/// A process-wide cache of values that are slow to make, holding at most `limit` entries and
/// starting over when full, so that arbitrary input cannot grow it without bound.
///
/// A value is made outside the lock, so a slow make never blocks lookups; if two threads make the
/// same one at once, the first stored wins. Store failures as `Result`s to cache them too.
final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    let limit: Int
    private let entries = Locked<[Key: Value]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    func value(for key: Key, make: () -> Value) -> Value {
        if let known = entries.withLock({ $0[key] }) { return known }
        let made = make()
        return entries.withLock { entries in
            if let winner = entries[key] { return winner }
            if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
            entries[key] = made
            return made
        }
    }
}

/// The process-wide cache of ICU formatters, one per (locale, skeleton), failures included.
enum FormatterCache {
    static let limit = 4096

    private struct Key: Hashable, Sendable {
        var locale: String
        var skeleton: String
        var buildsAtOnce: Bool
    }

    private static let formatters = BoundedCache<Key, Result<ICUNumberFormatter, ICUError>>(limit: limit)

    /// The currency formatter for a price locale, opened with the whole price locale ID
    /// (`pt_CV@currency=USD`), keyword included: ICU takes the currency's symbols and pattern
    /// from the keyword, and without it would use those of the region's own currency.
    /// With `buildsAtOnce`, ICU builds the formatter's data on its first format (see
    /// `ICUNumberFormatter.init(skeleton:locale:buildsAtOnce:)`); such formatters are kept apart.
    static func formatter(
        for locale: PriceLocale, options: PriceFormatter.Options, buildsAtOnce: Bool = false
    ) throws(StorePriceError) -> ICUNumberFormatter {
        try formatter(skeleton: options.skeleton(currency: locale.currency), locale: locale.identifier, buildsAtOnce: buildsAtOnce)
    }

    /// The formatter for any skeleton, such as `measure-unit/duration-month unit-width-full-name`.
    static func formatter(skeleton: String, locale: String, buildsAtOnce: Bool = false) throws(StorePriceError)
        -> ICUNumberFormatter
    {
        let result = formatters.value(for: Key(locale: locale, skeleton: skeleton, buildsAtOnce: buildsAtOnce)) {
            Result { () throws(ICUError) in try ICUNumberFormatter(skeleton: skeleton, locale: locale, buildsAtOnce: buildsAtOnce) }
        }
        switch result {
        case .success(let formatter):
            return formatter
        case .failure(let error):
            throw .icuFailure(code: error.name, operation: "open a formatter for '\(skeleton)' in \(locale.escapedForMessage)")
        }
    }
}
