// The plain C + ICU program that `storeprice render` is measured against: a CSV catalog
// (product,storefront,price, each product's rows together) in, every product rendered for
// every target, JSON Lines or CSV out, byte-identical to storeprice's output for the benchmark
// catalog. Single-threaded and written for speed, as a careful C programmer would:
//
// - the catalog is mapped into memory and split with memchr;
// - storefront codes map to targets through a 26^3 table;
// - each distinct (target, amount) is formatted once with unumf, and the whole row after the
//   product ID is kept in an arena and copied for every row that needs it;
// - rows are written through one 4 MiB buffer.
//
// It checks nothing StorePrice checks (amount syntax, UTF-8, duplicates, field counts, line
// lengths): it is the floor for the work, not a replacement.
#include "icu_baseline.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unicode/unumberformatter.h>
#include <unicode/ustring.h>

enum { OUT_SIZE = 4 << 20, TABLE_SIZE = 1 << 18 };

typedef struct {
    uint64_t key0, key1;  // amount bytes, zero-padded (the benchmark's amounts are at most 16 bytes)
    uint32_t tag;         // (target + 1) << 8 | length; 0 = empty
    uint32_t length;
    uint64_t offset;      // into the arena
} Entry;

typedef struct {
    int fd;
    char *buffer;
    size_t used;
    int failed;
} Output;

static void out_flush(Output *out) {
    size_t done = 0;
    while (done < out->used) {
        ssize_t n = write(out->fd, out->buffer + done, out->used - done);
        if (n < 0) { out->failed = 1; break; }
        done += (size_t)n;
    }
    out->used = 0;
}

static inline void out_append(Output *out, const char *bytes, size_t length) {
    if (out->used + length > OUT_SIZE) out_flush(out);
    memcpy(out->buffer + out->used, bytes, length);
    out->used += length;
}

static inline uint64_t mix(uint64_t a, uint64_t b, uint32_t tag) {
    uint64_t x = (a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full) ^ tag;
    return (x ^ (x >> 29)) * 0xBF58476D1CE4E5B9ull >> 32;
}

