// c-render CATALOG.csv TARGETS.tsv [csv]: the C + ICU baseline of `storeprice render`, for
// timing and instruction counts from the command line. TARGETS.tsv has one target per line:
// ALPHA3<TAB>PRICE_LOCALE<TAB>CURRENCY, in output order; Scripts/bench-end-to-end.sh writes it
// from `storeprice storefronts --format csv`.
#include <icu_baseline.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: c-render CATALOG.csv TARGETS.tsv [csv]\n");
        return 64;
    }
    FILE *targets = fopen(argv[2], "r");
    if (!targets) { perror(argv[2]); return 66; }
    const char *alpha3s[512], *locales[512], *currencies[512];
    int count = 0;
    char line[512];
    while (count < 512 && fgets(line, sizeof line, targets)) {
        char *alpha3 = strtok(line, "\t\n"), *locale = strtok(NULL, "\t\n"), *currency = strtok(NULL, "\t\n");
        if (!alpha3 || !locale || !currency) continue;
        alpha3s[count] = strdup(alpha3);
        locales[count] = strdup(locale);
        currencies[count] = strdup(currency);
        count++;
    }
    fclose(targets);
    int csv = argc > 3 && strcmp(argv[3], "csv") == 0;
    if (csv) fputs("product,storefront,account,price_locale,amount,formatted,title,period,price_per_period,offer,offer_terms,offers,billing_plans,paywall\n", stdout);
    fflush(stdout);
    return icu_baseline_render_csv(argv[1], count, alpha3s, locales, currencies, csv, 1) == 0 ? 0 : 1;
}
