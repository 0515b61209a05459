#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file opened for reading, with plain POSIX errors (`No such file or directory`,
/// `Is a directory`) naming the path. `-` is standard input. Bytes already in memory (a request
/// body) are read the same way, named as the caller says.
package final class InputFile {
    /// The largest file read whole by ``readAll()``; larger inputs must be streamed.
    static let wholeFileLimit = 64 << 20

    let path: String
    /// The file's size, when it is a regular file.
    let size: Int?
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// The bytes, when they are in memory, and how many have been read.
    private let memory: [UInt8]?
    private var memoryOffset = 0

    /// Bytes in memory, read as a file named `name` would be.
    init(bytes: [UInt8], name: String) {
        path = name
        size = bytes.count
        descriptor = -1
        ownsDescriptor = false
        memory = bytes
    }

    package init(path: String) throws(StorePriceError) {
        self.path = path
        memory = nil
        guard path != "-" else {
            descriptor = 0
            ownsDescriptor = false
            size = nil
            return
        }
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .unreadableFile(path: path, reason: Self.reason(errno)) }
        ownsDescriptor = true
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw .unreadableFile(path: path, reason: Self.reason(code))
        }
        guard (info.st_mode & S_IFMT) != S_IFDIR else {
            close(descriptor)
            throw .unreadableFile(path: path, reason: Self.reason(EISDIR))
        }
        size = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the file. Retries interrupted reads.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(StorePriceError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        if let memory {
            let count = min(buffer.count, memory.count - memoryOffset)
            memory.withUnsafeBytes { bytes in
                if let source = bytes.baseAddress { base.copyMemory(from: source + memoryOffset, byteCount: count) }
            }
            memoryOffset += count
            return count
        }
        while true {
            #if canImport(Darwin)
            let count = Darwin.read(descriptor, base, buffer.count)
            #elseif canImport(Musl)
            let count = Musl.read(descriptor, base, buffer.count)
            #else
            let count = Glibc.read(descriptor, base, buffer.count)
            #endif
            if count >= 0 { return count }
            if errno != EINTR { throw .unreadableFile(path: path, reason: Self.reason(errno)) }
        }
    }

    /// The whole file, up to ``wholeFileLimit`` bytes.
    package func readAll() throws(StorePriceError) -> [UInt8] {
        // A regular file says its size: refuse an oversized one before reading it.
        if let size, size > Self.wholeFileLimit {
            throw .unreadableFile(path: path, reason: "larger than \(Self.wholeFileLimit >> 20) MiB")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(size ?? 0, Self.wholeFileLimit) + 1)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(StorePriceError) in try read(into: buffer) }
            }.get()
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
            guard bytes.count <= Self.wholeFileLimit else {
                throw .unreadableFile(path: path, reason: "larger than \(Self.wholeFileLimit >> 20) MiB")
            }
        }
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
