/// Writing formatted prices so that invisible characters can be read.
///
/// Formatted prices contain characters that look like plain spaces or nothing at all:
/// U+00A0 and U+202F spaces, U+2212 minus, bidi marks. Escaping shows them:
///
/// ```swift
/// UnicodeEscaping.escapeNonASCII("1.234,50\u{00A0}€")  // "1.234,50\\u{00A0}\\u{20AC}"
/// ```
public enum UnicodeEscaping {
    /// The text with every non-ASCII and every ASCII control character written as `\u{XXXX}`
    /// (upper-case hex, at least four digits); a backslash is written `\\`.
    public static func escapeNonASCII(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar == "\\" {
                out += "\\\\"
            } else if scalar.isASCII, scalar.value >= 0x20, scalar.value != 0x7F {
                out.unicodeScalars.append(scalar)
            } else {
                out += scalar.escapedLiteral
            }
        }
        return out
    }
}
