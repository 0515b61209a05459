/// Records of bytes copied into slabs that never move, each valid until the slabs go: a record
/// is its length as an `Int`, then its bytes, at an address aligned for the `Int`.
///
/// One thread uses a set of slabs: its properties skip the dynamic exclusivity check a class's
/// stored properties otherwise pay on every access.
final class ByteSlabs {
    static let slabSize = 256 << 10
    @exclusivity(unchecked) private var slabs: [UnsafeMutableRawPointer] = []
    @exclusivity(unchecked) private var used = ByteSlabs.slabSize

    deinit {
        for slab in slabs { slab.deallocate() }
    }

    /// A record of `bytes`: where its length is, its bytes after it.
    func record(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeRawPointer? {
        let header = MemoryLayout<Int>.stride
        let size = (header + bytes.count + header - 1) / header * header
        let start: UnsafeMutableRawPointer
        if size > Self.slabSize {
            // A record longer than a slab (a very long account name) gets one of its own.
            start = .allocate(byteCount: size, alignment: header)
            slabs.insert(start, at: max(0, slabs.count - 1))
        } else {
            if used + size > Self.slabSize {
                slabs.append(.allocate(byteCount: Self.slabSize, alignment: header))
                used = 0
            }
            guard let slab = slabs.last else { return nil }
            start = slab + used
            used += size
        }
        start.storeBytes(of: bytes.count, as: Int.self)
        if let source = bytes.baseAddress {
            (start + header).copyMemory(from: source, byteCount: bytes.count)
        }
        return UnsafeRawPointer(start)
    }
}
