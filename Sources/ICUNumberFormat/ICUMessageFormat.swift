// CICU declares ICU in plain C types only, so this module and its clients may also import
// Foundation, whose own copy of ICU's headers would clash with the system's.
import CICU
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An ICU MessageFormat pattern, parsed for a locale, that formats with named arguments:
/// `{count, plural, one {# month} other {# months}}`.
///
/// ```swift
/// let message = try ICUMessageFormat(pattern: "{count, plural, one {# месяц} few {# месяца} other {# месяцев}}", locale: "ru")
/// try message.format(["count": .number("3")])   // "3 месяца"
/// ```
///
/// The pattern is parsed by ICU's own `MessagePattern`, and formatted by ICU's `MessageFormat`,
/// so what ``arguments`` lists is what ICU formats. Sendable notes: ICU's `MessageFormat` makes
/// some of its formatters on first use, so formats take a lock.
public final class ICUMessageFormat: @unchecked Sendable {
    /// An argument the pattern uses, such as `{price}` or `{count, plural, …}`.
    public struct Argument: Hashable, Sendable {
        /// How an argument is used.
        public enum Kind: Hashable, Sendable {
            /// `{name}`: the value is written as it is.
            case none
            /// `{name, number}`, `{name, date, short}`: ICU formats the value with the named type.
            case simple(String)
            /// `{name, choice, …}`, ICU's deprecated choice format.
            case choice
            /// `{name, plural, …}`, by the language's cardinal plural rules.
            case plural
            /// `{name, select, …}`, by the value's text.
            case select
            /// `{name, selectordinal, …}`, by the language's ordinal plural rules.
            case selectOrdinal
        }

        /// The argument's name (or number, as text).
        public let name: String
        /// How the pattern uses it.
        public let kind: Kind
        /// The cases of a `plural`, `select` or `selectordinal` argument, as written (`one`, `=0`).
        public let selectors: [String]
        /// A simple argument's style, as written (`percent` in `{n, number, percent}`); empty without one.
        public let style: String
    }

    /// The pattern.
    public let pattern: String
    /// The ICU locale ID the pattern is formatted for.
    public let locale: String
    /// Every argument the pattern uses, in the order they appear, nested ones included.
    public let arguments: [Argument]

    private let message: OpaquePointer
    private let lock: UnsafeMutablePointer<pthread_mutex_t>

    /// A syntax error in a pattern, or a pattern past a limit.
    public struct SyntaxError: Error, Hashable, Sendable {
        /// ICU's status code.
        public let icu: ICUError
        /// Where parsing failed, in characters from the start of the pattern, when ICU says.
        public let offset: Int?
        /// Which limit the pattern passes, when it was refused before ICU read it.
        public let limit: String?

        init(icu: ICUError, offset: Int?, limit: String? = nil) {
            self.icu = icu
            self.offset = offset
            self.limit = limit
        }
    }

    /// The longest pattern read, in UTF-16 code units: a paywall line is far shorter.
    public static let maximumLength = 16_384
    /// The deepest nesting of braces read; ICU parses nested arguments recursively, and runs out
    /// of stack some thousands of levels down.
    public static let maximumNesting = 64

    /// Parses a pattern for a locale.
    ///
    /// - Throws: ``SyntaxError`` when ICU cannot parse the pattern.
    public init(pattern: String, locale: String) throws(SyntaxError) {
        let utf16 = Array(pattern.utf16)
        guard utf16.count <= Self.maximumLength else {
            throw SyntaxError(
                icu: ICUError(CICU_ILLEGAL_ARGUMENT_ERROR), offset: nil,
                limit: "longer than \(Self.maximumLength) characters")
        }
        var depth = 0
        for unit in utf16 {
            if unit == 0x7B { depth += 1 } else if unit == 0x7D { depth -= 1 }  // { and }
            if depth > Self.maximumNesting {
                throw SyntaxError(
                    icu: ICUError(CICU_ILLEGAL_ARGUMENT_ERROR), offset: nil,
                    limit: "braces nested more than \(Self.maximumNesting) deep")
            }
        }
        var status = CICU_ZERO_ERROR
        var errorOffset: Int32 = -1
        let opened = utf16.withUnsafeBufferPointer {
            cicu_openMessage($0.baseAddress, Int32($0.count), locale, &errorOffset, &status)
        }
        guard let opened, status <= CICU_ZERO_ERROR else {
            if let opened { cicu_closeMessage(opened) }
            let offset = errorOffset >= 0 && Int(errorOffset) <= utf16.count
                ? String(decoding: utf16[..<Int(errorOffset)], as: UTF16.self).count : nil
            throw SyntaxError(icu: ICUError(status > 0 ? status : CICU_INTERNAL_PROGRAM_ERROR), offset: offset)
        }
        self.pattern = pattern
        self.locale = locale
        self.arguments = Self.arguments(of: opened, in: utf16)
        self.message = opened
        self.lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
    }

