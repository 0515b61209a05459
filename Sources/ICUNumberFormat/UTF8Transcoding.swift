/// UTF-16 to UTF-8, into a temporary buffer.
///
/// ICU's formatted text is UTF-16; prices are short, so transcoding into a small
/// temporary buffer and handing out UTF-8 avoids building an intermediate string.
package enum UTF8Transcoding {
    package static func withUTF8<R>(
        _ utf16: UnsafeBufferPointer<UInt16>,
        _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) -> R {
        // Each UTF-16 code unit becomes at most three UTF-8 bytes. Allocated rather than with
        // `withUnsafeTemporaryAllocation`, which, unspecialized (the callers are in other
        // modules), built a `Result` through its generic metadata on each call: about 430
        // instructions, where a malloc and a free take about 200.
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(utf16.count * 3, 1))
        defer { buffer.deallocate() }
        let count = transcode(utf16, into: buffer)
        return body(UnsafeBufferPointer(rebasing: buffer[..<count]))
    }

    /// Writes the UTF-8 form of `utf16` into `buffer`, which holds three bytes per code unit,
    /// and returns the number of bytes written.
    private static func transcode(_ utf16: UnsafeBufferPointer<UInt16>, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        do {
            var out = 0
            var index = 0
            let count = utf16.count
            while index < count {
                let unit = UInt32(utf16[index])
                index += 1
                if unit < 0x80 {
                    buffer[out] = UInt8(truncatingIfNeeded: unit)
                    out += 1
                } else if unit < 0x800 {
                    buffer[out] = UInt8(truncatingIfNeeded: 0xC0 | (unit >> 6))
                    buffer[out + 1] = UInt8(truncatingIfNeeded: 0x80 | (unit & 0x3F))
                    out += 2
                } else if unit & 0xFC00 == 0xD800, index < count, UInt32(utf16[index]) & 0xFC00 == 0xDC00 {
                    let low = UInt32(utf16[index])
                    index += 1
                    let scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    buffer[out] = UInt8(truncatingIfNeeded: 0xF0 | (scalar >> 18))
                    buffer[out + 1] = UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 12) & 0x3F))
                    buffer[out + 2] = UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 6) & 0x3F))
                    buffer[out + 3] = UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F))
                    out += 4
                } else {
                    // A lone surrogate becomes U+FFFD, as String(decoding:as:) would do.
                    let scalar = unit & 0xF800 == 0xD800 ? 0xFFFD : unit
                    buffer[out] = UInt8(truncatingIfNeeded: 0xE0 | (scalar >> 12))
                    buffer[out + 1] = UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 6) & 0x3F))
                    buffer[out + 2] = UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F))
                    out += 3
                }
            }
            return out
        }
    }
}
