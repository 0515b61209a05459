#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum ProcessorCount {
    /// Processors online, at least 1.
    static let active: Int = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
}
