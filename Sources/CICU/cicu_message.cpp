// The message functions `cicu.h` declares: ICU's own MessageFormat, which only ICU's C++ API
// offers with named arguments, and its pattern parser, so templates are read exactly as ICU
// formats them.
#include "cicu.h"

#include <unicode/fmtable.h>
#include <unicode/locid.h>
#include <unicode/messagepattern.h>
#include <unicode/msgfmt.h>
#include <unicode/parseerr.h>
#include <unicode/stringpiece.h>
#include <unicode/unistr.h>
#include <unicode/utypes.h>

#include <new>
#include <vector>

static_assert(UMSGPAT_PART_TYPE_ARG_START == CICU_PART_ARG_START && UMSGPAT_PART_TYPE_ARG_LIMIT == CICU_PART_ARG_LIMIT
                  && UMSGPAT_PART_TYPE_ARG_NAME == CICU_PART_ARG_NAME
                  && UMSGPAT_PART_TYPE_ARG_NUMBER == CICU_PART_ARG_NUMBER
                  && UMSGPAT_PART_TYPE_ARG_TYPE == CICU_PART_ARG_TYPE && UMSGPAT_PART_TYPE_ARG_STYLE == CICU_PART_ARG_STYLE
                  && UMSGPAT_PART_TYPE_ARG_SELECTOR == CICU_PART_ARG_SELECTOR,
              "ICU's part types as cicu.h names them");
static_assert(UMSGPAT_ARG_TYPE_NONE == CICU_ARG_NONE && UMSGPAT_ARG_TYPE_SIMPLE == CICU_ARG_SIMPLE
                  && UMSGPAT_ARG_TYPE_CHOICE == CICU_ARG_CHOICE && UMSGPAT_ARG_TYPE_PLURAL == CICU_ARG_PLURAL
                  && UMSGPAT_ARG_TYPE_SELECT == CICU_ARG_SELECT
                  && UMSGPAT_ARG_TYPE_SELECTORDINAL == CICU_ARG_SELECTORDINAL,
              "ICU's argument types as cicu.h names them");

struct cicu_message {
    icu::MessageFormat format;
    icu::MessagePattern pattern;

    cicu_message(const icu::UnicodeString &text, const icu::Locale &locale, UParseError &error, UErrorCode &status)
        : format(text, locale, error, status), pattern(status) {
        if (U_SUCCESS(status)) { pattern.parse(text, &error, status); }
    }
};

cicu_message *cicu_openMessage(const cicu_char *pattern, int32_t length, const char *locale, int32_t *errorOffset,
                               cicu_status *statusCode) {
    UErrorCode *status = reinterpret_cast<UErrorCode *>(statusCode);
    if (U_FAILURE(*status)) { return nullptr; }
    icu::UnicodeString text(length < 0, reinterpret_cast<const UChar *>(pattern), length);
    UParseError error{};
    error.offset = -1;
    auto *message = new (std::nothrow) cicu_message(text, icu::Locale(locale), error, *status);
    if (message == nullptr) {
        *status = U_MEMORY_ALLOCATION_ERROR;
        return nullptr;
    }
    if (U_FAILURE(*status)) {
        *errorOffset = error.offset;
        delete message;
        return nullptr;
    }
    return message;
}

void cicu_closeMessage(cicu_message *message) { delete message; }

int32_t cicu_messagePartCount(const cicu_message *message) { return message->pattern.countParts(); }

void cicu_messagePart(const cicu_message *message, int32_t i, int32_t *type, int32_t *index, int32_t *length,
                      int32_t *value) {
    const icu::MessagePattern::Part &part = message->pattern.getPart(i);
    *type = part.getType();
    *index = part.getIndex();
    *length = part.getLength();
    *value = part.getValue();
}

int32_t cicu_formatMessage(const cicu_message *message, int32_t count, const cicu_char *const *names,
                           const int32_t *nameLengths, const cicu_char *const *texts, const int32_t *textLengths,
                           const char *const *numbers, cicu_char *dest, int32_t capacity, cicu_status *statusCode) {
    UErrorCode *status = reinterpret_cast<UErrorCode *>(statusCode);
    if (U_FAILURE(*status)) { return 0; }
    std::vector<icu::UnicodeString> argumentNames;
    std::vector<icu::Formattable> arguments;
    argumentNames.reserve(count);
    arguments.reserve(count);
    for (int32_t i = 0; i < count; i++) {
        argumentNames.emplace_back(false, reinterpret_cast<const UChar *>(names[i]), nameLengths[i]);
        if (numbers[i] != nullptr) {
            // A decimal Formattable keeps every digit: plural rules see 1.50 as 1.50, not 1.5.
            arguments.emplace_back(icu::StringPiece(numbers[i]), *status);
            if (U_FAILURE(*status)) { return 0; }
        } else {
            arguments.emplace_back(
                icu::UnicodeString(false, reinterpret_cast<const UChar *>(texts[i]), textLengths[i]));
        }
    }
    icu::UnicodeString result;
    message->format.format(argumentNames.data(), arguments.data(), count, result, *status);
    if (U_FAILURE(*status)) { return 0; }
    return result.extract(reinterpret_cast<UChar *>(dest), capacity, *status);
}
