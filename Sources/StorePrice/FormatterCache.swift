import ICUNumberFormat

/// The process-wide cache of ICU formatters, one per (locale, skeleton).
///
/// A formatter is opened outside the lock, so a slow open never blocks lookups; if two threads
/// open the same one at once, the first stored wins. Failures are cached too. The cache holds at
/// most ``limit`` entries and starts over when it is full, so arbitrary input cannot grow it
/// without bound.
final class FormatterCache: Sendable {
    static let shared = FormatterCache()
    static let limit = 4096

    private struct Key: Hashable {
        var locale: String
        var skeleton: String
    }

    private let entries = Locked<[Key: Result<ICUNumberFormatter, ICUError>]>([:])

    func formatter(for locale: PriceLocale, options: PriceFormatter.Options) throws(StorePriceError)
        -> ICUNumberFormatter
    {
        try formatter(skeleton: options.skeleton(currency: locale.currency), locale: locale.languageIdentifier)
    }

    /// The formatter for any skeleton, such as `measure-unit/duration-month unit-width-full-name`.
    func formatter(skeleton: String, locale: String) throws(StorePriceError) -> ICUNumberFormatter {
        let key = Key(locale: locale, skeleton: skeleton)
        let cached = entries.withLock { $0[key] }
        let result: Result<ICUNumberFormatter, ICUError>
        if let cached {
            result = cached
        } else {
            let opened = Result { () throws(ICUError) in
                try ICUNumberFormatter(skeleton: key.skeleton, locale: key.locale)
            }
            result = entries.withLock { entries in
                if let winner = entries[key] { return winner }
                if entries.count >= Self.limit { entries.removeAll(keepingCapacity: true) }
                entries[key] = opened
                return opened
            }
        }
        switch result {
        case .success(let formatter):
            return formatter
        case .failure(let error):
            throw .icuFailure(code: error.name, operation: "open a formatter for '\(skeleton)' in \(locale)")
        }
    }
}
