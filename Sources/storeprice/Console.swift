import StorePrice

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output and standard error, written with `write(2)`.
enum Console {
    static let standardOutput: Int32 = 1
    static let standardError: Int32 = 2

    /// Writes a line to standard output.
    static func output(_ line: String) {
        write(line + "\n", to: standardOutput)
    }

    /// Writes `storeprice: MESSAGE` to standard error.
    static func error(_ message: String) {
        write("storeprice: " + message + "\n", to: standardError)
    }

    static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { writeAll($0, to: descriptor) }
    }

    /// Writes every byte, retrying after interrupted and partial writes; a failed write (a closed
    /// pipe) ends the output quietly.
    static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) {
        OutputFile.writeAll(bytes, to: descriptor)
    }
}

/// Buffered UTF-8 output to a file descriptor: bulk writers append bytes and flush in large blocks.
struct OutputBuffer: ~Copyable {
    private var bytes: [UInt8] = []
    private let descriptor: Int32
    private let threshold = 1 << 16

    init(descriptor: Int32) {
        self.descriptor = descriptor
        bytes.reserveCapacity(threshold + 1024)
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func append(_ buffer: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: buffer)
    }

    mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    mutating func append(bytes more: [UInt8]) {
        bytes.append(contentsOf: more)
    }

    /// A growable byte string, for building fragments to append many times.
    struct Bytes {
        var storage: [UInt8] = []
        mutating func append(_ text: String) { storage.append(contentsOf: text.utf8) }
    }

    mutating func endLine() {
        bytes.append(UInt8(ascii: "\n"))
        if bytes.count >= threshold { flush() }
    }

    mutating func flush() {
        bytes.withUnsafeBufferPointer { Console.writeAll($0, to: descriptor) }
        bytes.removeAll(keepingCapacity: true)
    }

    deinit {
        bytes.withUnsafeBufferPointer { Console.writeAll($0, to: descriptor) }
    }
}
