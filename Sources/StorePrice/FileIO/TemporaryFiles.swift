import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary files that output files are writing, so that a process stopped by a signal can
/// remove them.
///
/// Paths are kept in fixed C buffers, allocated once, that a signal handler may read: it can
/// neither take a lock nor allocate. The CLI installs the handler; a library never does, since
/// the process's signals belong to the application.
package enum TemporaryFiles {
    private static let slotCount = 8
    private static let slotSize = Int(PATH_MAX) + 1

    /// `slotCount` buffers of `slotSize` bytes; a slot whose first byte is 0 is free.
    /// Sendable notes: written under `lock`; read without it only by the signal handler, which
    /// at worst unlinks a path being written, one that was just created for this run.
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<CChar> = {
        let slots = UnsafeMutablePointer<CChar>.allocate(capacity: slotCount * slotSize)
        slots.initialize(repeating: 0, count: slotCount * slotSize)
        return slots
    }()
    private static let lock = Locked(())
    /// 0 while a run may be stopped; 1 once an output file is being moved into place, when a
    /// signal is too late to keep the old file and is ignored; 2 once a signal is stopping the
    /// process. Read and changed by compare-and-swap, which a signal handler may do.
    private static let state = Atomic<Int>(0)
    /// A signal that came while an output was being moved into place, for a failed move.
    private static let pending = Atomic<Int32>(0)

    /// Creates a file from a `mkstemp` template (a path ending in `XXXXXX`), listed before it
    /// exists: `mkstemp` writes the name it picks into the slot the signal handler reads, so a
    /// signal at any moment finds the file it removes. Returns its descriptor and path, or the
    /// `errno` of the failure.
    static func create(template: String) -> Result<(descriptor: Int32, path: String), Errno> {
        lock.withLock { _ in
            let free = (0..<slotCount).first { slots[$0 * slotSize] == 0 }
            guard let free, template.utf8.count < slotSize else {
                // No slot (more than `slotCount` outputs at once) or a path too long for one:
                // created unlisted.
                var buffer = Array(template.utf8CString)
                let descriptor = buffer.withUnsafeMutableBufferPointer { $0.baseAddress.map { mkstemp($0) } ?? -1 }
                guard descriptor >= 0 else { return .failure(Errno(errno)) }
                return .success((descriptor, String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
            }
            let slot = slots + free * slotSize
            _ = template.withCString { strcpy(slot, $0) }
            let descriptor = mkstemp(slot)
            guard descriptor >= 0 else {
                let code = errno
                slot[0] = 0
                return .failure(Errno(code))
            }
            return .success((descriptor, String(cString: slot)))
        }
    }

    /// An `errno` value.
    struct Errno: Error {
        var code: Int32
        init(_ code: Int32) { self.code = code }
    }

    /// Called just before an output file replaces the old one: from then on a termination
    /// signal no longer stops the run, whose output is complete. False when a signal is already
    /// stopping the process: the old file must stay.
    static func beginReplacing() -> Bool {
        while true {
            switch state.load(ordering: .sequentiallyConsistent) {
            case 1: return true
            case 2: return false
            default:
                if state.compareExchange(expected: 0, desired: 1, ordering: .sequentiallyConsistent).exchanged { return true }
            }
        }
    }

    /// Called when moving an output into place failed: signals stop the run again, and one that
    /// came meanwhile stops it now.
    static func replacingFailed() {
        state.store(0, ordering: .sequentiallyConsistent)
        let signal = pending.exchange(0, ordering: .sequentiallyConsistent)
        if signal != 0 { raise(signal) }
    }

    static func remove(_ path: String) {
        lock.withLock { _ in
            for slot in 0..<slotCount where slots[slot * slotSize] != 0 {
                if path.withCString({ strcmp(slots + slot * slotSize, $0) }) == 0 { slots[slot * slotSize] = 0 }
            }
        }
    }

    /// Removes the temporary files on SIGINT, SIGTERM, SIGHUP and SIGQUIT, then ends the process
    /// as that signal would have (a shell reports status 128 + the signal's number).
    package static func removeOnTerminationSignals() {
        _ = slots
        _ = state.load(ordering: .relaxed)
        _ = pending.load(ordering: .relaxed)
        // A process may start with these blocked (a parent's threads often block them, and a
        // child inherits the mask); they are the user's way to stop the run.
        var handled = sigset_t()
        sigemptyset(&handled)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&handled, signalNumber) }
        sigprocmask(SIG_UNBLOCK, &handled, nil)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            // A signal the process was started ignoring (`nohup`, `trap '' INT`) stays ignored.
            var current = sigaction()
            sigaction(signalNumber, nil, &current)
            if Self.isIgnored(current) { continue }
            signal(signalNumber) { received in
                guard TemporaryFiles.state.compareExchange(expected: 0, desired: 2, ordering: .sequentiallyConsistent).exchanged
                else {
                    // An output is replacing the old file, so the run is done: too late to stop
                    // it, unless that fails. Or another signal is already stopping the process.
                    if TemporaryFiles.state.load(ordering: .sequentiallyConsistent) == 1 {
                        TemporaryFiles.pending.store(received, ordering: .sequentiallyConsistent)
                    }
                    return
                }
                for slot in 0..<TemporaryFiles.slotCount {
                    let path = TemporaryFiles.slots + slot * TemporaryFiles.slotSize
                    if path[0] != 0 { unlink(path) }
                }
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }

    /// Whether a disposition is "ignore".
    private static func isIgnored(_ action: sigaction) -> Bool {
        #if canImport(Darwin)
        let handler = action.__sigaction_u.__sa_handler
        #else
        let handler = action.__sigaction_handler.sa_handler
        #endif
        guard let handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == 1  // SIG_IGN
    }
}
