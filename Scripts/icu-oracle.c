// icu-oracle: ICU's own answer for a price, called the way a user's price locale is written.
//
// An independent check of `storeprice format --batch --rounding half-even`; it shares no code
// with StorePrice. It hands ICU each price locale as a user writes it, keyword included.
//
//   icu-oracle < GRID     reads PRICE_LOCALE<TAB>AMOUNT lines and writes
//                         PRICE_LOCALE<TAB>AMOUNT<TAB>FORMATTED, as storeprice does.
//                         The price locale goes to ICU exactly as written, `@currency=`
//                         keyword included (`pt_CV@currency=USD`); ICU itself reads the
//                         currency out of it (uloc_getKeywordValue) for the skeleton
//                         `currency/CODE unit-width-short rounding-mode-half-even`.
//   icu-oracle unum < GRID  the same through ICU's older API, unum_open(UNUM_CURRENCY, locale),
//                         which builds no skeleton and finds the currency in the keyword
//                         itself; its default rounding is half-even, and CLDR's minimum
//                         grouping digits are asked for, as unumf applies them.
//   icu-oracle locales    writes every locale ICU lists (uloc_getAvailable) that has a region
//                         and no variant, one a line, followed by a tab and the region's
//                         currency (ucurr_forLocale), or a tab alone when the region has none.
//
// Build: cc icu-oracle.c $(pkg-config --cflags --libs icu-i18n) -o icu-oracle

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/uloc.h>
#include <unicode/ucurr.h>
#include <unicode/unumberformatter.h>
#include <unicode/unum.h>
#include <unicode/ustring.h>

static int listLocales(void) {
    int32_t count = uloc_countAvailable();
    for (int32_t i = 0; i < count; i++) {
        const char *locale = uloc_getAvailable(i);
        char region[ULOC_COUNTRY_CAPACITY], variant[ULOC_FULLNAME_CAPACITY];
        UErrorCode status = U_ZERO_ERROR;
        int32_t regionLength = uloc_getCountry(locale, region, sizeof region, &status);
        int32_t variantLength = uloc_getVariant(locale, variant, sizeof variant, &status);
        if (U_FAILURE(status)) {
            fprintf(stderr, "icu-oracle: %s reading locale '%s'\n", u_errorName(status), locale);
            return 1;
        }
        if (regionLength == 0 || variantLength != 0) continue;
        UChar currency16[4] = {0};
        char currency[4] = {0};
        UErrorCode currencyStatus = U_ZERO_ERROR;
        int32_t currencyLength = ucurr_forLocale(locale, currency16, 4, &currencyStatus);
        if (U_SUCCESS(currencyStatus) && currencyLength == 3) u_austrncpy(currency, currency16, 3);
        printf("%s\t%s\n", locale, currency);
    }
    return 0;
}

/// ICU's older NumberFormat API, which takes the currency from the locale's keyword itself.
static int32_t formatWithUnum(const char *locale, const char *amount, UChar *text16, int32_t capacity,
                              UErrorCode *status) {
    UNumberFormat *format = unum_open(UNUM_CURRENCY, NULL, 0, locale, NULL, status);
    if (U_FAILURE(*status)) return 0;
    // unum's default ignores CLDR's minimum grouping digits (es_ES 1234,50 €); ask for CLDR's.
    unum_setAttribute(format, UNUM_MINIMUM_GROUPING_DIGITS, UNUM_MINIMUM_GROUPING_DIGITS_AUTO);
    int32_t length = unum_formatDecimal(format, amount, -1, text16, capacity, NULL, status);
    unum_close(format);
    return length;
}

static int formatLines(int useUnum) {
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        size_t n = strlen(line);
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
        char *tab = strchr(line, '\t');
        if (!tab) { fprintf(stderr, "icu-oracle: no tab in '%s'\n", line); return 2; }
        *tab = 0;
        const char *locale = line;
        const char *amount = tab + 1;

        UErrorCode status = U_ZERO_ERROR;
        char currency[ULOC_KEYWORD_AND_VALUES_CAPACITY];
        int32_t currencyLength = uloc_getKeywordValue(locale, "currency", currency, sizeof currency, &status);
        if (U_FAILURE(status) || currencyLength != 3) {
            fprintf(stderr, "icu-oracle: no three-letter currency keyword in '%s'\n", locale);
            return 2;
        }
        char skeleton8[128];
        snprintf(skeleton8, sizeof skeleton8, "currency/%s unit-width-short rounding-mode-half-even", currency);
        UChar skeleton[128];
        u_uastrcpy(skeleton, skeleton8);

        UChar text16[256];
        int32_t length16;
        UNumberFormatter *formatter = NULL;
        UFormattedNumber *result = NULL;
        if (useUnum) {
            length16 = formatWithUnum(locale, amount, text16, 256, &status);
        } else {
            formatter = unumf_openForSkeletonAndLocale(skeleton, -1, locale, &status);
            result = unumf_openResult(&status);
            unumf_formatDecimal(formatter, amount, -1, result, &status);
            length16 = unumf_resultToString(result, text16, 256, &status);
        }
        char text8[1024];
        int32_t length8 = 0;
        u_strToUTF8(text8, sizeof text8, &length8, text16, length16, &status);
        if (U_FAILURE(status)) {
            fprintf(stderr, "icu-oracle: %s for '%s' '%s'\n", u_errorName(status), locale, amount);
            return 1;
        }
        printf("%s\t%s\t%.*s\n", locale, amount, (int)length8, text8);
        if (result) unumf_closeResult(result);
        if (formatter) unumf_close(formatter);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "locales") == 0) return listLocales();
    if (argc == 1) return formatLines(0);
    if (argc == 2 && strcmp(argv[1], "unum") == 0) return formatLines(1);
    fprintf(stderr, "usage: icu-oracle [locales] (see the comment at the top of icu-oracle.c)\n");
    return 2;
}
