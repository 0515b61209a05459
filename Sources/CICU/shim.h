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

#endif // STOREPRICE_CICU_SHIM_H
