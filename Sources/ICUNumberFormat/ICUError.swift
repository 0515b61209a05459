// CICU declares ICU in plain C types only, so this module and its clients may also import
// Foundation, whose own copy of ICU's headers would clash with the system's.
import CICU

/// A failure status reported by ICU.
///
/// ICU reports errors as `cicu_status` values; warnings (negative codes) count as
/// success and never become an ``ICUError``.
public struct ICUError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The raw `cicu_status` value.
    public var code: Int32

    public init(code: Int32) {
        self.code = code
    }

    init(_ status: cicu_status) {
        self.code = status
    }

    /// ICU's symbolic name for the code, such as `CICU_ILLEGAL_ARGUMENT_ERROR`.
    public var name: String {
        String(cString: cicu_errorName(code))
    }

    public var description: String { name }

    /// Throws when `status` is a failure; warnings are success.
    @inline(__always)
    static func check(_ status: cicu_status) throws(ICUError) {
        if status > CICU_ZERO_ERROR {
            throw ICUError(status)
        }
    }
}
