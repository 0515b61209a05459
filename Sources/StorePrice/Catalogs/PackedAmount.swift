/// Short amount text as one integer: up to 8 ASCII bytes, little-endian. Nonzero for any
/// amount (digits are never NUL); 0 means "longer than 8 bytes".
enum PackedAmount {
    static func pack(_ amount: String) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for byte in amount.utf8 {
            guard shift < 64 else { return 0 }
            value |= UInt64(byte) << shift
            shift += 8
        }
        return value
    }

    /// The text of a packed amount (nonzero).
    static func unpack(_ value: UInt64) -> String {
        var bytes = value.littleEndian
        let length = 8 - value.leadingZeroBitCount / 8
        return withUnsafeBytes(of: &bytes) { raw in
            String(decoding: UnsafeRawBufferPointer(rebasing: raw.prefix(length)), as: UTF8.self)
        }
    }
}
