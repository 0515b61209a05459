import CWorkerThread

/// A thread of a bulk run's own, started on another core than the calling thread's when the
/// calling thread may use more than one, then free to move over the calling thread's cores (see
/// `cworkerthread.h`).
///
/// The calling thread of a bulk run is busy when it starts its helpers. Started through Dispatch,
/// the first helper was often queued on the calling thread's core, and sometimes shared that core
/// through the formatter builds while the other core idled: on a 2-core virtual machine, the
/// builds ahead took up to 15 ms instead of 6.
final class WorkerThread {
    private let thread: OpaquePointer

    /// The closure a thread runs, passed to C as its context.
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts a thread that runs `body`; nil when the system could start no thread.
    init?(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        guard
            let thread = cworkerthread_start(
                { context in
                    guard let context else { return }
                    Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                }, context)
        else {
            Unmanaged<Body>.fromOpaque(context).release()
            return nil
        }
        self.thread = thread
    }

    /// Waits until the thread's body returns.
    func join() {
        cworkerthread_join(thread)
    }
}
