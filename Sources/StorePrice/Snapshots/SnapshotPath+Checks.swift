#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which files a snapshot's header may name.
///
/// A golden snapshot is reviewed like code, and a pull request can edit its header. So a header
/// path is used only when it is relative, leads (symbolic links followed) to a regular file, and
/// stays inside the snapshot's repository: the nearest directory above the snapshot holding
/// `.git` or `Package.swift`, or else the snapshot's own directory. Anything else, such as
/// `/etc/passwd`, `../../../outside/credentials` or a FIFO, is refused before it is opened, and
/// the catalog or accounts must then be given on the command line.
extension SnapshotPath {
    /// Why a path stored in a snapshot's header may not be read, or nil when it may.
    ///
    /// - Parameters:
    ///   - stored: the path as the header writes it.
    ///   - snapshot: the snapshot file's path.
    ///   - field: `catalog` or `accounts`, for the message.
    ///   - folderAllowed: whether the path may name a folder (of App Store Connect responses).
    static func problem(with stored: String, inSnapshotAt snapshot: String, field: String, folderAllowed: Bool = false) -> String? {
        let advice = "give the \(field) with --\(field)"
        guard !stored.hasPrefix("/") else {
            return "the header's \(field) path '\(stored.escapedPathForMessage)' is absolute; a snapshot names files by "
                + "paths relative to itself, inside its repository (\(advice))"
        }
        let directory = directory(of: snapshot)
        let resolved = resolve(stored, from: directory.isEmpty ? "." : directory)
        guard let root = realPath(repositoryRoot(from: directory.isEmpty ? "." : directory)) else { return nil }
        // A missing file is reported when it is opened, as for any path.
        guard let real = realPath(resolved) else { return nil }
        guard real == root || real.hasPrefix(root == "/" ? "/" : root + "/") else {
            return "the header's \(field) path '\(stored.escapedPathForMessage)' leads outside the snapshot's repository "
                + "(\(root.escapedPathForMessage)) (\(advice))"
        }
        var info = stat()
        guard stat(real, &info) == 0 else { return nil }
        let kind: String
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        // A catalog may be a folder of App Store Connect responses.
        case S_IFDIR where folderAllowed: return nil
        case S_IFDIR: kind = "a directory"
        case S_IFIFO: kind = "a FIFO"
        case S_IFCHR, S_IFBLK: kind = "a device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a regular file"
        }
        return "the header's \(field) path '\(stored.escapedPathForMessage)' is \(kind), not a file (\(advice))"
    }

    /// The nearest directory at or above `directory` that holds `.git` or `Package.swift`, or
    /// `directory` itself when none does.
    static func repositoryRoot(from directory: String) -> String {
        guard var current = realPath(directory) else { return directory }
        while true {
            if access(current + "/.git", F_OK) == 0 || access(current + "/Package.swift", F_OK) == 0 { return current }
            guard current != "/" else { return realPath(directory) ?? directory }
            current = SnapshotPath.directory(of: current)
        }
    }

    /// The path with symbolic links, `.` and `..` resolved, or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
