/// Encoded bytes that never move, and how many there are.
///
/// Sendable notes: the bytes are written before a part is made and never change while it is used.
struct EncodedPart: @unchecked Sendable {
    var start: UnsafePointer<UInt8>
    var count: Int
}

/// Bytes copied into slabs that never move, so that an ``EncodedPart`` stays valid until
/// ``removeAll()`` or the slabs go.
final class ByteSlabs {
    static let slabSize = 256 << 10
    private var slabs: [UnsafeMutablePointer<UInt8>] = []
    private var used = ByteSlabs.slabSize
    /// Bytes allocated for slabs.
    private(set) var byteCount = 0

    deinit {
        for slab in slabs { slab.deallocate() }
    }

    /// A copy of `bytes`; nil for no bytes.
    func copy(_ bytes: UnsafeBufferPointer<UInt8>) -> EncodedPart? {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return nil }
        if bytes.count > Self.slabSize {
            // A part longer than a slab (a very long account name) gets one of its own.
            let own = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
            own.update(from: source, count: bytes.count)
            slabs.insert(own, at: max(0, slabs.count - 1))
            byteCount += bytes.count
            return EncodedPart(start: own, count: bytes.count)
        }
        if used + bytes.count > Self.slabSize {
            slabs.append(.allocate(capacity: Self.slabSize))
            byteCount += Self.slabSize
            used = 0
        }
        guard let slab = slabs.last else { return nil }
        (slab + used).update(from: source, count: bytes.count)
        defer { used += bytes.count }
        return EncodedPart(start: slab + used, count: bytes.count)
    }

    /// Frees every slab.
    func removeAll() {
        for slab in slabs { slab.deallocate() }
        slabs.removeAll()
        used = Self.slabSize
        byteCount = 0
    }
}
