#ifndef STOREPRICE_CICU_SHIM_H
#define STOREPRICE_CICU_SHIM_H

// The system ICU (libicu-dev) for StorePrice.
//
// ICU renames every C function with its major version (`unumf_openResult` is
// `unumf_openResult_72` in ICU 72) through macros that Swift cannot import.
// Each `cicu_*` function below is a `static inline` wrapper that calls the ICU
// function through its unversioned name, so the Swift code builds against any
// ICU release. Only the functions StorePrice uses are wrapped.

#include <unicode/utypes.h>
#include <unicode/uversion.h>
#include <unicode/uloc.h>
#include <unicode/ulocdata.h>
#include <unicode/ucurr.h>
#include <unicode/uenum.h>
#include <unicode/uregion.h>
#include <unicode/unumberformatter.h>
#include <unicode/uformattedvalue.h>
#include <unicode/ustring.h>
#include <unicode/ures.h>
#include <unicode/unum.h>
#include <string.h>

// MARK: Errors and versions

/// The symbolic name of an ICU error code (`U_ILLEGAL_ARGUMENT_ERROR`).
static inline const char *cicu_errorName(UErrorCode code) { return u_errorName(code); }

/// The ICU library version, e.g. {72, 1, 0, 0}.
static inline void cicu_getVersion(UVersionInfo versionArray) { u_getVersion(versionArray); }

/// The CLDR version of the ICU data, e.g. {42, 0, 0, 0}.
static inline void cicu_getCLDRVersion(UVersionInfo versionArray, UErrorCode *status) {
    ulocdata_getCLDRVersion(versionArray, status);
}

// MARK: Locales

/// Converts a BCP 47 tag (`ja-JP-u-cu-jpy`) to an ICU locale ID (`ja_JP@currency=jpy`).
static inline int32_t cicu_forLanguageTag(const char *tag, char *localeID, int32_t capacity,
                                          int32_t *parsedLength, UErrorCode *status) {
    return uloc_forLanguageTag(tag, localeID, capacity, parsedLength, status);
}

/// The number of locales ICU has data for.
static inline int32_t cicu_countAvailable(void) { return uloc_countAvailable(); }

/// The ID of the `n`th locale ICU has data for (`zh_Hant_TW`).
static inline const char *cicu_getAvailable(int32_t n) { return uloc_getAvailable(n); }

/// The default currency of a locale's region (`ja_JP` gives `JPY`).
static inline int32_t cicu_currencyForLocale(const char *locale, UChar *buffer, int32_t capacity,
                                             UErrorCode *status) {
    return ucurr_forLocale(locale, buffer, capacity, status);
}

/// Adds the likely script and region to a locale ID (`zh_CN` gives `zh_Hans_CN`).
static inline int32_t cicu_addLikelySubtags(const char *locale, char *maximized, int32_t capacity,
                                            UErrorCode *status) {
    return uloc_addLikelySubtags(locale, maximized, capacity, status);
}

/// Whether a locale's language is written right to left (`ar`, `he`, `fa`, `ur`).
static inline UBool cicu_isRightToLeft(const char *locale) { return uloc_isRightToLeft(locale); }

// MARK: Regions

/// Whether ICU knows `code` as a region: a territory (`JP`) or a UN M.49 area (`419`, `150`).
static inline UBool cicu_isKnownRegion(const char *code) {
    UErrorCode status = U_ZERO_ERROR;
    const URegion *region = uregion_getRegionFromCode(code, &status);
    if (U_FAILURE(status) || region == NULL) { return 0; }
    URegionType type = uregion_getType(region);
    return type == URGN_TERRITORY || type == URGN_WORLD || type == URGN_CONTINENT
        || type == URGN_SUBCONTINENT || type == URGN_GROUPING;
}

// MARK: Currencies

/// Opens an enumeration of every ISO 4217 code ICU has data for, past and present.
static inline UEnumeration *cicu_openISOCurrencies(UErrorCode *status) {
    return ucurr_openISOCurrencies(UCURR_ALL, status);
}

/// Opens an enumeration of the ISO 4217 codes ICU classes as uncommon: funds codes, units of
/// account, precious metals, the testing code XTS and XXX, "no currency".
static inline UEnumeration *cicu_openUncommonISOCurrencies(UErrorCode *status) {
    return ucurr_openISOCurrencies(UCURR_UNCOMMON, status);
}

static inline const char *cicu_enumNext(UEnumeration *en, int32_t *length, UErrorCode *status) {
    return uenum_next(en, length, status);
}

static inline void cicu_enumClose(UEnumeration *en) { uenum_close(en); }

/// The number of fraction digits a currency uses in prices (JPY 0, USD 2, KWD 3).
static inline int32_t cicu_currencyFractionDigits(const UChar *currency, UErrorCode *status) {
    return ucurr_getDefaultFractionDigitsForUsage(currency, UCURR_USAGE_STANDARD, status);
}

// MARK: Number formatting (unumf)

/// Opens a thread-safe `UNumberFormatter` for a skeleton (`currency/JPY unit-width-short`) and locale.
static inline UNumberFormatter *cicu_openFormatter(const UChar *skeleton, int32_t skeletonLength,
                                                   const char *locale, UErrorCode *status) {
    return unumf_openForSkeletonAndLocale(skeleton, skeletonLength, locale, status);
}

static inline void cicu_closeFormatter(UNumberFormatter *formatter) { unumf_close(formatter); }

/// Opens a result object; it is not thread-safe, so each thread needs its own.
static inline UFormattedNumber *cicu_openResult(UErrorCode *status) { return unumf_openResult(status); }

