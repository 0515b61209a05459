#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An output file written whole or not at all: bytes go to a temporary file beside it, renamed
/// over the target only when the run succeeds.
package final class OutputFile {
    package let path: String
    package let temporaryPath: String
    package let descriptor: Int32
    private var committed = false

    package init(path: String) throws(StorePriceError) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array((directory + "." + name + ".storeprice-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard descriptor >= 0 else {
            throw .unwritableFile(path: path, reason: String(cString: strerror(errno)))
        }
        self.descriptor = descriptor
        self.temporaryPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Moves the finished file into place.
    package func commit() throws(StorePriceError) {
        fchmod(descriptor, 0o644)
        guard fsync(descriptor) == 0, rename(temporaryPath, path) == 0 else {
            throw .unwritableFile(path: path, reason: String(cString: strerror(errno)))
        }
        committed = true
    }

    deinit {
        close(descriptor)
        // Not committed: leave nothing behind.
        if !committed { unlink(temporaryPath) }
    }
}

extension OutputFile {
    /// Writes `text` to `path` whole or not at all.
    package static func write(_ text: String, to path: String) throws(StorePriceError) {
        let file = try OutputFile(path: path)
        var text = text
        let failure = text.withUTF8 { writeAll($0, to: file.descriptor) }
        if let failure {
            throw .unwritableFile(path: path, reason: String(cString: strerror(failure)))
        }
        try file.commit()
    }

    /// Writes every byte to a file descriptor, retrying after interrupted and partial writes.
    ///
    /// - Returns: nil, or the `errno` of a write that failed.
    @discardableResult
    package static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Int32? {
        guard var base = bytes.baseAddress else { return nil }
        var remaining = bytes.count
        while remaining > 0 {
            #if canImport(Darwin)
            let written = Darwin.write(descriptor, base, remaining)
            #elseif canImport(Musl)
            let written = Musl.write(descriptor, base, remaining)
            #else
            let written = Glibc.write(descriptor, base, remaining)
            #endif
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            base += written
            remaining -= written
        }
        return nil
    }
}
