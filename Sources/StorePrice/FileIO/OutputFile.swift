#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An output file written whole or not at all.
///
/// What is at the path decides how:
/// - nothing, or a regular file: bytes go to a temporary file beside it, renamed over the path only
///   when the run succeeds. An existing file keeps its permissions (and owner, where the process
///   may set it); a new one gets the process's umask, as any created file does.
/// - a symbolic link: the same, at the file the link leads to; the link stays a link.
/// - a FIFO or a device (`/dev/null`, a terminal): written directly, never replaced.
/// - a directory, or a path ending in `/`: refused.
///
/// A temporary file is listed in ``TemporaryFiles`` while it exists, so that a process that
/// installs ``TemporaryFiles/removeOnTerminationSignals()`` leaves none behind when interrupted.
package final class OutputFile {
    package let path: String
    /// Where bytes are written before they are renamed into place; nil when written directly.
    package let temporaryPath: String?
    package let descriptor: Int32
    /// The path the temporary file is renamed to: `path`, or the file its symbolic link leads to.
    private let destination: String
    private var committed = false

    package init(path: String) throws(StorePriceError) {
        self.path = path
        func failure(_ code: Int32) -> StorePriceError {
            .unwritableFile(path: path, reason: String(cString: strerror(code)))
        }
        guard !path.isEmpty, !path.hasSuffix("/") else { throw failure(EISDIR) }
        if let inherited = Self.inheritedDescriptor(path) {
            // `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`: the descriptor this process already has,
            // duplicated, so that its file keeps what is in it and its offset (`>> log`), as `-` does.
            let duplicate = fcntl(inherited, F_DUPFD_CLOEXEC, 3)
            guard duplicate >= 0 else { throw failure(errno) }
            (descriptor, destination, temporaryPath) = (duplicate, path, nil)
            return
        }
        var followed = stat()
        if stat(path, &followed) == 0, (followed.st_mode & S_IFMT) != S_IFREG, (followed.st_mode & S_IFMT) != S_IFDIR {
            // A pipe, FIFO, device or socket, reached through links the kernel resolves itself
            // (`/dev/stdout` and `/dev/fd/63` lead to `pipe:[…]`, which is no path).
            (descriptor, destination, temporaryPath) = (try Self.openDirectly(path, failure), path, nil)
            return
        }
        var destination = path
        var existing: stat?
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
            // Write at the link's target, so the link stays a link.
            destination = Self.linkTarget(path)
            info = stat()
            // A chain that never ends (a loop) leaves a link: refused, never renamed over.
            if lstat(destination, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK { throw failure(ELOOP) }
            info = stat()
        }
        if stat(destination, &info) == 0 {
            existing = info
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                break
            case S_IFDIR:
                throw failure(EISDIR)
            default:
                // A FIFO, a device or a socket: written to directly, never renamed over.
                (self.descriptor, self.destination, self.temporaryPath) = (try Self.openDirectly(destination, failure), destination, nil)
                return
            }
        }
        let slash = destination.lastIndex(of: "/")
        let directory = slash.map { String(destination[...$0]) } ?? ""
        let name = slash.map { String(destination[destination.index(after: $0)...]) } ?? destination
        let descriptor: Int32
        let temporaryPath: String
        switch TemporaryFiles.create(template: directory + "." + Self.cut(name) + ".storeprice-XXXXXX") {
        case .success(let created): (descriptor, temporaryPath) = created
        case .failure(let error): throw failure(error.code)
        }
        if let existing {
            // The file keeps its owner where the process may set it, and its permissions: set after
            // the owner, since changing the owner clears the set-user-ID and set-group-ID bits.
            _ = fchown(descriptor, existing.st_uid, existing.st_gid)
            fchmod(descriptor, existing.st_mode & 0o7777)
        } else {
            // mkstemp creates 0600; a new file gets what the umask allows, as open(2) would give it.
            let mask = umask(0)
            umask(mask)
            fchmod(descriptor, 0o666 & ~mask)
        }
        self.descriptor = descriptor
        self.destination = destination
        self.temporaryPath = temporaryPath
    }

    /// Makes `directory` and every missing folder above it, so that a file can be written at
    /// `path`; the folder that cannot be made is named with why.
    package static func makeFolders(_ directory: String, for path: String) throws(StorePriceError) {
        var made = directory.hasPrefix("/") ? "/" : ""
        for part in directory.split(separator: "/") {
            made += (made.isEmpty || made.hasSuffix("/") ? "" : "/") + part
            var info = stat()
            if stat(made, &info) == 0 { continue }
            guard mkdir(made, 0o777) == 0 || errno == EEXIST else {
                let reason = String(cString: strerror(errno))
                throw .unwritableFile(path: path, reason: "cannot make the folder '\(made.escapedPathForMessage)': \(reason)")
            }
        }
    }

    /// The descriptor a path names when it is one of this process's own: `/dev/stdout` (1),
    /// `/dev/stderr` (2), `/dev/fd/N` and `/proc/self/fd/N`.
    private static func inheritedDescriptor(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                let number = path.dropFirst(prefix.count)
                guard !number.isEmpty, number.count <= 9, number.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
                return Int32(number)
            }
            return nil
        }
    }

    /// A file that is no regular file (a pipe, a FIFO, a device, a socket), opened to be written
    /// directly and never renamed over.
    private static func openDirectly(_ destination: String, _ failure: (Int32) -> StorePriceError) throws(StorePriceError) -> Int32 {
        let descriptor = open(destination, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(errno) }
        return descriptor
    }

    /// The start of a file name that leaves room, within the 255 bytes a name may take, for the
    /// temporary file's `.` and `.storeprice-XXXXXX`: whole characters, so the temporary file's
    /// name is the UTF-8 it is known by.
    static func cut(_ name: String) -> String {
        let room = 255 - ".".utf8.count - ".storeprice-XXXXXX".utf8.count
        guard name.utf8.count > room else { return name }
        var kept = String.UnicodeScalarView()
        var bytes = 0
        for scalar in name.unicodeScalars {
            bytes += UTF8.width(scalar)
            if bytes > room { break }
            kept.append(scalar)
        }
        return String(kept)
    }

    /// Where a symbolic link leads, followed to the end of a chain, as a path.
    private static func linkTarget(_ link: String) -> String {
        var current = link
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { return current }
            let target = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let directory = SnapshotPath.directory(of: current)
            current = target.hasPrefix("/") || directory.isEmpty ? target : directory + "/" + target
        }
        return current
    }

    /// Moves the finished file into place.
    package func commit() throws(StorePriceError) {
        guard let temporaryPath else {
            committed = true
            return
        }
        guard fsync(descriptor) == 0 else {
            throw .unwritableFile(path: path, reason: String(cString: strerror(errno)))
        }
        // A signal stopping the process has the last word: the old file stays, and this thread
        // waits for the signal to end the process.
        while !TemporaryFiles.beginReplacing() { pause() }
        guard rename(temporaryPath, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            TemporaryFiles.replacingFailed()
            throw .unwritableFile(path: path, reason: reason)
        }
        committed = true
        TemporaryFiles.remove(temporaryPath)
    }

    deinit {
        close(descriptor)
        // Not committed: leave nothing behind.
        if let temporaryPath, !committed {
            unlink(temporaryPath)
            TemporaryFiles.remove(temporaryPath)
        }
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
