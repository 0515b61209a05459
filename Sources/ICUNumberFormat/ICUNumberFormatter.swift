// CICU declares ICU in plain C types only, so this module and its clients may also import
// Foundation, whose own copy of ICU's headers would clash with the system's.
import CICU


/// An ICU number formatter for one skeleton and locale.
///
/// ```swift
/// let formatter = try ICUNumberFormatter(skeleton: "currency/JPY", locale: "ja_JP")
/// try formatter.format(decimal: "1200")  // "￥1,200"
/// ```
///
/// Sendable notes: ICU's formatters are immutable after they are opened and ICU documents them as
/// thread-safe. Results are not, and any formatter can fill any result, so
/// each thread formats into its own result (``ThreadResult``), kept until the thread exits.
public final class ICUNumberFormatter: @unchecked Sendable {
    /// The skeleton the formatter was opened with.
    public let skeleton: String
    /// The ICU locale ID the formatter was opened with.
    public let locale: String
    /// Whether ICU builds the formatter's data on its first format rather than its third.
    public let buildsAtOnce: Bool

    private let formatter: OpaquePointer

    /// Opens a formatter for a number skeleton such as `currency/EUR unit-width-iso-code`.
    ///
    /// ICU formats a new formatter's first two numbers from scratch, loading locale data each
    /// time, and builds the formatter's own data on the third, so a formatter used once stays
    /// small. With `buildsAtOnce`, it builds on the first: in half the time of those three
    /// formats, for a formatter that will format many numbers; each format then costs ICU a
    /// result allocation (about 25 ns).
    ///
    /// - Parameters:
    ///   - skeleton: an ICU number skeleton.
    ///   - locale: an ICU locale ID such as `de_CH` or `ja_JP@currency=JPY`.
    ///   - buildsAtOnce: whether ICU builds the formatter's data on its first format.
    /// - Throws: ``ICUError`` when ICU rejects the skeleton.
    public init(skeleton: String, locale: String, buildsAtOnce: Bool = false) throws(ICUError) {
        let utf16 = Array(skeleton.utf16)
        var status = CICU_ZERO_ERROR
        let opened = cicu_openFormatter(utf16, Int32(utf16.count), locale, buildsAtOnce ? 1 : 0, &status)
        guard let opened, status <= CICU_ZERO_ERROR else {
            if let opened { cicu_closeFormatter(opened) }
            throw ICUError(status > 0 ? status : CICU_INTERNAL_PROGRAM_ERROR)
        }
        self.formatter = opened
        self.skeleton = skeleton
        self.locale = locale
        self.buildsAtOnce = buildsAtOnce
    }

    deinit {
        cicu_closeFormatter(formatter)
    }

    /// Has ICU build the formatter's data now, rather than on its first uses.
    ///
    /// ICU reads locale data under locks of the whole process, about 130 times per build (ICU 72;
    /// most often the lock under which it counts references to its resource bundles). Threads
    /// that start using many new formatters at once wait on each other there: build formatters
    /// with this, one thread at a time. Costs one format with ``buildsAtOnce``, three without.
    public func compile() {
        let zero: [UInt8] = [UInt8(ascii: "0")]
        for _ in 0..<(buildsAtOnce ? 1 : 3) {
            // A failure here is met, and reported, at the first real format.
            _ = zero.withUnsafeBufferPointer { digits in try? format(decimalUTF8: digits) { $0.count } }
        }
    }

    /// Formats a decimal number given as text (`-1234.5`), exactly.
    ///
    /// - Parameter decimal: ASCII decimal text: an optional `-`, digits, an optional `.` and digits.
    /// - Returns: ICU's output, byte for byte.
    public func format(decimal: String) throws(ICUError) -> String {
        var text = decimal
        let result = text.withUTF8 { bytes in
            Result { () throws(ICUError) -> String in
                try format(decimalUTF8: bytes) { utf8 in String(decoding: utf8, as: UTF8.self) }
            }
        }
        return try result.get()
    }

    /// Formats a decimal number given as ASCII text and passes ICU's output, as UTF-8, to `body`.
    ///
    /// The buffer is valid only inside `body`. This is the allocation-free path for bulk output.
    public func format<R>(
        decimalUTF8 decimal: UnsafeBufferPointer<UInt8>,
        _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) throws(ICUError) -> R {
        try withFormattedUTF16(decimalUTF8: decimal) { utf16 in UTF8Transcoding.withUTF8(utf16, body) }
    }

    /// Formats decimal text and passes ICU's own UTF-16 result, valid only inside `body`.
    private func withFormattedUTF16<R>(
        decimalUTF8 decimal: UnsafeBufferPointer<UInt8>,
        _ body: (UnsafeBufferPointer<UInt16>) -> R
    ) throws(ICUError) -> R {
        let result = try ThreadResult.current()
        var status = CICU_ZERO_ERROR
        decimal.withMemoryRebound(to: CChar.self) { chars in
            cicu_formatDecimal(formatter, chars.baseAddress, Int32(chars.count), result, &status)
        }
        try ICUError.check(status)

        var length: Int32 = 0
        guard let utf16 = cicu_resultString(result, &length, &status) else {
            throw ICUError(status > 0 ? status : CICU_INTERNAL_PROGRAM_ERROR)
        }
        try ICUError.check(status)
        return body(UnsafeBufferPointer(start: utf16, count: Int(length)))
    }
}