    deinit {
        cicu_closeMessage(message)
        pthread_mutex_destroy(lock)
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    /// A value for an argument.
    public enum Value: Hashable, Sendable {
        /// Text, written as it is.
        case text(String)
        /// An exact decimal number in ASCII (`3`, `76`, `0.5`), for `plural`, `selectordinal`,
        /// `number` and `#`.
        case number(String)
    }

    /// Formats the pattern with named values.
    ///
    /// - Throws: ``ICUError`` when ICU cannot format a value as the pattern asks.
    public func format(_ values: [String: Value]) throws(ICUError) -> String {
        let entries = values.sorted { $0.key < $1.key }
        let names = entries.map { Array($0.key.utf16) }
        let texts = entries.map { entry -> [UInt16] in
            if case .text(let text) = entry.value { return Array(text.utf16) }
            return []
        }
        let numbers = entries.map { entry -> [CChar]? in
            if case .number(let number) = entry.value { return Array(number.utf8CString) }
            return nil
        }
        var capacity = 256
        for _ in 0..<2 {
            var buffer = [UInt16](repeating: 0, count: capacity)
            var status = CICU_ZERO_ERROR
            let length = withPointers(names) { namePointers in
                withPointers(texts) { textPointers in
                    withOptionalPointers(numbers) { numberPointers in
                        pthread_mutex_lock(lock)
                        defer { pthread_mutex_unlock(lock) }
                        return cicu_formatMessage(
                            message, Int32(entries.count), namePointers, names.map { Int32($0.count) },
                            textPointers, texts.map { Int32($0.count) }, numberPointers, &buffer, Int32(capacity),
                            &status)
                    }
                }
            }
            if status == CICU_BUFFER_OVERFLOW_ERROR, Int(length) > capacity {
                capacity = Int(length)
                continue
            }
            try ICUError.check(status)
            return String(decoding: buffer[..<min(Int(length), capacity)], as: UTF16.self)
        }
        throw ICUError(CICU_INTERNAL_PROGRAM_ERROR)
    }

    private static func arguments(of message: OpaquePointer, in pattern: [UInt16]) -> [Argument] {
        struct Open {
            var type: Int32
            var name = ""
            var simpleType = ""
            var style = ""
            var selectors: [String] = []
        }
        func text(_ index: Int32, _ length: Int32) -> String {
            let start = max(0, min(Int(index), pattern.count))
            return String(decoding: pattern[start..<min(pattern.count, start + Int(length))], as: UTF16.self)
        }
        var arguments: [Argument] = []
        var slots: [Int] = []
        var open: [Open] = []
        for i in 0..<cicu_messagePartCount(message) {
            var type: Int32 = 0, index: Int32 = 0, length: Int32 = 0, value: Int32 = 0
            cicu_messagePart(message, i, &type, &index, &length, &value)
            switch type {
            case CICU_PART_ARG_START:
                open.append(Open(type: value))
                // Listed where the argument starts, filled in where it ends.
                slots.append(arguments.count)
                arguments.append(Argument(name: "", kind: .none, selectors: [], style: ""))
            case CICU_PART_ARG_NAME, CICU_PART_ARG_NUMBER:
                if open.last?.name.isEmpty == true { open[open.count - 1].name = text(index, length) }
            case CICU_PART_ARG_TYPE:
                if !open.isEmpty { open[open.count - 1].simpleType = text(index, length) }
            case CICU_PART_ARG_STYLE:
                if !open.isEmpty { open[open.count - 1].style = text(index, length) }
            case CICU_PART_ARG_SELECTOR:
                if !open.isEmpty { open[open.count - 1].selectors.append(text(index, length)) }
            case CICU_PART_ARG_LIMIT:
                guard let done = open.popLast(), let slot = slots.popLast() else { break }
                let kind: Argument.Kind
                switch done.type {
                case CICU_ARG_SIMPLE: kind = .simple(done.simpleType)
                case CICU_ARG_CHOICE: kind = .choice
                case CICU_ARG_PLURAL: kind = .plural
                case CICU_ARG_SELECT: kind = .select
                case CICU_ARG_SELECTORDINAL: kind = .selectOrdinal
                default: kind = .none
                }
                arguments[slot] = Argument(name: done.name, kind: kind, selectors: done.selectors, style: done.style)
            default:
                break
            }
        }
        return arguments
    }
}

private func withPointers<R>(_ arrays: [[UInt16]], _ body: ([UnsafePointer<UInt16>?]) -> R) -> R {
    var pointers: [UnsafePointer<UInt16>?] = []
    func next(_ index: Int) -> R {
        guard index < arrays.count else { return body(pointers) }
        return arrays[index].withUnsafeBufferPointer { buffer in
            pointers.append(buffer.baseAddress)
            return next(index + 1)
        }
    }
    return next(0)
}

private func withOptionalPointers<R>(_ arrays: [[CChar]?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    var pointers: [UnsafePointer<CChar>?] = []
    func next(_ index: Int) -> R {
        guard index < arrays.count else { return body(pointers) }
        guard let array = arrays[index] else {
            pointers.append(nil)
            return next(index + 1)
        }
        return array.withUnsafeBufferPointer { buffer in
            pointers.append(buffer.baseAddress)
            return next(index + 1)
        }
    }
    return next(0)
}

extension ICU {
    /// The direction of a text's first strong character.
    public enum TextDirection: Hashable, Sendable {
        case leftToRight, rightToLeft, neutral
    }

    /// The direction of `text`'s first strong character outside isolates (U+2066…U+2069), by
    /// ICU's bidi classes, as the bidi algorithm's rule P2 finds a paragraph's.
    public static func baseDirection(of text: String) -> TextDirection {
        strongDirections(of: text).first
    }

    /// The direction of `text`'s first strong character outside isolates, and whether it has
    /// strong characters of either direction there.
    public static func strongDirections(of text: String) -> (first: TextDirection, leftToRight: Bool, rightToLeft: Bool) {
        var isolates = 0
        var first = TextDirection.neutral
        var leftToRight = false
        var rightToLeft = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x2066...0x2068:
                isolates += 1
            case 0x2069:
                isolates = max(0, isolates - 1)
            default:
                guard isolates == 0 else { continue }
                switch cicu_charDirection(Int32(scalar.value)) {
                case 0:
                    leftToRight = true
                    if first == .neutral { first = .leftToRight }
                case 1, 13:
                    rightToLeft = true
                    if first == .neutral { first = .rightToLeft }
                default:
                    continue
                }
            }
        }
        return (first, leftToRight, rightToLeft)
    }