static inline void cicu_closeResult(UFormattedNumber *result) { unumf_closeResult(result); }

/// Formats a decimal number given as ASCII text (`-1234.5`), exactly, into `result`.
static inline void cicu_formatDecimal(const UNumberFormatter *formatter, const char *value,
                                      int32_t valueLength, UFormattedNumber *result,
                                      UErrorCode *status) {
    unumf_formatDecimal(formatter, value, valueLength, result, status);
}

/// The UTF-16 text of a formatted result, without copying; valid until `result` changes.
static inline const UChar *cicu_resultString(const UFormattedNumber *result, int32_t *length,
                                             UErrorCode *status) {
    const UFormattedValue *value = unumf_resultAsValue(result, status);
    if (U_FAILURE(*status)) { return NULL; }
    return ufmtval_getString(value, length, status);
}

// MARK: Unit data (ures)

/// Looks up the string at `table/group/key/field` (such as `units/duration/month/per`) in ICU's
/// unit data for a locale, and copies it into `dest` as UTF-16; returns its length.
///
/// Nested resources do not inherit from parent locales through the public API, so this walks
/// the locale's fallback chain itself, as ICU's own formatters do: the bundle ICU opens for the
/// locale (which resolves aliases such as zh_CN → zh_Hans_CN), then each parent, named by the
/// bundle's `%%Parent` or found by removing the last subtag, ending at root (searched only when
/// `includeRoot`). `*status` is U_MISSING_RESOURCE_ERROR when no searched locale has the string.
static inline int32_t cicu_unitString(const char *localeID, const char *table, const char *group,
                                      const char *key, const char *field, UBool includeRoot,
                                      UChar *dest, int32_t capacity, UErrorCode *status) {
    if (U_FAILURE(*status)) { return 0; }
    const char *tree = U_ICUDATA_NAME "-unit";
    char current[ULOC_FULLNAME_CAPACITY];
    UErrorCode openStatus = U_ZERO_ERROR;
    UResourceBundle *opened = ures_open(tree, localeID, &openStatus);
    const char *actual = ures_getLocaleByType(opened, ULOC_ACTUAL_LOCALE, &openStatus);
    if (U_FAILURE(openStatus) || actual == NULL) {
        ures_close(opened);
        *status = U_FAILURE(openStatus) ? openStatus : U_MISSING_RESOURCE_ERROR;
        return 0;
    }
    strncpy(current, actual, sizeof current - 1);
    current[sizeof current - 1] = 0;
    ures_close(opened);

    for (int depth = 0; depth < 16; depth++) {
        if (!includeRoot && strcmp(current, "root") == 0) { break; }
        UErrorCode lookup = U_ZERO_ERROR;
        UResourceBundle *bundle = ures_openDirect(tree, current, &lookup);
        UResourceBundle *tableBundle = ures_getByKey(bundle, table, NULL, &lookup);
        UResourceBundle *groupBundle = ures_getByKey(tableBundle, group, NULL, &lookup);
        int32_t length = 0;
        const UChar *text = NULL;
        if (key != NULL) {
            UResourceBundle *keyBundle = ures_getByKey(groupBundle, key, NULL, &lookup);
            text = ures_getStringByKey(keyBundle, field, &length, &lookup);
            ures_close(keyBundle);
        } else {
            text = ures_getStringByKey(groupBundle, field, &length, &lookup);
        }
        ures_close(groupBundle);
        ures_close(tableBundle);
        if (U_SUCCESS(lookup) && text != NULL) {
            ures_close(bundle);
            if (length > capacity) { *status = U_BUFFER_OVERFLOW_ERROR; return length; }
            u_memcpy(dest, text, length);
            return length;
        }
        if (strcmp(current, "root") == 0) { ures_close(bundle); break; }
        UErrorCode parentStatus = U_ZERO_ERROR;
        int32_t parentLength = 0;
        const UChar *parent = ures_getStringByKey(bundle, "%%Parent", &parentLength, &parentStatus);
        if (U_SUCCESS(parentStatus) && parent != NULL && parentLength < (int32_t)sizeof current) {
            u_UCharsToChars(parent, current, parentLength);
            current[parentLength] = 0;
        } else {
            char *underscore = strrchr(current, '_');
            if (underscore != NULL) { *underscore = 0; } else { strcpy(current, "root"); }
        }
        ures_close(bundle);
    }
    *status = U_MISSING_RESOURCE_ERROR;
    return 0;
}

// MARK: Legacy number formatting (unum), for tests only

/// Formats a decimal with ICU's older NumberFormat C API: a currency format for a locale that
/// names its currency (`de_CH@currency=CHF`), with the locale's own minimum grouping digits.
/// StorePrice formats with `unumf`; its tests use this as a second, separately configured ICU path.
static inline int32_t cicu_legacyCurrencyFormat(const char *localeID, const char *decimal,
                                                UChar *dest, int32_t capacity, UErrorCode *status) {
    UNumberFormat *format = unum_open(UNUM_CURRENCY, NULL, 0, localeID, NULL, status);
    if (U_FAILURE(*status)) { return 0; }
    unum_setAttribute(format, UNUM_MINIMUM_GROUPING_DIGITS, -2 /* UNUM_MINIMUM_GROUPING_DIGITS_AUTO */);
    int32_t length = unum_formatDecimal(format, decimal, -1, dest, capacity, NULL, status);
    unum_close(format);
    return length;
}

#endif // STOREPRICE_CICU_SHIM_H
