import ICUNumberFormat

/// The versions of StorePrice and of the ICU and CLDR data it formats with.
///
/// Formatted prices depend on all three: record them next to any stored output.
public enum VersionInfo {
    /// StorePrice's own version.
    public static let current = "0.1.0"
    /// The ICU library in use, such as `72.1`.
    public static var icu: String { ICU.version }
    /// The CLDR version of ICU's data, such as `42.0`.
    public static var cldr: String { ICU.cldrVersion }
}
