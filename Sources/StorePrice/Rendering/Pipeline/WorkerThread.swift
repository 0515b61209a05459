#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX thread of StorePrice's own, detached: a ``HelperPool`` helper, which lives as long as
/// the process.
enum WorkerThread {
    /// The closure a thread runs, passed to the thread as its context.
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts a detached thread that runs `body`; false when the system could start no thread.
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let status = pthread_create(
            &thread, &attributes,
            { context in
                #if canImport(Darwin)
                Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                #else
                if let context { Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run() }
                #endif
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        return true
    }
}
