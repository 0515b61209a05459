#ifndef STOREPRICE_CICU_H
#define STOREPRICE_CICU_H

// The system ICU, as StorePrice uses it, in plain C types.
//
// Only the functions StorePrice calls are here, and no ICU type crosses this header: status codes
// are `int32_t` with ICU's values, UTF-16 text is `uint16_t`, and formatters, results and
// enumerations are opaque. So Swift modules that import this one can also import Foundation,
// which carries its own, different copy of ICU's headers, and no `@_implementationOnly` import
// is needed to keep the two apart.

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// An ICU status code (`UErrorCode`): 0 is success, negative values are warnings, positive
/// values are errors.
typedef int32_t cicu_status;
/// A UTF-16 code unit (`UChar`).
typedef uint16_t cicu_char;
/// ICU's boolean (`UBool`).
typedef int8_t cicu_bool;
/// An ICU number formatter, immutable and thread-safe once opened.
typedef struct cicu_formatter cicu_formatter;
/// A formatted number, from either kind of formatter; one per thread.
typedef struct cicu_result cicu_result;
/// An enumeration of strings (`UEnumeration`).
typedef struct cicu_enumeration cicu_enumeration;

/// ICU's status codes that StorePrice names; `cicu.c` checks they equal ICU's.
static const cicu_status CICU_ZERO_ERROR = 0;
static const cicu_status CICU_ILLEGAL_ARGUMENT_ERROR = 1;
static const cicu_status CICU_MISSING_RESOURCE_ERROR = 2;
static const cicu_status CICU_INTERNAL_PROGRAM_ERROR = 5;
static const cicu_status CICU_MEMORY_ALLOCATION_ERROR = 7;
static const cicu_status CICU_BUFFER_OVERFLOW_ERROR = 15;

/// The longest ICU locale ID, with its keywords (`ULOC_FULLNAME_CAPACITY`).
static const int32_t CICU_FULLNAME_CAPACITY = 157;

// MARK: Errors and versions

/// The symbolic name of an ICU status code (`U_ILLEGAL_ARGUMENT_ERROR`).
const char *cicu_errorName(cicu_status code);

/// The ICU library version, e.g. {72, 1, 0, 0}, into four bytes.
void cicu_getVersion(uint8_t *version);

/// The CLDR version of the ICU data, e.g. {42, 0, 0, 0}, into four bytes.
void cicu_getCLDRVersion(uint8_t *version, cicu_status *status);

// MARK: Locales

/// Converts a BCP 47 tag (`ja-JP-u-cu-jpy`) to an ICU locale ID (`ja_JP@currency=jpy`).
int32_t cicu_forLanguageTag(const char *tag, char *localeID, int32_t capacity, int32_t *parsedLength,
                            cicu_status *status);

/// The number of locales ICU has data for.
int32_t cicu_countAvailable(void);

/// The ID of the `n`th locale ICU has data for (`zh_Hant_TW`).
const char *cicu_getAvailable(int32_t n);

/// The default currency of a locale's region (`ja_JP` gives `JPY`).
int32_t cicu_currencyForLocale(const char *locale, cicu_char *buffer, int32_t capacity, cicu_status *status);

/// Adds the likely script and region to a locale ID (`zh_CN` gives `zh_Hans_CN`).
int32_t cicu_addLikelySubtags(const char *locale, char *maximized, int32_t capacity, cicu_status *status);

/// Whether a locale's language is written right to left (`ar`, `he`, `fa`, `ur`).
cicu_bool cicu_isRightToLeft(const char *locale);

// MARK: Regions

/// Whether ICU knows `code` as a region: a territory (`JP`) or a UN M.49 area (`419`, `150`).
cicu_bool cicu_isKnownRegion(const char *code);

// MARK: Currencies

/// Opens an enumeration of every ISO 4217 code ICU has data for, past and present.
cicu_enumeration *cicu_openISOCurrencies(cicu_status *status);

/// Opens an enumeration of the ISO 4217 codes ICU classes as uncommon: funds codes, units of
/// account, precious metals, the testing code XTS and XXX, "no currency".
cicu_enumeration *cicu_openUncommonISOCurrencies(cicu_status *status);

const char *cicu_enumNext(cicu_enumeration *enumeration, int32_t *length, cicu_status *status);

void cicu_enumClose(cicu_enumeration *enumeration);

/// The number of fraction digits a currency uses in prices (JPY 0, USD 2, KWD 3).
int32_t cicu_currencyFractionDigits(const cicu_char *currency, cicu_status *status);

// MARK: Number formatting (cicu_number.cpp)

/// Opens a thread-safe formatter for a skeleton (`currency/JPY unit-width-short`) and locale. ICU
/// builds its data on its third format, or on its first when `buildAtOnce` (in half the time of
/// the three, for formatters that will format many numbers; each format then allocates).
cicu_formatter *cicu_openFormatter(const cicu_char *skeleton, int32_t skeletonLength, const char *locale,
                                   cicu_bool buildAtOnce, cicu_status *status);

void cicu_closeFormatter(cicu_formatter *formatter);

/// Opens a result object; it is not thread-safe, so each thread needs its own.
cicu_result *cicu_openResult(cicu_status *status);

void cicu_closeResult(cicu_result *result);

/// Formats a decimal number given as ASCII text (`-1234.5`), exactly, into `result`.
void cicu_formatDecimal(const cicu_formatter *formatter, const char *value, int32_t valueLength,
                        cicu_result *result, cicu_status *status);

