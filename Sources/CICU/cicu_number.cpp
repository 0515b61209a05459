// The number formatter functions `cicu.h` declares, on ICU's C++ number API.
//
// ICU's C API (`unumf`) wraps the same `LocalizedNumberFormatter`, with one difference that
// matters to bulk output: a new formatter formats its first two numbers from scratch, loading its
// locale data each time, and builds its own data on the third call. Through C++ it can build on
// the first (`threshold(1)`), which halves the cost of starting a formatter; a bulk run starts
// one per storefront, one at a time, since ICU loads locale data under one process-wide lock.
// Output is the same: `Scripts/check-against-icu.sh` compares it with the C API's (`icu-oracle`).
#include "cicu.h"

#include <unicode/numberformatter.h>
#include <unicode/unistr.h>
#include <unicode/utypes.h>

#include <new>
#include <utility>

using icu::number::FormattedNumber;
using icu::number::LocalizedNumberFormatter;
using icu::number::NumberFormatter;
using icu::number::UnlocalizedNumberFormatter;

struct cicu_formatter {
    LocalizedNumberFormatter formatter;
};

struct cicu_result {
    FormattedNumber number;
};

namespace {

// `threshold` is ICU's internal API (since ICU 60), hidden when U_HIDE_INTERNAL_API is defined;
// where it is missing, the formatter keeps ICU's default and only starts slower.
template <typename Formatter>
auto buildOnFirstUse(Formatter &&formatter, int) -> decltype(std::move(formatter).threshold(1)) {
    return std::move(formatter).threshold(1);
}

template <typename Formatter>
Formatter buildOnFirstUse(Formatter &&formatter, long) {
    return std::move(formatter);
}

} // namespace

extern "C" {

cicu_formatter *cicu_openFormatter(const cicu_char *skeleton, int32_t skeletonLength, const char *locale,
                                   cicu_status *statusCode) {
    UErrorCode *status = reinterpret_cast<UErrorCode *>(statusCode);
    if (U_FAILURE(*status)) { return nullptr; }
    icu::UnicodeString text(skeletonLength < 0, reinterpret_cast<const UChar *>(skeleton), skeletonLength);
    UnlocalizedNumberFormatter unlocalized = NumberFormatter::forSkeleton(text, *status);
    if (U_FAILURE(*status)) { return nullptr; }
    cicu_formatter *opened = new (std::nothrow)
        cicu_formatter{buildOnFirstUse(std::move(unlocalized), 0).locale(icu::Locale(locale))};
    if (opened == nullptr) { *status = U_MEMORY_ALLOCATION_ERROR; }
    return opened;
}

void cicu_closeFormatter(cicu_formatter *formatter) { delete formatter; }

cicu_result *cicu_openResult(cicu_status *statusCode) {
    cicu_result *result = new (std::nothrow) cicu_result{};
    if (result == nullptr) { *statusCode = U_MEMORY_ALLOCATION_ERROR; }
    return result;
}

void cicu_closeResult(cicu_result *result) { delete result; }

void cicu_formatDecimal(const cicu_formatter *formatter, const char *value, int32_t valueLength,
                        cicu_result *result, cicu_status *statusCode) {
    UErrorCode *status = reinterpret_cast<UErrorCode *>(statusCode);
    if (U_FAILURE(*status)) { return; }
    result->number = formatter->formatter.formatDecimal(icu::StringPiece(value, valueLength), *status);
}

const cicu_char *cicu_resultString(const cicu_result *result, int32_t *length, cicu_status *statusCode) {
    UErrorCode *status = reinterpret_cast<UErrorCode *>(statusCode);
    if (U_FAILURE(*status)) { return nullptr; }
    // A read-only alias of the result's own buffer: no copy.
    icu::UnicodeString text = result->number.toTempString(*status);
    if (U_FAILURE(*status)) { return nullptr; }
    *length = text.length();
    return reinterpret_cast<const cicu_char *>(text.getBuffer());
}

} // extern "C"
