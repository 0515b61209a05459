/// Finds a key that appears twice in one JSON object.
///
/// JSON decoders keep one of the two values without a word, so `{"USA":"1","USA":"2"}` would
/// quietly be one price. The scan is one pass over text that has already decoded as JSON, with an
/// explicit stack, so nesting depth costs no recursion.
enum JSONDuplicateKeys {
    private enum Frame {
        /// An object: its keys so far are `keys[depth]`, the key being read `current`.
        case object(current: String?)
        case array(index: Int)
    }

    /// Why a repeated key is refused, for a field already named: `appears twice in one object; …`.
    static let reason = "appears twice in one object; JSON readers keep only one of the two"

    /// The same, naming the key's path, for messages that name no field.
    static func reason(naming path: String) -> String {
        "the key '\(path.escapedForMessage)' \(reason)"
    }

    /// The path of the first repeated key, such as `prices.USA` or `promotional_offers[0].id`, or
    /// nil when every object's keys are distinct.
    static func firstRepeatedKey(in text: String) -> String? {
        scan(text).repeated
    }

    /// The first repeated key's path, and the keys of the outermost object in order.
    static func scan(_ text: String) -> (repeated: String?, topLevelKeys: [String]) {
        var text = text
        return text.withUTF8 { scan($0) }
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (repeated: String?, topLevelKeys: [String]) {
        var topLevelKeys: [String] = []
        var stack: [Frame] = []
        // Each open object's keys, by depth among open objects; kept apart from the stack so
        // that a key is inserted in place, not into a copy.
        var keys: [Set<String>] = []
        var expectingKey = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                stack.append(.object(current: nil))
                keys.append([])
                expectingKey = true
            case UInt8(ascii: "["):
                stack.append(.array(index: 0))
                expectingKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if case .object? = stack.popLast() { keys.removeLast() }
                expectingKey = false
            case UInt8(ascii: ","):
                switch stack.last {
                case .array(let position)?: stack[stack.count - 1] = .array(index: position + 1)
                case .object?: expectingKey = true
                case nil: break
                }
            case UInt8(ascii: ":"):
                expectingKey = false
            case UInt8(ascii: "\""):
                guard expectingKey, case .object? = stack.last else {
                    // A value: only its end matters.
                    index = stringEnd(bytes, from: index + 1)
                    break
                }
                let (string, end) = decodeString(bytes, from: index + 1)
                index = end
                guard keys[keys.count - 1].insert(string).inserted else { return (path(stack, last: string), topLevelKeys) }
                stack[stack.count - 1] = .object(current: string)
                if stack.count == 1 { topLevelKeys.append(string) }
            default:
                break
            }
            index += 1
        }
        return (nil, topLevelKeys)
    }

    /// The index of a string's closing quote, from after its opening quote.
    private static func stringEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        return min(index, bytes.count)
    }

    private static func path(_ stack: [Frame], last: String) -> String {
        var path = ""
        for frame in stack.dropLast() {
            switch frame {
            case .object(let current?): path += (path.isEmpty ? "" : ".") + current
            case .object: break
            case .array(let position): path += "[\(position)]"
            }
        }
        return path.isEmpty ? last : path + "." + last
    }

    /// A JSON string's value from after its opening quote; returns it and the index of its
    /// closing quote. Escapes are decoded, so `"a"` and `"\u0061"` are the same key.
    private static func decodeString(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (String, Int) {
        // Most keys have no escape: their bytes are their text.
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
        if end == bytes.count || bytes[end] == UInt8(ascii: "\"") {
            return (String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self), end)
        }
        var scalars = String.UnicodeScalarView()
        var raw: [UInt8] = []
        var index = start
        func flushRaw() {
            scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
            raw.removeAll()
        }
        func hex(at position: Int) -> UInt32? {
            guard position + 4 <= bytes.count else { return nil }
            return UInt32(String(decoding: bytes[position..<(position + 4)], as: UTF8.self), radix: 16)
        }
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            guard bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                raw.append(bytes[index])
                index += 1
                continue
            }
            flushRaw()
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "u"):
                guard var value = hex(at: index) else { continue }
                index += 4
                // A surrogate pair is one scalar.
                if (0xD800..<0xDC00).contains(value), index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u"), let low = hex(at: index + 2), (0xDC00..<0xE000).contains(low)
                {
                    value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                }
                scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            default: scalars.append(Unicode.Scalar(escape))
            }
        }
        flushRaw()
        return (String(scalars), index)
    }
}
