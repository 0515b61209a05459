// The functions `cicu.h` declares, compiled against the system ICU; the number formatter's are in
// `cicu_number.cpp`.
//
// ICU renames every C function with its major version (`uloc_addLikelySubtags` is
// `uloc_addLikelySubtags_72` in ICU 72) through macros that Swift cannot import; these call ICU by
// its unversioned names, so StorePrice builds against any ICU release. Each converts between
// the header's plain types and ICU's own.
#include "cicu.h"

#include <string.h>
#include <unicode/uchar.h>
#include <unicode/ucal.h>
#include <unicode/udat.h>
#include <unicode/udatpg.h>
#include <unicode/ucurr.h>
#include <unicode/uenum.h>
#include <unicode/uloc.h>
#include <unicode/ulocdata.h>
#include <unicode/unum.h>
#include <unicode/upluralrules.h>
#include <unicode/uregion.h>
#include <unicode/ures.h>
#include <unicode/ustring.h>
#include <unicode/utypes.h>
#include <unicode/uversion.h>

_Static_assert(sizeof(UChar) == sizeof(cicu_char), "UChar is 16 bits");
_Static_assert(sizeof(UErrorCode) == sizeof(cicu_status), "UErrorCode is 32 bits");
_Static_assert(U_ZERO_ERROR == 0 && U_ILLEGAL_ARGUMENT_ERROR == 1 && U_MISSING_RESOURCE_ERROR == 2
                   && U_INTERNAL_PROGRAM_ERROR == 5 && U_MEMORY_ALLOCATION_ERROR == 7
                   && U_BUFFER_OVERFLOW_ERROR == 15,
               "ICU's status codes as cicu.h names them");
_Static_assert(ULOC_FULLNAME_CAPACITY == 157, "the locale ID capacity cicu.h names");

#define STATUS(status) ((UErrorCode *)(status))

const char *cicu_errorName(cicu_status code) { return u_errorName((UErrorCode)code); }

void cicu_getVersion(uint8_t *version) { u_getVersion(version); }

void cicu_getCLDRVersion(uint8_t *version, cicu_status *status) { ulocdata_getCLDRVersion(version, STATUS(status)); }

int32_t cicu_forLanguageTag(const char *tag, char *localeID, int32_t capacity, int32_t *parsedLength,
                            cicu_status *status) {
    return uloc_forLanguageTag(tag, localeID, capacity, parsedLength, STATUS(status));
}

int32_t cicu_countAvailable(void) { return uloc_countAvailable(); }

const char *cicu_getAvailable(int32_t n) { return uloc_getAvailable(n); }

int32_t cicu_currencyForLocale(const char *locale, cicu_char *buffer, int32_t capacity, cicu_status *status) {
    return ucurr_forLocale(locale, (UChar *)buffer, capacity, STATUS(status));
}

int32_t cicu_addLikelySubtags(const char *locale, char *maximized, int32_t capacity, cicu_status *status) {
    return uloc_addLikelySubtags(locale, maximized, capacity, STATUS(status));
}

cicu_bool cicu_isRightToLeft(const char *locale) { return uloc_isRightToLeft(locale); }

cicu_bool cicu_isKnownRegion(const char *code) {
    UErrorCode status = U_ZERO_ERROR;
    const URegion *region = uregion_getRegionFromCode(code, &status);
    if (U_FAILURE(status) || region == NULL) { return 0; }
    URegionType type = uregion_getType(region);
    return type == URGN_TERRITORY || type == URGN_WORLD || type == URGN_CONTINENT || type == URGN_SUBCONTINENT
        || type == URGN_GROUPING;
}

cicu_enumeration *cicu_openISOCurrencies(cicu_status *status) {
    return (cicu_enumeration *)ucurr_openISOCurrencies(UCURR_ALL, STATUS(status));
}

cicu_enumeration *cicu_openUncommonISOCurrencies(cicu_status *status) {
    return (cicu_enumeration *)ucurr_openISOCurrencies(UCURR_UNCOMMON, STATUS(status));
}

const char *cicu_enumNext(cicu_enumeration *enumeration, int32_t *length, cicu_status *status) {
    return uenum_next((UEnumeration *)enumeration, length, STATUS(status));
}

void cicu_enumClose(cicu_enumeration *enumeration) { uenum_close((UEnumeration *)enumeration); }

int32_t cicu_currencyFractionDigits(const cicu_char *currency, cicu_status *status) {
    return ucurr_getDefaultFractionDigitsForUsage((const UChar *)currency, UCURR_USAGE_STANDARD, STATUS(status));
}

static int32_t lookUpString(const char *tree, const char *localeID, const char *table, const char *group,
                            const char *key, const char *field, cicu_bool includeRoot, cicu_char *dest,
                            int32_t capacity, cicu_status *statusCode);

