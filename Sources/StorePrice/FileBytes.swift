#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads with plain POSIX errors (`No such file or directory`, `Is a directory`).
enum FileBytes {
    /// The largest file read whole; larger inputs must be streamed.
    static let limit = 64 << 20

    static func read(path: String) throws(StorePriceError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .unreadableFile(path: path, reason: lastError()) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadableFile(path: path, reason: lastError()) }
        guard (info.st_mode & S_IFMT) != S_IFDIR else {
            throw .unreadableFile(path: path, reason: String(cString: strerror(EISDIR)))
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadableFile(path: path, reason: lastError())
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
            guard bytes.count <= limit else {
                throw .unreadableFile(path: path, reason: "larger than \(limit >> 20) MiB")
            }
        }
        return bytes
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}

#if canImport(Darwin)
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Darwin.read(fd, buffer, count) }
#elseif canImport(Musl)
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Musl.read(fd, buffer, count) }
#else
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Glibc.read(fd, buffer, count) }
#endif
