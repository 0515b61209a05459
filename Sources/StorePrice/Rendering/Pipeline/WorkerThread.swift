#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread of a bulk run's own: a POSIX thread, joined when the run ends.
final class WorkerThread {
    #if canImport(Darwin)
    private var thread: pthread_t?
    #else
    private var thread = pthread_t()
    #endif

    /// The closure a thread runs, passed to the thread as its context.
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts a thread that runs `body`; nil when the system could start no thread.
    init?(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let status = pthread_create(
            &thread, nil,
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
            return nil
        }
    }

    /// Waits until the thread's body returns.
    func join() {
        #if canImport(Darwin)
        guard let thread else { return }
        #endif
        pthread_join(thread, nil)
    }
}
