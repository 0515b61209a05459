#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A growable run of bytes in one allocation, for building output and holding input chunks.
///
/// Appending copies with `memcpy`; the storage moves only when it grows, so a pointer into it is
/// valid until the next append that grows it.
package struct ByteBuffer: ~Copyable {
    private(set) var base: UnsafeMutablePointer<UInt8>
    package private(set) var count = 0
    package private(set) var capacity: Int

    package init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The bytes written so far.
    package var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Where the next appended byte goes, for writing in place up to ``capacity``.
    package var end: UnsafeMutablePointer<UInt8> { base + count }

    @inline(__always)
    package mutating func append(_ source: UnsafePointer<UInt8>, count length: Int) {
        if count + length > capacity { grow(toHold: count + length) }
        memcpy(base + count, source, length)
        count += length
    }

    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        append(source, count: bytes.count)
    }

    package mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            guard let source = buffer.baseAddress else { return }
            append(source, count: buffer.count)
        }
    }

    package mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            guard let source = buffer.baseAddress else { return }
            append(source, count: buffer.count)
        }
    }

    @inline(__always)
    package mutating func append(byte: UInt8) {
        if count == capacity { grow(toHold: count + 1) }
        base[count] = byte
        count += 1
    }

    /// Makes room for `more` bytes without moving what later appends copy.
    package mutating func reserve(_ more: Int) {
        if count + more > capacity { grow(toHold: count + more) }
    }

    /// Makes `more` bytes after the last one readable, as zeros, without counting them.
    package mutating func padWithZeros(_ more: Int) {
        reserve(more)
        memset(base + count, 0, more)
    }

    /// Records `written` bytes written in place at ``end``, within ``capacity``.
    package mutating func didWrite(_ written: Int) {
        count = min(capacity, count + written)
    }

    /// Drops the first `prefix` bytes, moving the rest to the front.
    package mutating func removeFirst(_ prefix: Int) {
        let kept = count - prefix
        if kept > 0 { memmove(base, base + prefix, kept) }
        count = max(0, kept)
    }

    /// Keeps the first `length` bytes.
    package mutating func truncate(to length: Int) {
        count = max(0, min(count, length))
    }

    package mutating func removeAll() {
        count = 0
    }

    private mutating func grow(toHold needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }
}
