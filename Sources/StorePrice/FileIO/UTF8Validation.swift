/// Whether bytes are well-formed UTF-8, as `String(validating:as:)` decides, without making a
/// `String`: ASCII is passed eight bytes at a time, and each other sequence is checked against
/// Unicode's table of well-formed byte sequences (no overlong forms, no surrogates, nothing past
/// U+10FFFF).
enum UTF8Validation {
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        let raw = UnsafeRawPointer(base)
        var index = 0
        @inline(__always) func continuation(_ offset: Int) -> Bool {
            base[index &+ offset] & 0xC0 == 0x80
        }
        while index < count {
            if index &+ 8 <= count, raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index &+= 8
                continue
            }
            let lead = base[index]
            switch lead {
            case 0x00...0x7F:
                index &+= 1
            case 0xC2...0xDF:
                guard index &+ 1 < count, continuation(1) else { return false }
                index &+= 2
            case 0xE0...0xEF:
                guard index &+ 2 < count else { return false }
                let second = base[index &+ 1]
                let low: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
                let high: UInt8 = lead == 0xED ? 0x9F : 0xBF
                guard second >= low, second <= high, continuation(2) else { return false }
                index &+= 3
            case 0xF0...0xF4:
                guard index &+ 3 < count else { return false }
                let second = base[index &+ 1]
                let low: UInt8 = lead == 0xF0 ? 0x90 : 0x80
                let high: UInt8 = lead == 0xF4 ? 0x8F : 0xBF
                guard second >= low, second <= high, continuation(2), continuation(3) else { return false }
                index &+= 4
            default:
                return false
            }
        }
        return true
    }
}
