/// Writing RFC 4180 CSV cells, for output whose bytes are fixed.
package enum CSVText {
    /// A cell of text read from a file: quoted when it holds a comma, quote or line break, and,
    /// unless `raw`, with a `'` in front when it starts with `=`, `+`, `-`, `@` or a control
    /// character, which a spreadsheet would run as a formula (`=HYPERLINK(…)`, `@SUM(…)`).
    package static func cell(_ text: String, raw: Bool) -> String {
        let text = raw || !startsLikeAFormula(text) ? text : "'" + text
        guard needsQuotes(text.utf8) else { return text }
        var quoted = "\""
        for character in text.unicodeScalars {
            if character == "\"" { quoted += "\"\"" } else { quoted.unicodeScalars.append(character) }
        }
        return quoted + "\""
    }

    /// Appends UTF-8 text as a cell written exactly, formulas included: the bytes of
    /// `cell(_:raw: true)`, without building a string. A quote in UTF-8 is always the byte 0x22.
    package static func appendRawCell(_ utf8: UnsafeBufferPointer<UInt8>, to buffer: inout ByteBuffer) {
        guard needsQuotes(utf8) else { return buffer.append(utf8) }
        buffer.append(byte: UInt8(ascii: "\""))
        for byte in utf8 {
            if byte == UInt8(ascii: "\"") { buffer.append(byte: byte) }
            buffer.append(byte: byte)
        }
        buffer.append(byte: UInt8(ascii: "\""))
    }

    /// Whether a cell holds a comma, quote or line break, and so is written quoted.
    package static func needsQuotes(_ utf8: some Sequence<UInt8>) -> Bool {
        utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
    }

    /// Whether a spreadsheet would read the text as a formula: it starts with `=`, `+`, `-`,
    /// `@`, or a control character (C0, DEL or C1, such as a tab, a carriage return or U+009B).
    package static func startsLikeAFormula(_ text: String) -> Bool {
        var utf8 = text.utf8.makeIterator()
        return startsLikeAFormula(first: utf8.next(), second: utf8.next())
    }

    /// The same, from the first two bytes of UTF-8 text.
    package static func startsLikeAFormula(first: UInt8?, second: UInt8?) -> Bool {
        guard let first else { return false }
        if first == 0xC2, let second, (0x80...0x9F).contains(second) { return true }
        return first == UInt8(ascii: "=") || first == UInt8(ascii: "+") || first == UInt8(ascii: "-")
            || first == UInt8(ascii: "@") || first < 0x20 || first == 0x7F
    }
}
