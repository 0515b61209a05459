#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import StorePrice

/// A write that failed: a full disk, a file past `ulimit -f`, standard output on `/dev/full`.
///
/// The run ends with one line on standard error: status 73 for an output file (whose old content
/// stays, with no temporary file left) and 74 for standard output. A closed pipe is not a
/// failure to report: the reader has gone, and the run ends quietly with status 141, as if
/// SIGPIPE had stopped it.
struct WriteFailure: Error, CustomStringConvertible {
    /// The output file's path as given, or nil for standard output.
    let path: String?
    /// The `errno` of the failed write.
    let code: Int32

    var description: String {
        let reason = String(cString: strerror(code))
        guard let path else { return "cannot write standard output: \(reason)" }
        return "cannot write '\(path.escapedPathForMessage)': \(reason)"
    }

    /// Whether the reader of standard output has gone.
    var isClosedPipe: Bool { path == nil && code == EPIPE }
}
