// The number formatter functions `cicu.h` declares.
//
// A formatter is ICU's C API formatter (`unumf`) by default. ICU builds such a formatter's own data
// on its third format, after formatting two numbers from scratch, so a formatter used once or
// twice stays small. A bulk run instead builds every formatter it uses before rendering, one
// at a time, since ICU reads locale data under process-wide locks (about 130 times per build in
// ICU 72); for that, a formatter can be opened to build its data on its first format, which only
// ICU's C++ API offers (`threshold(1)`): it builds in half the time, and each format then costs
// a result allocation.
// Output is the same: `FormatterKindsTests` compares the two kinds in every storefront's price
// locale and display, and `Scripts/check-against-icu.sh` checks the default one against ICU.
#include "cicu.h"

#include <unicode/numberformatter.h>
#include <unicode/uformattedvalue.h>
#include <unicode/unistr.h>
#include <unicode/unumberformatter.h>
#include <unicode/utypes.h>

#include <new>
#include <utility>

using icu::number::FormattedNumber;
using icu::number::LocalizedNumberFormatter;
using icu::number::NumberFormatter;
using icu::number::UnlocalizedNumberFormatter;

struct cicu_formatter {
    // Exactly one of the two: the C API's formatter, or one that builds on its first format.
    UNumberFormatter *formatter = nullptr;
    LocalizedNumberFormatter *buildsAtOnce = nullptr;
};

struct cicu_result {
    UFormattedNumber *number = nullptr;
    FormattedNumber builtAtOnceNumber;
    // Which of the two the last format filled.
    bool lastBuiltAtOnce = false;
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

LocalizedNumberFormatter *openBuildingAtOnce(const cicu_char *skeleton, int32_t skeletonLength, const char *locale,
                                             UErrorCode *status) {
    icu::UnicodeString text(skeletonLength < 0, reinterpret_cast<const UChar *>(skeleton), skeletonLength);
    UnlocalizedNumberFormatter unlocalized = NumberFormatter::forSkeleton(text, *status);
    if (U_FAILURE(*status)) { return nullptr; }
    // ICU's own operator new (UMemory) returns null when memory runs out.
    LocalizedNumberFormatter *opened =
        new LocalizedNumberFormatter(buildOnFirstUse(std::move(unlocalized), 0).locale(icu::Locale(locale)));
    if (opened == nullptr) { *status = U_MEMORY_ALLOCATION_ERROR; }
    return opened;
}

} // namespace

extern "C" {

cicu_formatter *cicu_openFormatter(const cicu_char *skeleton, int32_t skeletonLength, const char *locale,
                                   cicu_bool buildAtOnce, cicu_status *statusCode) {
    UErrorCode *status = reinterpret_cast<UErrorCode *>(statusCode);
    if (U_FAILURE(*status)) { return nullptr; }
    cicu_formatter *opened = new (std::nothrow) cicu_formatter{};
    if (opened == nullptr) {
        *status = U_MEMORY_ALLOCATION_ERROR;
        return nullptr;
    }
    if (buildAtOnce) {
        opened->buildsAtOnce = openBuildingAtOnce(skeleton, skeletonLength, locale, status);
    } else {
        opened->formatter =
            unumf_openForSkeletonAndLocale(reinterpret_cast<const UChar *>(skeleton), skeletonLength, locale, status);
    }
    if (U_FAILURE(*status)) {
        cicu_closeFormatter(opened);
        return nullptr;
    }
    return opened;
}

void cicu_closeFormatter(cicu_formatter *formatter) {
    if (formatter == nullptr) { return; }
    unumf_close(formatter->formatter);
    delete formatter->buildsAtOnce;
    delete formatter;
}

cicu_result *cicu_openResult(cicu_status *statusCode) {
    UErrorCode *status = reinterpret_cast<UErrorCode *>(statusCode);
    cicu_result *result = new (std::nothrow) cicu_result{};
    if (result == nullptr) {
        *status = U_MEMORY_ALLOCATION_ERROR;
        return nullptr;
    }
    result->number = unumf_openResult(status);
    if (U_FAILURE(*status)) {
        cicu_closeResult(result);
        return nullptr;
    }
    return result;
}

void cicu_closeResult(cicu_result *result) {
    if (result == nullptr) { return; }
    unumf_closeResult(result->number);
    delete result;
}

void cicu_formatDecimal(const cicu_formatter *formatter, const char *value, int32_t valueLength,
                        cicu_result *result, cicu_status *statusCode) {
    UErrorCode *status = reinterpret_cast<UErrorCode *>(statusCode);
    if (U_FAILURE(*status)) { return; }
    result->lastBuiltAtOnce = formatter->buildsAtOnce != nullptr;
    if (result->lastBuiltAtOnce) {
        result->builtAtOnceNumber = formatter->buildsAtOnce->formatDecimal(icu::StringPiece(value, valueLength), *status);
    } else {
        unumf_formatDecimal(formatter->formatter, value, valueLength, result->number, status);
    }
}

const cicu_char *cicu_resultString(const cicu_result *result, int32_t *length, cicu_status *statusCode) {
    UErrorCode *status = reinterpret_cast<UErrorCode *>(statusCode);
    if (U_FAILURE(*status)) { return nullptr; }
    if (!result->lastBuiltAtOnce) {
        const UFormattedValue *value = unumf_resultAsValue(result->number, status);
        if (U_FAILURE(*status)) { return nullptr; }
        return reinterpret_cast<const cicu_char *>(ufmtval_getString(value, length, status));
    }
    // A read-only alias of the result's own buffer: no copy.
    icu::UnicodeString text = result->builtAtOnceNumber.toTempString(*status);
    if (U_FAILURE(*status)) { return nullptr; }
    *length = text.length();
    return reinterpret_cast<const cicu_char *>(text.getBuffer());
}

} // extern "C"
