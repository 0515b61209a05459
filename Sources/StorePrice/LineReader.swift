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
final class LineReader {
    /// The longest line accepted, in bytes.
    static let maximumLineLength = 1 << 20

    private let file: InputFile
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEnd = false
    /// The number of the last line returned, from 1.
    private(set) var lineNumber = 0
    /// Bytes consumed so far, and the file's size when known.
    private(set) var bytesRead = 0

    /// Opens a file; `-` is standard input.
    init(path: String) throws(StorePriceError) {
        file = try InputFile(path: path)
        buffer = [UInt8](repeating: 0, count: 1 << 18)
    }

    var path: String { file.path }
    /// The file's size, when known.
    var totalBytes: Int? { file.size }

    /// The next line as a string, without its line ending; nil at the end of the input.
    func nextLine() throws(StorePriceError) -> String? {
        while true {
            if let newline = indexOfNewline() {
                let line = try takeLine(upTo: newline, consumed: newline + 1)
                return line
            }
            if atEnd {
                guard start < end else { return nil }
                return try takeLine(upTo: end, consumed: end)
            }
            try fill()
        }
    }

    private func indexOfNewline() -> Int? {
        buffer.withUnsafeBufferPointer { bytes -> Int? in
            guard start < end, let base = bytes.baseAddress else { return nil }
            guard let found = memchr(base + start, Int32(UInt8(ascii: "\n")), end - start) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    private func takeLine(upTo lineEnd: Int, consumed: Int) throws(StorePriceError) -> String {
        lineNumber += 1
        var from = start
        var to = lineEnd
        if lineNumber == 1, to - from >= 3, buffer[from] == 0xEF, buffer[from + 1] == 0xBB, buffer[from + 2] == 0xBF {
            from += 3
        }
        if to > from, buffer[to - 1] == UInt8(ascii: "\r") { to -= 1 }
        let text = buffer.withUnsafeBufferPointer { bytes in
            String(validating: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
        }
        bytesRead += consumed - start
        start = consumed
        guard let text else {
            throw .invalidCatalog(source: path, line: lineNumber, field: nil, reason: "not valid UTF-8")
        }
        return text
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
            guard buffer.count <= Self.maximumLineLength else {
                throw .invalidCatalog(
                    source: path, line: lineNumber + 1, field: nil,
                    reason: "longer than \(Self.maximumLineLength >> 20) MiB; a line holds one product or price")
            }
            buffer.append(contentsOf: repeatElement(0, count: buffer.count))
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
}
