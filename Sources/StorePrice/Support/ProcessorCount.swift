#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

package enum ProcessorCount {
    /// The processors this process may run on, at least 1: on Linux, those in its CPU affinity
    /// mask (`taskset`, container cpusets), and no more than its cgroup's CPU quota allows
    /// (`docker --cpus`, Kubernetes limits); elsewhere, the processors online.
    static let active: Int = {
        let online = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #if os(Linux)
        var count = online
        if let allowed = affinityCount() { count = min(count, allowed) }
        if let quota = cgroupQuota(root: ownCgroup()) ?? cgroupQuota() { count = min(count, quota) }
        return max(1, count)
        #else
        return online
        #endif
    }()

    /// The CPUs a cgroup's quota gives, rounded up: cgroup v2's `cpu.max`, or v1's
    /// `cpu.cfs_quota_us` over `cpu.cfs_period_us`; nil without a quota.
    package static func cgroupQuota(root: String = "/sys/fs/cgroup") -> Int? {
        if let line = firstLine(root + "/cpu.max") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let quota = Int(fields[0]), let period = Int(fields[1]), quota > 0, period > 0 else {
                return nil
            }
            return max(1, (quota + period - 1) / period)
        }
        guard let quotaText = firstLine(root + "/cpu/cpu.cfs_quota_us"), let quota = Int(quotaText), quota > 0,
            let periodText = firstLine(root + "/cpu/cpu.cfs_period_us"), let period = Int(periodText), period > 0
        else { return nil }
        return max(1, (quota + period - 1) / period)
    }

    /// The processors in this process's affinity mask, from `Cpus_allowed` in /proc/self/status
    /// (a hex mask in comma-separated groups).
    package static func affinityCount(status path: String = "/proc/self/status") -> Int? {
        guard let file = try? InputFile(path: path), let bytes = try? file.readAll() else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("Cpus_allowed:") {
            var count = 0
            for character in line.dropFirst("Cpus_allowed:".count) {
                guard let digit = character.hexDigitValue else { continue }
                count += digit.nonzeroBitCount
            }
            return count > 0 ? count : nil
        }
        return nil
    }

    /// This process's cgroup v2 directory, from /proc/self/cgroup (`0::/path`).
    private static func ownCgroup() -> String {
        guard let line = firstLine("/proc/self/cgroup"), line.hasPrefix("0::") else { return "/sys/fs/cgroup" }
        return "/sys/fs/cgroup" + line.dropFirst(3)
    }

    private static func firstLine(_ path: String) -> String? {
        guard let file = try? InputFile(path: path), let bytes = try? file.readAll() else { return nil }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init)
    }
}