    /// CLDR's plural category for each integer `0..<count` in a locale's cardinal (or ordinal)
    /// rules: `["many", "one", "few", …]` in Russian.
    public static func pluralCategories(locale: String, ordinal: Bool = false, count: Int) throws(ICUError) -> [String] {
        var keywords = [CChar](repeating: 0, count: 8 * count)
        var status = CICU_ZERO_ERROR
        cicu_pluralCategories(locale, ordinal ? 1 : 0, Int32(count), &keywords, &status)
        try ICUError.check(status)
        return (0..<count).map { n in
            String(decoding: keywords[(8 * n)..<(8 * n + 8)].prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// A string from ICU's language data: `langString(locale: "ja", table: "localeDisplayPattern",
    /// field: "pattern")` is `{0} ({1})`'s Japanese form.
    public static func langString(locale: String, table: String, field: String) -> String? {
        var buffer = [UInt16](repeating: 0, count: 128)
        var status = CICU_ZERO_ERROR
        let length = cicu_langString(locale, table, field, &buffer, 128, &status)
        guard status <= CICU_ZERO_ERROR, length >= 0, Int(length) <= 128 else { return nil }
        return String(decoding: buffer[..<Int(length)], as: UTF16.self)
    }

    /// The date `amount` days, weeks, months or years (`unit` 0 to 3) after `startMillis`, in the
    /// Gregorian calendar and time zone `zone`, written for a locale with the pattern ICU's
    /// pattern generator gives for `skeleton`, such as `yMMMd`.
    public static func formatDate(
        locale: String, zone: String, startMillis: Double, adding amount: Int, unit: Int, skeleton: String
    ) throws(ICUError) -> String {
        let utf16 = Array(skeleton.utf16)
        var buffer = [UInt16](repeating: 0, count: 128)
        var status = CICU_ZERO_ERROR
        let length = cicu_formatDateAfter(
            locale, zone, startMillis, Int32(unit), Int32(amount), utf16, Int32(utf16.count), &buffer, 128, &status)
        try ICUError.check(status)
        return String(decoding: buffer[..<min(Int(length), 128)], as: UTF16.self)
    }
}
