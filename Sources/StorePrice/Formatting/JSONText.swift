/// Writing JSON string literals by hand, for output whose bytes and key order are fixed.
package enum JSONText {
    /// Whether UTF-8 text goes between quotes as it is: no control character, quote or backslash.
    package static func isPlain(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }

    /// Appends `text` as a JSON string literal: its own bytes between quotes when it needs no
    /// escape (most text), else ``quote(_:)``, without building a string on the way.
    package static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        if text.withUTF8(isPlain) {
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: text.utf8)
            bytes.append(UInt8(ascii: "\""))
        } else {
            bytes.append(contentsOf: quote(text).utf8)
        }
    }

    /// A JSON string literal. Quotes, backslashes and control characters are escaped; everything
    /// else, including non-ASCII text, is written as UTF-8.
    package static func quote(_ text: String) -> String {
        // Most text needs no escape: copied whole.
        var text = text
        if text.withUTF8(isPlain) {
            return "\"" + text + "\""
        }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

extension ByteBuffer {
    /// Appends `text` as a JSON string literal, as ``JSONText/appendQuoted(_:to:)`` does.
    package mutating func appendJSONQuoted(_ text: String) {
        var text = text
        if text.withUTF8(JSONText.isPlain) {
            append(byte: UInt8(ascii: "\""))
            append(text)
            append(byte: UInt8(ascii: "\""))
        } else {
            append(JSONText.quote(text))
        }
    }
}
