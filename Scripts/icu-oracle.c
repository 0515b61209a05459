// icu-oracle: formats PRICE_LOCALE<TAB>AMOUNT lines with ICU's unumf C API directly.
//
// An independent check of `storeprice format --batch`: it shares no code with StorePrice.
// Each line's price locale is split into its ICU locale and currency keyword by hand and
// formatted with the skeleton `currency/CODE unit-width-short rounding-mode-half-even`; the output
// is PRICE_LOCALE<TAB>AMOUNT<TAB>FORMATTED, as storeprice writes it with --rounding half-even.
//
// Build: cc icu-oracle.c $(pkg-config --cflags --libs icu-i18n) -o icu-oracle

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/unumberformatter.h>
#include <unicode/ustring.h>

int main(void) {
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        size_t n = strlen(line);
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
        char *tab = strchr(line, '\t');
        if (!tab) { fprintf(stderr, "icu-oracle: no tab in '%s'\n", line); return 2; }
        *tab = 0;
        const char *amount = tab + 1;
        char locale[512];
        snprintf(locale, sizeof locale, "%s", line);
        char *at = strstr(locale, "@currency=");
        if (!at) { fprintf(stderr, "icu-oracle: no currency in '%s'\n", line); return 2; }
        char currency[4] = {0};
        memcpy(currency, at + 10, 3);
        *at = 0;

        char skeleton8[128];
        snprintf(skeleton8, sizeof skeleton8, "currency/%s unit-width-short rounding-mode-half-even", currency);
        UChar skeleton[128];
        u_uastrcpy(skeleton, skeleton8);

        UErrorCode status = U_ZERO_ERROR;
        UNumberFormatter *formatter = unumf_openForSkeletonAndLocale(skeleton, -1, locale, &status);
        UFormattedNumber *result = unumf_openResult(&status);
        unumf_formatDecimal(formatter, amount, -1, result, &status);
        UChar text16[256];
        int32_t length16 = unumf_resultToString(result, text16, 256, &status);
        char text8[1024];
        int32_t length8 = 0;
        u_strToUTF8(text8, sizeof text8, &length8, text16, length16, &status);
        if (U_FAILURE(status)) {
            fprintf(stderr, "icu-oracle: %s for '%s' '%s'\n", u_errorName(status), line, amount);
            return 1;
        }
        printf("%s\t%s\t%.*s\n", line, amount, (int)length8, text8);
        unumf_closeResult(result);
        unumf_close(formatter);
    }
    return 0;
}
