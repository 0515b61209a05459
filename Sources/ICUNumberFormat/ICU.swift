// CICU declares ICU in plain C types only, so this module and its clients may also import
// Foundation, whose own copy of ICU's headers would clash with the system's.
import CICU

/// Facts about the system ICU library and its CLDR data.
///
/// Everything here is read once from ICU and is independent of the process locale.
public enum ICU {
    /// The ICU library version, such as `72.1`.
    public static let version: String = {
        var info = [UInt8](repeating: 0, count: 4)
        cicu_getVersion(&info)
        return versionString(info)
    }()

    /// The CLDR version of ICU's locale data, such as `42.0`.
    public static let cldrVersion: String = {
        var info = [UInt8](repeating: 0, count: 4)
        var status = CICU_ZERO_ERROR
        cicu_getCLDRVersion(&info, &status)
        guard status <= CICU_ZERO_ERROR else { return "unknown" }
        return versionString(info)
    }()

    private static func versionString(_ info: [UInt8]) -> String {
        var parts = info.map { Int($0) }
        while parts.count > 2, parts.last == 0 { parts.removeLast() }
        return parts.map(String.init).joined(separator: ".")
    }

    // MARK: Unit data

    /// A string from ICU's unit data for a locale, following the locale's fallback chain:
    /// `unitString(locale: "de_DE", table: "units", group: "duration", key: "month", field: "per")`
    /// is `{0} pro Monat`. A nil `key` reads `table/group/field`, such as `units/compound/per`.
    ///
    /// As in CLDR, the long table (`units`) and the narrow one (`unitsNarrow`) fall back to the
    /// same locale's short table (`unitsShort`) before root's data: Chinese has no long "per month" pattern, so it gets its
    /// own short `{0}/月`, not root's `{0}/m`.
    ///
    /// - Returns: the string, or nil when no locale in the chain has it.
    public static func unitString(
        locale localeID: String, table: String, group: String, key: String?, field: String
    ) -> String? {
        if table == "units" || table == "unitsNarrow" {
            return lookUpUnitString(localeID, table, group, key, field, includeRoot: false)
                ?? lookUpUnitString(localeID, "unitsShort", group, key, field, includeRoot: true)
        }
        return lookUpUnitString(localeID, table, group, key, field, includeRoot: true)
    }

    private static func lookUpUnitString(
        _ localeID: String, _ table: String, _ group: String, _ key: String?, _ field: String, includeRoot: Bool
    ) -> String? {
        let root: cicu_bool = includeRoot ? 1 : 0
        var capacity = 128
        // Patterns are short; one retry covers any length ICU reports.
        for _ in 0..<2 {
            var buffer = [UInt16](repeating: 0, count: capacity)
            var status = CICU_ZERO_ERROR
            let length = cicu_unitString(localeID, table, group, key, field, root, &buffer, Int32(capacity), &status)
            if status == CICU_BUFFER_OVERFLOW_ERROR, Int(length) > capacity {
                capacity = Int(length)
                continue
            }
            guard status <= CICU_ZERO_ERROR, length >= 0, Int(length) <= capacity else { return nil }
            return String(decoding: buffer[0..<Int(length)], as: UTF16.self)
        }
        return nil
    }

    // MARK: Currencies

    /// Every ISO 4217 code ICU has data for, current and historic, upper case.
    public static let currencyCodes: Set<String> = currencies { status in cicu_openISOCurrencies(&status) }

    /// The ISO 4217 codes that are not money a shop charges in, as ICU classes them
    /// (`UCURR_UNCOMMON`): funds codes (`USN`, `CLF`), units of account (`XDR`, `XUA`), precious
    /// metals (`XAU`, `XAG`, `XPT`, `XPD`), the testing code `XTS` and `XXX`, "no currency".
    public static let uncommonCurrencyCodes: Set<String> = currencies { status in
        cicu_openUncommonISOCurrencies(&status)
    }

    private static func currencies(_ open: (inout cicu_status) -> OpaquePointer?) -> Set<String> {
        var codes = Set<String>()
        var status = CICU_ZERO_ERROR
        guard let enumeration = open(&status), status <= 0 else {
            return codes
        }
        defer { cicu_enumClose(enumeration) }
        while true {
            var length: Int32 = 0
            guard let next = cicu_enumNext(enumeration, &length, &status), status <= 0 else {
                break
            }
            codes.insert(String(cString: next).uppercased())
        }
        return codes
    }

    /// The number of fraction digits ICU uses for prices in `currency` (JPY 0, USD 2, KWD 3).
    ///
    /// - Parameter currency: an ISO 4217 code of three upper-case ASCII letters.
    public static func fractionDigits(currency: String) throws(ICUError) -> Int {
        var code = Array(currency.utf16)
        code.append(0)
        var status = CICU_ZERO_ERROR
        let digits = cicu_currencyFractionDigits(code, &status)
        try ICUError.check(status)
        return Int(digits)
    }

