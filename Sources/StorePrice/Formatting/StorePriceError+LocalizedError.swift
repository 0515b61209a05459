#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// `error.localizedDescription` is the error's own one-line message, as `description` is:
///
/// ```swift
/// do {
///     _ = try PriceLocale("xx_YY")
/// } catch {
///     print(error.localizedDescription)  // unsupported locale 'xx_YY': ICU has no locale data for language 'xx'
/// }
/// ```
extension StorePriceError: LocalizedError {
    public var errorDescription: String? { description }
}
