#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The lines of a chunk's input, in order, each without its line ending (`\n`, and a `\r` before
/// it) and numbered from 1, as ``LineReader`` cuts and numbers a file's lines.
struct ChunkLines {
    private let base: UnsafePointer<UInt8>?
    private let count: Int
    private var position = 0
    /// The number of the last line returned, from 1 within the chunk.
    private(set) var number = 0
    /// Where the last line returned starts in the input.
    private(set) var start = 0

    init(_ input: UnsafeBufferPointer<UInt8>) {
        base = input.baseAddress
        count = input.count
    }

    /// The next line, without its line ending; nil after the last.
    mutating func next() -> UnsafeBufferPointer<UInt8>? {
        guard let base, position < count else { return nil }
        number += 1
        start = position
        var end = count
        if let newline = memchr(base + position, Int32(UInt8(ascii: "\n")), count - position) {
            end = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
        }
        position = min(count, end + 1)
        if end > start, base[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return UnsafeBufferPointer(start: base + start, count: end - start)
    }
}