int32_t cicu_unitString(const char *localeID, const char *table, const char *group, const char *key,
                        const char *field, cicu_bool includeRoot, cicu_char *dest, int32_t capacity,
                        cicu_status *status) {
    return lookUpString(U_ICUDATA_NAME "-unit", localeID, table, group, key, field, includeRoot, dest, capacity,
                        status);
}

int32_t cicu_langString(const char *localeID, const char *table, const char *field, cicu_char *dest,
                        int32_t capacity, cicu_status *status) {
    return lookUpString(U_ICUDATA_NAME "-lang", localeID, table, NULL, NULL, field, 1, dest, capacity, status);
}

// `table/group/key/field` in a data tree, following the locale's fallback chain; `group` and
// `key` may be null.
static int32_t lookUpString(const char *tree, const char *localeID, const char *table, const char *group,
                            const char *key, const char *field, cicu_bool includeRoot, cicu_char *dest,
                            int32_t capacity, cicu_status *statusCode) {
    UErrorCode *status = STATUS(statusCode);
    if (U_FAILURE(*status)) { return 0; }
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
        UResourceBundle *groupBundle =
            group != NULL ? ures_getByKey(tableBundle, group, NULL, &lookup) : ures_getByKey(bundle, table, NULL, &lookup);
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
            u_memcpy((UChar *)dest, text, length);
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

void cicu_pluralCategories(const char *locale, cicu_bool ordinal, int32_t count, char *keywords,
                           cicu_status *statusCode) {
    UErrorCode *status = STATUS(statusCode);
    UPluralRules *rules = uplrules_openForType(locale, ordinal ? UPLURAL_TYPE_ORDINAL : UPLURAL_TYPE_CARDINAL, status);
    if (U_FAILURE(*status)) { return; }
    for (int32_t n = 0; n < count && U_SUCCESS(*status); n++) {
        UChar keyword[8];
        int32_t length = uplrules_select(rules, (double)n, keyword, 8, status);
        if (U_SUCCESS(*status) && length < 8) {
            u_UCharsToChars(keyword, keywords + 8 * n, length);
            keywords[8 * n + length] = 0;
        } else if (U_SUCCESS(*status)) {
            *status = U_BUFFER_OVERFLOW_ERROR;
        }
    }
    uplrules_close(rules);
}

int32_t cicu_charDirection(int32_t codePoint) { return (int32_t)u_charDirection((UChar32)codePoint); }

int32_t cicu_formatDateAfter(const char *locale, const char *zone, double startMillis, int32_t unit, int32_t amount,
                             const cicu_char *skeleton, int32_t skeletonLength, cicu_char *dest, int32_t capacity,
                             cicu_status *statusCode) {
    UErrorCode *status = STATUS(statusCode);
    static const UCalendarDateFields fields[] = {UCAL_DATE, UCAL_WEEK_OF_YEAR, UCAL_MONTH, UCAL_YEAR};
    if (U_FAILURE(*status)) { return 0; }
    if (unit < 0 || unit > 3) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    UChar zoneID[64];
    int32_t zoneLength = (int32_t)strlen(zone);
    if (zoneLength >= 64) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    u_charsToUChars(zone, zoneID, zoneLength);
    UCalendar *calendar = ucal_open(zoneID, zoneLength, "en@calendar=gregorian", UCAL_GREGORIAN, status);
    // Gregorian before 1582 too, as ISO 8601 dates are.
    ucal_setGregorianChange(calendar, -1.0e300, status);
    ucal_setMillis(calendar, startMillis, status);
    ucal_add(calendar, fields[unit], amount, status);
    UDate end = ucal_getMillis(calendar, status);
    ucal_close(calendar);
    UDateTimePatternGenerator *generator = udatpg_open(locale, status);
    UChar pattern[64];
    int32_t patternLength = udatpg_getBestPattern(generator, (const UChar *)skeleton, skeletonLength, pattern, 64, status);
    udatpg_close(generator);
    if (U_FAILURE(*status)) { return 0; }
    UDateFormat *format = udat_open(UDAT_PATTERN, UDAT_PATTERN, locale, zoneID, zoneLength, pattern, patternLength, status);
    int32_t length = udat_format(format, end, (UChar *)dest, capacity, NULL, status);
    udat_close(format);
    return length;
}

int32_t cicu_legacyCurrencyFormat(const char *localeID, const char *decimal, cicu_char *dest, int32_t capacity,
                                  cicu_status *statusCode) {
    UErrorCode *status = STATUS(statusCode);
    UNumberFormat *format = unum_open(UNUM_CURRENCY, NULL, 0, localeID, NULL, status);
    if (U_FAILURE(*status)) { return 0; }
    unum_setAttribute(format, UNUM_MINIMUM_GROUPING_DIGITS, -2 /* UNUM_MINIMUM_GROUPING_DIGITS_AUTO */);
    int32_t length = unum_formatDecimal(format, decimal, -1, (UChar *)dest, capacity, NULL, status);
    unum_close(format);
    return length;
}
