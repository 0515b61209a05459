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
    static func output(_ line: String) throws(WriteFailure) {
        try output(text: line + "\n")
    }

    /// Writes text to standard output.
    static func output(text: String) throws(WriteFailure) {
        var text = text
        if let code = text.withUTF8({ OutputFile.writeAll($0, to: standardOutput) }) {
            throw WriteFailure(path: nil, code: code)
        }
    }

    /// Writes `storeprice: MESSAGE` to standard error.
    static func error(_ message: String) {
        toStandardError(errorLine(message))
    }

    /// `storeprice: MESSAGE` and a newline, for writing many lines at once.
    static func errorLine(_ message: String) -> String {
        "storeprice: " + message + "\n"
    }

    /// Writes text to standard error; a failure there has nowhere to be reported, and is ignored.
    static func toStandardError(_ text: String) {
        var text = text
        _ = text.withUTF8 { OutputFile.writeAll($0, to: standardError) }
    }
}

/// Buffered UTF-8 output to a file descriptor: bulk writers append bytes and flush in large blocks.
///
/// The first failed write is kept and ends the writing: ``check()`` throws it, and nothing more is
/// written. Call ``finish()`` at the end; bytes still buffered when it is dropped are discarded.
struct OutputBuffer: ~Copyable {
    private var bytes: [UInt8] = []
    private let descriptor: Int32
    /// The output file's path, or nil for standard output.
    private let path: String?
    private let threshold = 1 << 16
    private var failure: Int32?

    init(descriptor: Int32, path: String?) {
        self.descriptor = descriptor
        self.path = path
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

    /// Appends `text` as a JSON string literal (``JSONText/appendQuoted(_:to:)``).
    mutating func appendJSON(_ text: String) {
        JSONText.appendQuoted(text, to: &bytes)
    }

    /// Bytes appended and not yet written.
    var pendingCount: Int { bytes.count }

    /// The bytes appended since `start` (a ``pendingCount`` taken with nothing written since).
    func pending(from start: Int) -> ArraySlice<UInt8> { bytes[start...] }

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
        endRow()
    }

    /// Ends a record: what is buffered is written once there is enough of it.
    mutating func endRow() {
        if bytes.count >= threshold { flush() }
    }

    /// Writes what is buffered, unless a write has failed.
    mutating func flush() {
        if failure == nil {
            failure = bytes.withUnsafeBufferPointer { OutputFile.writeAll($0, to: descriptor) }
        }
        bytes.removeAll(keepingCapacity: true)
    }

    /// Throws the first failed write, if any.
    func check() throws(WriteFailure) {
        if let failure { throw WriteFailure(path: path, code: failure) }
    }

    /// Writes what is buffered and throws the first failed write, if any.
    mutating func finish() throws(WriteFailure) {
        flush()
        try check()
    }
}
