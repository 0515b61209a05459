#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An output file written whole or not at all: bytes go to a temporary file beside it, renamed
/// over the target only when the run succeeds.
final class OutputFile {
    let path: String
    let temporaryPath: String
    let descriptor: Int32
    private var committed = false

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(path: String) throws(Failure) {
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
            throw Failure(description: "cannot write '\(path)': \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
        self.temporaryPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Moves the finished file into place.
    func commit() throws(Failure) {
        fchmod(descriptor, 0o644)
        guard fsync(descriptor) == 0, rename(temporaryPath, path) == 0 else {
            throw Failure(description: "cannot write '\(path)': \(String(cString: strerror(errno)))")
        }
        committed = true
    }

    deinit {
        close(descriptor)
        // Not committed: leave nothing behind.
        if !committed { unlink(temporaryPath) }
    }
}
