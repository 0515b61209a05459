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

    /// The text with what could act on a terminal or reorder the text around it written as
    /// `\u{XXXX}`: control characters (a newline that forges a line, ESC sequences that clear the
    /// screen or write the clipboard), line and paragraph separators, and the bidi embedding,
    /// override and isolate controls (U+202A–U+202E, U+2066–U+2069). Other text is unchanged,
    /// including the bidi marks ICU writes in right-to-left prices (U+200E, U+200F, U+061C).
    ///
    /// For catalog and snapshot text shown to a person: tables, notes and diffs.
    public static func escapeForTerminal(_ text: String) -> String {
        func acts(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: return true
            default: return (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
            }
        }
        guard text.unicodeScalars.contains(where: acts) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if acts(scalar) { out += scalar.escapedLiteral } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
