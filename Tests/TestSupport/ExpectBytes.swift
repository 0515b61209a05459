public import Testing
import StorePrice

/// Expects two strings to be the same bytes, printing both with invisible characters escaped.
///
/// `#expect(a == b)` would print `1 234,50 €` for both sides of a U+00A0/U+202F mismatch;
/// this prints `1\u{202F}234,50\u{00A0}€`.
public func expectBytes(
    _ actual: String,
    _ expected: String,
    _ context: @autoclosure () -> String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard Array(actual.utf8) != Array(expected.utf8) else { return }
    let prefix = context().isEmpty ? "" : context() + ": "
    Issue.record(
        "\(prefix)got \"\(escaped(actual))\", expected \"\(escaped(expected))\"",
        sourceLocation: sourceLocation)
}

/// The text with every non-ASCII or control character written as `\u{XXXX}`.
public func escaped(_ text: String) -> String {
    UnicodeEscaping.escapeNonASCII(text)
}
