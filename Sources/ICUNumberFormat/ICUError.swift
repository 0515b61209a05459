// ICU's C headers must not reach modules that also use Foundation: on Linux,
// Foundation carries its own ICU headers and clang rejects the two definitions of
// every ICU type. An implementation-only import keeps CICU out of this module's
// interface; no public or stored type here comes from CICU.
@_implementationOnly import CICU

/// A failure status reported by ICU.
///
/// ICU reports errors as `UErrorCode` values; warnings (negative codes) count as
/// success and never become an ``ICUError``.
public struct ICUError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The raw `UErrorCode` value.
    public var code: Int32

    public init(code: Int32) {
        self.code = code
    }

    init(_ status: UErrorCode) {
        self.code = status.rawValue
    }

    /// ICU's symbolic name for the code, such as `U_ILLEGAL_ARGUMENT_ERROR`.
    public var name: String {
        String(cString: cicu_errorName(UErrorCode(rawValue: code)))
    }

    public var description: String { name }

    /// Throws when `status` is a failure; warnings are success.
    @inline(__always)
    static func check(_ status: UErrorCode) throws(ICUError) {
        if status.rawValue > U_ZERO_ERROR.rawValue {
            throw ICUError(status)
        }
    }
}
