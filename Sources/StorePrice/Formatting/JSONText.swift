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

extension JSONText {
    /// How deep a JSON file is read: `JSONDecoder` stops at 512 levels with words of its own.
    static let maximumDepth = 512

    /// Why bytes are not JSON as StorePrice reads it, before a parser sees them, in the same words
    /// for every JSON format it reads: text in another encoding than UTF-8 (JSON exchanged
    /// between systems is UTF-8, RFC 8259 8.1; some decoders would read UTF-16, others show its
    /// NULs), nesting deeper than ``maximumDepth``, or an unpaired surrogate escape.
    static func problem(in bytes: [UInt8]) -> String? {
        encodingProblem(in: bytes) ?? depthProblem(in: bytes) ?? unpairedSurrogateProblem(in: String(decoding: bytes, as: UTF8.self))
    }

    /// Why bytes are not UTF-8 JSON text, from their first four bytes: UTF-16 or UTF-32.
    static func encodingProblem(in bytes: [UInt8]) -> String? {
        otherEncoding(bytes).map { name, iconv in
            "this is \(name) text, not UTF-8; JSON is read as UTF-8 (RFC 8259): convert it, such as with iconv -f \(iconv) -t UTF-8"
        }
    }

    /// Why JSON text is not read, when it nests deeper than ``maximumDepth``: a scan of every
    /// byte, for a reader to make when its parser has refused the text.
    static func depthProblem(in bytes: [UInt8]) -> String? {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > maximumDepth {
                    return "nested more than \(maximumDepth) levels deep, deeper than a JSON file is read; no StorePrice file nests so"
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return nil
    }

    /// The encoding bytes are in when it is UTF-16 or UTF-32, by a byte-order mark or by the NULs
    /// that ASCII text has in them: its name, and iconv's.
    private static func otherEncoding(_ bytes: [UInt8]) -> (String, String)? {
        let head = Array(bytes.prefix(4)) + [UInt8](repeating: 1, count: max(0, 4 - bytes.count))
        switch (head[0], head[1], head[2], head[3]) {
        case (0xFF, 0xFE, 0, 0), (1...255, 0, 0, 0): return ("UTF-32 (little-endian)", "UTF-32LE")
        case (0, 0, 0xFE, 0xFF), (0, 0, 0, 1...255): return ("UTF-32 (big-endian)", "UTF-32BE")
        case (0xFF, 0xFE, _, _), (1...255, 0, _, _): return ("UTF-16 (little-endian)", "UTF-16LE")
        case (0xFE, 0xFF, _, _), (0, 1...255, _, _): return ("UTF-16 (big-endian)", "UTF-16BE")
        default: return nil
        }
    }

    /// Why JSON text is not Unicode, when it spells a `\uD800`–`\uDFFF` escape that is not half
    /// of a surrogate pair: `'\ud800' is not valid Unicode: …`. JSON text may spell one, but it
    /// is no character, and decoders then report the field as missing or not a string.
    static func unpairedSurrogateProblem(in text: String) -> String? {
        unpairedSurrogateEscape(in: text).map { "'\($0)' is not valid Unicode: a surrogate escape without its pair" }
    }

    /// The first unpaired surrogate escape, as written (`\ud800`).
    private static func unpairedSurrogateEscape(in text: String) -> String? {
        let bytes = Array(text.utf8)
        func hex(at index: Int) -> UInt32? {
            guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                return nil
            }
            return UInt32(String(decoding: bytes[(index + 2)..<(index + 6)], as: UTF8.self), radix: 16)
        }
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                index += 1
                continue
            }
            guard let value = hex(at: index) else {
                index += 2  // an escape of one character, such as \\ or \"
                continue
            }
            if (0xD800...0xDBFF).contains(value), let next = hex(at: index + 6), (0xDC00...0xDFFF).contains(next) {
                index += 12
                continue
            }
            if (0xD800...0xDFFF).contains(value) {
                return String(decoding: bytes[index..<(index + 6)], as: UTF8.self)
            }
            index += 6
        }
        return nil
    }
}
