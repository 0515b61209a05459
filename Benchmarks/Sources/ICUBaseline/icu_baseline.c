#include "icu_baseline.h"

#include <unicode/unumberformatter.h>
#include <unicode/ustring.h>

void *icu_baseline_open(const char *skeleton, const char *locale) {
    UChar skeleton16[256];
    u_uastrncpy(skeleton16, skeleton, 255);
    skeleton16[255] = 0;
    UErrorCode status = U_ZERO_ERROR;
    UNumberFormatter *formatter = unumf_openForSkeletonAndLocale(skeleton16, -1, locale, &status);
    if (U_FAILURE(status)) { return NULL; }
    return formatter;
}

void *icu_baseline_open_result(void) {
    UErrorCode status = U_ZERO_ERROR;
    UFormattedNumber *result = unumf_openResult(&status);
    return U_FAILURE(status) ? NULL : result;
}

int32_t icu_baseline_format(void *formatter, void *result, const char *decimal, int32_t length,
                            uint16_t *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    unumf_formatDecimal((const UNumberFormatter *)formatter, decimal, length, (UFormattedNumber *)result, &status);
    int32_t written = unumf_resultToString((const UFormattedNumber *)result, (UChar *)out, capacity, &status);
    return U_FAILURE(status) ? -1 : written;
}

void icu_baseline_close(void *formatter) { unumf_close((UNumberFormatter *)formatter); }
void icu_baseline_close_result(void *result) { unumf_closeResult((UFormattedNumber *)result); }
