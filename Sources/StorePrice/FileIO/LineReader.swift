#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file or standard input line by line, in bounded memory.
///
/// Lines end with `\n`; a `\r` before it and a UTF-8 byte order mark at the start of the file are
/// removed. A line longer than ``maximumLineLength`` or not valid UTF-8 is an error naming the line.
/// The catalog readers, snapshots and the CLI's `format --batch` read through it.
package final class LineReader {
    /// The longest line accepted, in bytes, without its line ending: exactly 1 MiB passes,
    /// 1 MiB + 1 byte does not.
    package static let maximumLineLength = 1 << 20
    /// Bytes a line may have beyond ``maximumLineLength`` before its `\n`: a `\r`, and a byte
    /// order mark on the first line.
    private static let lineEndingAllowance = 4

    private let file: InputFile
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEnd = false
    /// The number of the last line returned, from 1.
    package private(set) var lineNumber = 0
    /// Bytes consumed so far, and the file's size when known.
    private(set) var bytesRead = 0

    /// What one line holds, for the too-long error: "one product or price".
    private let lineHolds: String

    /// Opens a file; `-` is standard input.
    ///
    /// - Parameter lineHolds: what one line holds, such as `one product or price`, for errors.
    package init(path: String, lineHolds: String = "one product or price") throws(StorePriceError) {
        self.lineHolds = lineHolds
        file = try InputFile(path: path)
        buffer = [UInt8](repeating: 0, count: 1 << 18)
    }

    package var path: String { file.path }
    /// The file's size, when known.
    var totalBytes: Int? { file.size }

    /// The next line as a string, without its line ending; nil at the end of the input.
    package func nextLine() throws(StorePriceError) -> String? {
        var text: String?
        guard try nextLine(bytes: { text = String(validating: $0, as: UTF8.self) }) else { return nil }
        guard let text else {
            throw .invalidCatalog(source: path, line: lineNumber, field: nil, reason: "not valid UTF-8")
        }
        return text
    }

    /// Calls `body` with the next line's bytes, without its line ending and not checked as
    /// UTF-8, valid only during the call; false at the end of the input. Lines end, are cut and
    /// numbered as ``nextLine()`` does, and a line too long is the same error.
    package func nextLine(bytes body: (UnsafeBufferPointer<UInt8>) -> Void) throws(StorePriceError) -> Bool {
        while true {
            if let newline = indexOfNewline() {
                try takeLine(upTo: newline, consumed: newline + 1, body)
                return true
            }
            if atEnd {
                guard start < end else { return false }
                try takeLine(upTo: end, consumed: end, body)
                return true
            }
            try fill()
        }
    }

    private func takeLine(
        upTo lineEnd: Int, consumed: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(StorePriceError) {
        lineNumber += 1
        var from = start
        var to = lineEnd
        if lineNumber == 1, to - from >= 3, buffer[from] == 0xEF, buffer[from + 1] == 0xBB, buffer[from + 2] == 0xBF {
            from += 3
        }
        if to > from, buffer[to - 1] == UInt8(ascii: "\r") { to -= 1 }
        guard to - from <= Self.maximumLineLength else { throw tooLong(line: lineNumber) }
        buffer.withUnsafeBufferPointer { bytes in body(UnsafeBufferPointer(rebasing: bytes[from..<to])) }
        bytesRead += consumed - start
        start = consumed
    }

    private func indexOfNewline() -> Int? {
        buffer.withUnsafeBufferPointer { bytes -> Int? in
            guard start < end, let base = bytes.baseAddress else { return nil }
            guard let found = memchr(base + start, Int32(UInt8(ascii: "\n")), end - start) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    private func fill() throws(StorePriceError) {
        if start > 0 {
            // Move the partial line to the front.
            let pending = end - start
            buffer.withUnsafeMutableBufferPointer { bytes in
                guard let base = bytes.baseAddress else { return }
                memmove(base, base + start, pending)
            }
            start = 0
            end = pending
        }
        if end == buffer.count {
            // The buffer holds one partial line. Grow it up to the longest line that can pass,
            // with its line ending and "\n"; a partial line longer than that cannot pass.
            let capacity = Self.maximumLineLength + Self.lineEndingAllowance + 1
            guard end < capacity else { throw tooLong(line: lineNumber + 1) }
            buffer.append(contentsOf: repeatElement(0, count: min(buffer.count, capacity - buffer.count)))
        }
        let from = end
        let count = try buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(StorePriceError) in
                try file.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[from...]))
            }
        }.get()
        if count == 0 { atEnd = true }
        end += count
    }

    private func tooLong(line: Int) -> StorePriceError {
        .invalidCatalog(
            source: path, line: line, field: nil,
            reason: "longer than \(Self.maximumLineLength >> 20) MiB; a line holds \(lineHolds)")
    }
}