int icu_baseline_render_csv(const char *catalog_path, int target_count, const char *const *alpha3s,
                            const char *const *locales, const char *const *currencies, int csv, int out_fd) {
    int fd = open(catalog_path, O_RDONLY);
    if (fd < 0) return -1;
    struct stat info;
    if (fstat(fd, &info) != 0) { close(fd); return -1; }
    size_t size = (size_t)info.st_size;
    const char *data = size ? mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
    close(fd);
    if (size && data == MAP_FAILED) return -1;

    // Targets: a formatter and the fixed part of the row per target.
    int16_t by_code[26 * 26 * 26];
    memset(by_code, 0xFF, sizeof by_code);
    UNumberFormatter **formatters = calloc((size_t)target_count, sizeof *formatters);
    char **fixed = calloc((size_t)target_count, sizeof *fixed);
    size_t *fixed_length = calloc((size_t)target_count, sizeof *fixed_length);
    UErrorCode status = U_ZERO_ERROR;
    UFormattedNumber *result = unumf_openResult(&status);
    for (int t = 0; t < target_count; t++) {
        const char *c = alpha3s[t];
        by_code[(c[0] - 'A') * 676 + (c[1] - 'A') * 26 + (c[2] - 'A')] = (int16_t)t;
        char skeleton8[96];
        snprintf(skeleton8, sizeof skeleton8, "currency/%s unit-width-short rounding-mode-unnecessary", currencies[t]);
        UChar skeleton[96];
        u_uastrcpy(skeleton, skeleton8);
        formatters[t] = unumf_openForSkeletonAndLocale(skeleton, -1, locales[t], &status);
        fixed[t] = malloc(256);
        fixed_length[t] = (size_t)(csv ? snprintf(fixed[t], 256, ",%s,,%s,", c, locales[t])
                                       : snprintf(fixed[t], 256,
                                                  ",\"storefront\":\"%s\",\"account\":null,\"price_locale\":\"%s\",\"amount\":\"",
                                                  c, locales[t]));
    }
    if (U_FAILURE(status)) return -1;
    static const char json_suffix[] =
        ",\"title\":null,\"period\":null,\"price_per_period\":null,\"offer\":null,\"offer_terms\":null,"
        "\"offers\":null,\"billing_plans\":null,\"paywall\":null}\n";
    static const char csv_suffix[] = ",,,,,,,,\n";
    const char *suffix = csv ? csv_suffix : json_suffix;
    size_t suffix_length = strlen(suffix);

    Entry *table = calloc(TABLE_SIZE, sizeof *table);
    size_t arena_capacity = 16 << 20, arena_used = 0;
    char *arena = malloc(arena_capacity);
    Output out = {out_fd, malloc(OUT_SIZE), 0, 0};

    // The current product's amount per target, and which product set it.
    const char **amount = calloc((size_t)target_count, sizeof *amount);
    size_t *amount_length = calloc((size_t)target_count, sizeof *amount_length);
    int *owner = calloc((size_t)target_count, sizeof *owner);
    int product = 0;
    const char *id = NULL;
    size_t id_length = 0;

    const char *p = data, *end = data + size;
    const char *header_end = size ? memchr(p, '\n', size) : NULL;
    p = header_end ? header_end + 1 : end;
    UChar text16[256];
    char text8[512];

    for (;;) {
        const char *line_end = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
        int at_end = line_end == NULL;
        const char *c1 = NULL, *c2 = NULL;
        if (!at_end) {
            c1 = memchr(p, ',', (size_t)(line_end - p));
            c2 = c1 ? memchr(c1 + 1, ',', (size_t)(line_end - c1 - 1)) : NULL;
        }
        int new_product = at_end || !id || (size_t)(c1 - p) != id_length || memcmp(p, id, id_length) != 0;
        if (new_product && id) {
            // Write the finished product's rows, in target order.
            char head[512];
            size_t head_length = 0;
            if (csv) {
                memcpy(head, id, id_length);
                head_length = id_length;
            } else {
                memcpy(head, "{\"product\":\"", 12);
                memcpy(head + 12, id, id_length);
                head[12 + id_length] = '"';
                head_length = 13 + id_length;
            }
            for (int t = 0; t < target_count; t++) {
                if (owner[t] != product) continue;
                uint64_t k[2] = {0, 0};
                memcpy(k, amount[t], amount_length[t] < 16 ? amount_length[t] : 16);
                uint32_t tag = (uint32_t)(t + 1) << 8 | (uint32_t)amount_length[t];
                size_t slot = mix(k[0], k[1], tag) & (TABLE_SIZE - 1);
                while (table[slot].tag && !(table[slot].tag == tag && table[slot].key0 == k[0] && table[slot].key1 == k[1]))
                    slot = (slot + 1) & (TABLE_SIZE - 1);
                Entry *entry = &table[slot];
                if (!entry->tag) {
                    // First sight: format with ICU and keep the whole row after the product ID.
                    unumf_formatDecimal(formatters[t], amount[t], (int32_t)amount_length[t], result, &status);
                    int32_t length16 = unumf_resultToString(result, text16, 256, &status);
                    int32_t length8 = 0;
                    u_strToUTF8(text8, sizeof text8, &length8, text16, length16, &status);
                    if (U_FAILURE(status)) return -1;
                    size_t need = fixed_length[t] + amount_length[t] + length8 + suffix_length + 32;
                    if (arena_used + need > arena_capacity) {
                        arena_capacity *= 2;
                        arena = realloc(arena, arena_capacity);
                    }
                    char *w = arena + arena_used;
                    memcpy(w, fixed[t], fixed_length[t]);
                    w += fixed_length[t];
                    memcpy(w, amount[t], amount_length[t]);
                    w += amount_length[t];
                    if (csv) {
                        *w++ = ',';
                        int quote = memchr(text8, ',', (size_t)length8) || memchr(text8, '"', (size_t)length8);
                        if (quote) *w++ = '"';
                        memcpy(w, text8, (size_t)length8);
                        w += length8;
                        if (quote) *w++ = '"';
                    } else {
                        memcpy(w, "\",\"formatted\":\"", 15);
                        w += 15;
                        memcpy(w, text8, (size_t)length8);
                        w += length8;
                        *w++ = '"';
                    }
                    memcpy(w, suffix, suffix_length);
                    w += suffix_length;
                    entry->key0 = k[0];
                    entry->key1 = k[1];
                    entry->tag = tag;
                    entry->offset = arena_used;
                    entry->length = (uint32_t)(w - (arena + arena_used));
                    arena_used += entry->length;
                }
                out_append(&out, head, head_length);
                out_append(&out, arena + entry->offset, entry->length);
            }
        }
        if (at_end) break;
        if (new_product) {
            product++;
            id = p;
            id_length = (size_t)(c1 - p);
        }
        if (!c1 || !c2) {  // not a catalog row: skipped, this program checks nothing
            p = line_end + 1;
            continue;
        }
        const char *code = c1 + 1;
        int t = by_code[(code[0] - 'A') * 676 + (code[1] - 'A') * 26 + (code[2] - 'A')];
        if (t >= 0) {
            owner[t] = product;
            amount[t] = c2 + 1;
            amount_length[t] = (size_t)(line_end - c2 - 1);
        }
        p = line_end + 1;
    }
    out_flush(&out);
    if (size) munmap((void *)data, size);
    for (int t = 0; t < target_count; t++) { unumf_close(formatters[t]); free(fixed[t]); }
    unumf_closeResult(result);
    free(formatters); free(fixed); free(fixed_length); free(table); free(arena); free(out.buffer);
    free(amount); free(amount_length); free(owner);
    return out.failed ? -1 : 0;
}
