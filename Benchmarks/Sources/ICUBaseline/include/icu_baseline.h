#ifndef STOREPRICE_ICU_BASELINE_H
#define STOREPRICE_ICU_BASELINE_H

// ICU's number formatter called from C with no wrapper: the cost any ICU-based price
// formatter pays at least. Only plain C types cross this header, so a Swift module can
// import it beside Foundation (whose own ICU headers would clash with the system's).

#include <stdint.h>

/// Opens a UNumberFormatter for a skeleton and locale; NULL on failure.
void *icu_baseline_open(const char *skeleton, const char *locale);

/// Formats decimal text and reads the UTF-16 result into `out`; returns its length, or -1.
int32_t icu_baseline_format(void *formatter, void *result, const char *decimal, int32_t length,
                            uint16_t *out, int32_t capacity);

/// Opens a result object (not thread-safe: one per thread).
void *icu_baseline_open_result(void);

/// Renders a CSV catalog (product,storefront,price) for every target, as `storeprice render`
/// does, into `out_fd`: JSON Lines, or CSV when `csv` is nonzero (without the header line).
/// Target `i` has an upper-case alpha-3 code, a price locale and an ISO 4217 currency. Returns 0,
/// or -1 on failure.
int icu_baseline_render_csv(const char *catalog_path, int target_count, const char *const *alpha3s,
                            const char *const *locales, const char *const *currencies, int csv, int out_fd);

void icu_baseline_close(void *formatter);
void icu_baseline_close_result(void *result);

#endif