    // MARK: Locales

    /// Every locale ID ICU has data for (`en`, `en_GB`, `zh_Hant_TW`, `es_419`).
    public static let availableLocales: Set<String> = {
        var ids = Set<String>()
        let count = cicu_countAvailable()
        ids.reserveCapacity(Int(count))
        for index in 0..<count {
            if let id = cicu_getAvailable(index) {
                ids.insert(String(cString: id))
            }
        }
        return ids
    }()

    /// Languages (`en`) and language-script pairs (`zh_Hant`) that ICU has locale data for.
    public static let availableLanguages: Set<String> = {
        var languages = Set<String>()
        for id in availableLocales {
            let parts = id.split(separator: "_")
            guard let language = parts.first else { continue }
            languages.insert(String(language))
            if parts.count > 1, parts[1].count == 4 {
                languages.insert("\(language)_\(parts[1])")
            }
        }
        return languages
    }()

    /// Whether ICU knows `code` as a region: a territory (`JP`) or a UN M.49 area (`419`).
    public static func isKnownRegion(_ code: String) -> Bool {
        cicu_isKnownRegion(code) != 0
    }

    /// Converts a BCP 47 language tag (`ja-JP-u-cu-jpy`) to an ICU locale ID (`ja_JP@currency=jpy`).
    ///
    /// Fails unless ICU consumes the whole tag.
    public static func localeID(forLanguageTag tag: String) throws(ICUError) -> String {
        var parsed: Int32 = 0
        let (id, status) = localeIDBuffer { buffer, capacity, status in
            cicu_forLanguageTag(tag, buffer, capacity, &parsed, &status)
        }
        try ICUError.check(status)
        guard let id, Int(parsed) == tag.utf8.count else { throw ICUError(CICU_ILLEGAL_ARGUMENT_ERROR) }
        return id
    }

    /// The locale ID with its likely script and region added (`zh_CN` gives `zh_Hans_CN`), or
    /// the ID itself when ICU cannot tell.
    public static func addingLikelySubtags(to localeID: String) -> String {
        let (maximized, status) = localeIDBuffer { buffer, capacity, status in
            cicu_addLikelySubtags(localeID, buffer, capacity, &status)
        }
        guard status <= CICU_ZERO_ERROR, let maximized else { return localeID }
        return maximized
    }

    /// Runs an ICU call that writes a locale ID into a buffer of ICU's full locale-name capacity
    /// and returns its length; gives the ID (nil when empty or cut short) and the call's status.
    private static func localeIDBuffer(
        _ fill: (UnsafeMutablePointer<CChar>, Int32, inout cicu_status) -> Int32
    ) -> (String?, cicu_status) {
        var status = CICU_ZERO_ERROR
        let capacity = Int(CICU_FULLNAME_CAPACITY)
        let id = withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer -> String? in
            guard let base = buffer.baseAddress else { return nil }
            let length = fill(base, Int32(capacity), &status)
            guard length > 0, Int(length) < capacity else { return nil }
            return UnsafeRawBufferPointer(start: base, count: Int(length)).withMemoryRebound(to: UInt8.self) {
                String(decoding: $0, as: UTF8.self)
            }
        }
        return (id, status)
    }

    /// Whether ICU writes the locale's language right to left (`ar_SA`, `he_IL`).
    public static func isRightToLeft(locale localeID: String) -> Bool {
        cicu_isRightToLeft(localeID) != 0
    }

    /// The currency ICU associates with a locale's region (`ja_JP` gives `JPY`), if any.
    public static func defaultCurrency(forLocale localeID: String) -> String? {
        var buffer = [UInt16](repeating: 0, count: 4)
        var status = CICU_ZERO_ERROR
        let length = cicu_currencyForLocale(localeID, &buffer, Int32(buffer.count), &status)
        guard status <= CICU_ZERO_ERROR, length == 3 else { return nil }
        return String(decoding: buffer[..<3], as: UTF16.self)
    }
}

/// ICU's older NumberFormat API, for StorePrice's own tests: a second way into ICU's formatting,
/// configured separately from the skeletons StorePrice uses.
package enum ICULegacyFormat {
    /// A decimal as a currency in `localeID`, which names its currency (`ja_JP@currency=JPY`).
    package static func currency(_ decimal: String, locale localeID: String) -> String? {
        var buffer = [UInt16](repeating: 0, count: 512)
        var status = CICU_ZERO_ERROR
        let length = cicu_legacyCurrencyFormat(localeID, decimal, &buffer, Int32(buffer.count), &status)
        guard status <= CICU_ZERO_ERROR, length >= 0, Int(length) <= buffer.count else { return nil }
        return String(decoding: buffer[0..<Int(length)], as: UTF16.self)
    }
}
