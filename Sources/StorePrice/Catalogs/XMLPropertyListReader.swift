/// Reads the product IDs of an XML property list: `<plist><array><string>…</string></array></plist>`.
///
/// A real reader of the XML, token by token (comments, processing instructions, the DOCTYPE,
/// CDATA, character references), with no recursion: a product list is one flat array, so any
/// element nested deeper is refused the moment it opens, however deep the file goes, and a tag
/// written inside a comment is not a tag.
enum XMLPropertyListReader {
    /// Why the bytes are not a flat XML property list of strings.
    struct Problem: Error {
        var reason: String
    }

    static func productIDs(_ bytes: [UInt8]) throws(Problem) -> [String] {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw Problem(reason: "not a valid XML property list: not UTF-8")
        }
        var reader = Cursor(bytes: bytes)
        var open: [String] = []  // the elements open, outermost first: at most plist, array, string
        var ids: [String] = []
        var text = ""
        var sawRoot = false
        if reader.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index += 3 }
        while !reader.atEnd {
            if reader.peek != UInt8(ascii: "<") {
                let chunk = try reader.characterData()
                if open.last == "string" {
                    text += chunk
                } else if chunk.contains(where: { !$0.isWhitespace }) {
                    throw reader.problem("text outside a <string>")
                }
                continue
            }
            if reader.skip("<?", until: "?>") || reader.skip("<!--", until: "-->") { continue }
            if reader.starts(with: Array("<!DOCTYPE".utf8)) {
                try reader.skipDoctype()
                continue
            }
            if reader.starts(with: Array("<![CDATA[".utf8)) {
                let content = try reader.cdata()
                guard open.last == "string" else { throw reader.problem("CDATA outside a <string>") }
                text += content
                continue
            }
            let tag = try reader.tag()
            if tag.closing {
                guard open.last == tag.name else {
                    throw reader.problem("</\(tag.name.escapedForMessage)> does not close <\((open.last ?? "nothing").escapedForMessage)>")
                }
                open.removeLast()
                if tag.name == "string" { ids.append(text) }
                continue
            }
            switch (open.last, tag.name) {
            case (nil, "plist"):
                guard !sawRoot else { throw reader.problem("a second <plist>") }
                sawRoot = true
            case (nil, _):
                throw reader.problem("the root element is <\(tag.name.escapedForMessage)>, not <plist>")
            case ("plist"?, "array"):
                break
            case ("plist"?, "dict"):
                throw Problem(reason: PropertyListShape.dictionary)
            case ("plist"?, let name):
                throw Problem(reason: "expected an array of product ID strings; the list is a <\(name.escapedForMessage)>")
            case ("array"?, "string"):
                text = ""
            case ("array"?, "array"), ("array"?, "dict"):
                throw Problem(reason: PropertyListShape.flatArray)
            case ("array"?, let name):
                throw Problem(reason: "expected product ID strings in the array; found <\(name.escapedForMessage)>")
            case (let parent?, let name):
                throw reader.problem("<\(name.escapedForMessage)> inside <\(parent.escapedForMessage)>")
            }
            if tag.selfClosing {
                if tag.name == "string" { ids.append("") }
            } else {
                open.append(tag.name)
            }
        }
        guard sawRoot, open.isEmpty else { throw Problem(reason: "not a complete XML property list; it ends early") }
        return ids
    }

    /// A position in the bytes, with the line it is on for messages.
    private struct Cursor {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool { index >= bytes.count }
        var peek: UInt8 { bytes[index] }

        func starts(with prefix: [UInt8]) -> Bool {
            index + prefix.count <= bytes.count && bytes[index..<(index + prefix.count)].elementsEqual(prefix)
        }

        func problem(_ what: String) -> Problem {
            let line = bytes[..<min(index, bytes.count)].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            return Problem(reason: "not a valid XML property list: \(what) (line \(line))")
        }

        /// Skips `open … close` when the bytes start with `open`; false otherwise.
        mutating func skip(_ open: String, until close: String) -> Bool {
            guard starts(with: Array(open.utf8)) else { return false }
            index += open.utf8.count
            let end = Array(close.utf8)
            while !atEnd, !starts(with: end) { index += 1 }
            index = min(bytes.count, index + end.count)
            return true
        }

        /// Skips `<!DOCTYPE …>`, including an internal subset in brackets.
        mutating func skipDoctype() throws(Problem) {
            var inSubset = false
            while !atEnd {
                switch peek {
                case UInt8(ascii: "["): inSubset = true
                case UInt8(ascii: "]"): inSubset = false
                case UInt8(ascii: ">") where !inSubset:
                    index += 1
                    return
                default: break
                }
                index += 1
            }
            throw problem("an unclosed DOCTYPE")
        }

        mutating func cdata() throws(Problem) -> String {
            index += "<![CDATA[".utf8.count
            let start = index
            while !atEnd, !starts(with: Array("]]>".utf8)) { index += 1 }
            guard !atEnd else { throw problem("an unclosed CDATA section") }
            let content = String(decoding: bytes[start..<index], as: UTF8.self)
            index += 3
            return content
        }

        /// Text up to the next `<`, with character and entity references replaced.
        mutating func characterData() throws(Problem) -> String {
            var out = ""
            var start = index
            while !atEnd, peek != UInt8(ascii: "<") {
                guard peek == UInt8(ascii: "&") else {
                    index += 1
                    continue
                }
                out += String(decoding: bytes[start..<index], as: UTF8.self)
                let nameStart = index + 1
                while !atEnd, peek != UInt8(ascii: ";"), index - nameStart < 12 { index += 1 }
                guard !atEnd, peek == UInt8(ascii: ";") else { throw problem("an unfinished '&' reference") }
                let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
                index += 1
                start = index
                switch name {
                case "amp": out += "&"
                case "lt": out += "<"
                case "gt": out += ">"
                case "quot": out += "\""
                case "apos": out += "'"
                default:
                    var value: UInt32?
                    if name.hasPrefix("#x") {
                        value = UInt32(name.dropFirst(2), radix: 16)
                    } else if name.hasPrefix("#") {
                        value = UInt32(name.dropFirst())
                    }
                    guard let value, let scalar = Unicode.Scalar(value) else { throw problem("an unknown reference '&\(name);'") }
                    out.unicodeScalars.append(scalar)
                }
            }
            out += String(decoding: bytes[start..<index], as: UTF8.self)
            return out
        }

        /// A start, end or empty-element tag at `<`.
        mutating func tag() throws(Problem) -> (name: String, closing: Bool, selfClosing: Bool) {
            index += 1
            let closing = !atEnd && peek == UInt8(ascii: "/")
            if closing { index += 1 }
            let nameStart = index
            while !atEnd, peek.isASCIILetter || peek.isASCIIDigit || peek == UInt8(ascii: "_") || peek == UInt8(ascii: "-") {
                index += 1
            }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            guard !atEnd else { throw Problem(reason: "not a complete XML property list; it ends early") }
            guard !name.isEmpty else { throw problem("a '<' that starts no tag") }
            // Attributes (plist version="1.0") are allowed and ignored; quotes may hold '>'.
            var quote: UInt8?
            while !atEnd {
                let byte = peek
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: ">") {
                    let selfClosing = index > nameStart && bytes[index - 1] == UInt8(ascii: "/")
                    index += 1
                    guard !(closing && selfClosing) else { throw problem("</\(name)/>") }
                    return (name, closing, selfClosing)
                }
                index += 1
            }
            throw problem("an unclosed <\(name)> tag")
        }
    }
}