/// The UTF-16 text of a formatted result, without copying; valid until `result` changes.
const cicu_char *cicu_resultString(const cicu_result *result, int32_t *length, cicu_status *status);

// MARK: Unit data (ures)

/// Looks up the string at `table/group/key/field` (such as `units/duration/month/per`) in ICU's
/// unit data for a locale, following the locale's fallback chain (ending at root only when
/// `includeRoot`), and copies it into `dest` as UTF-16; returns its length. `*status` is
/// CICU_MISSING_RESOURCE_ERROR when no searched locale has the string.
int32_t cicu_unitString(const char *localeID, const char *table, const char *group, const char *key,
                        const char *field, cicu_bool includeRoot, cicu_char *dest, int32_t capacity,
                        cicu_status *status);

// MARK: Messages (cicu_message.cpp)

/// An ICU MessageFormat pattern for a locale, parsed: `{count, plural, one {# month} other {# months}}`.
typedef struct cicu_message cicu_message;

/// The kinds of a parsed pattern's parts (`UMessagePatternPartType`) that StorePrice reads;
/// `cicu_message.cpp` checks they equal ICU's.
static const int32_t CICU_PART_ARG_START = 5;
static const int32_t CICU_PART_ARG_LIMIT = 6;
static const int32_t CICU_PART_ARG_NUMBER = 7;
static const int32_t CICU_PART_ARG_NAME = 8;
static const int32_t CICU_PART_ARG_TYPE = 9;
static const int32_t CICU_PART_ARG_STYLE = 10;
static const int32_t CICU_PART_ARG_SELECTOR = 11;
/// The kinds of argument (`UMessagePatternArgType`), an `ARG_START` part's value.
static const int32_t CICU_ARG_NONE = 0;
static const int32_t CICU_ARG_SIMPLE = 1;
static const int32_t CICU_ARG_CHOICE = 2;
static const int32_t CICU_ARG_PLURAL = 3;
static const int32_t CICU_ARG_SELECT = 4;
static const int32_t CICU_ARG_SELECTORDINAL = 5;

/// Parses a MessageFormat pattern for a locale. On a syntax error, returns null with `*status`
/// set and `*errorOffset` at the UTF-16 offset where parsing failed.
cicu_message *cicu_openMessage(const cicu_char *pattern, int32_t length, const char *locale, int32_t *errorOffset,
                               cicu_status *status);

void cicu_closeMessage(cicu_message *message);

/// How many parts the parsed pattern has (ICU's `MessagePattern`).
int32_t cicu_messagePartCount(const cicu_message *message);

/// The `i`th part: its type, where it is in the pattern (UTF-16 index and length), and its value
/// (an argument's kind for `CICU_PART_ARG_START`).
void cicu_messagePart(const cicu_message *message, int32_t i, int32_t *type, int32_t *index, int32_t *length,
                      int32_t *value);

/// Formats a parsed message with named arguments, each either UTF-16 text or, where `numbers[i]`
/// is not null, an exact decimal number in ASCII (`76`, `0.5`), which `plural` and `#` use.
/// A message is not thread-safe: one thread at a time formats it.
int32_t cicu_formatMessage(const cicu_message *message, int32_t count, const cicu_char *const *names,
                           const int32_t *nameLengths, const cicu_char *const *texts, const int32_t *textLengths,
                           const char *const *numbers, cicu_char *dest, int32_t capacity, cicu_status *status);

// MARK: Plural rules, text direction and dates

/// CLDR's plural category (`one`, `few`, `other`) for each integer from 0 up to `count - 1`, in a
/// locale's cardinal rules (or ordinal, for `selectordinal`), each written in 8 bytes of `keywords`.
void cicu_pluralCategories(const char *locale, cicu_bool ordinal, int32_t count, char *keywords,
                           cicu_status *status);

/// A code point's bidi class (`UCharDirection`): 0 left to right, 1 right to left, 13 Arabic
/// letter, others weak or neutral.
int32_t cicu_charDirection(int32_t codePoint);

/// A string from ICU's language data for a locale, following its fallback chain:
/// `localeDisplayPattern/pattern` is `{0} ({1})` in English, `{0}（{1}）` in Chinese.
int32_t cicu_langString(const char *localeID, const char *table, const char *field, cicu_char *dest,
                        int32_t capacity, cicu_status *status);

/// The date `amount` days, weeks, months or years (`unit` 0 to 3) after `startMillis` (ms since
/// 1970 UTC), in the proleptic Gregorian calendar and time zone `zone` (`UTC`, `Asia/Tokyo`), formatted for
/// a locale with the pattern ICU's generator gives for `skeleton` (`yMMMd`).
int32_t cicu_formatDateAfter(const char *locale, const char *zone, double startMillis, int32_t unit, int32_t amount,
                             const cicu_char *skeleton, int32_t skeletonLength, cicu_char *dest, int32_t capacity,
                             cicu_status *status);

// MARK: Legacy number formatting (unum), for tests only

/// Formats a decimal with ICU's older NumberFormat C API: a currency format for a locale that
/// names its currency (`de_CH@currency=CHF`), with the locale's own minimum grouping digits.
int32_t cicu_legacyCurrencyFormat(const char *localeID, const char *decimal, cicu_char *dest, int32_t capacity,
                                  cicu_status *status);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // STOREPRICE_CICU_H
