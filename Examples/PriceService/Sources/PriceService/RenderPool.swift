import Logging
import NIOPosix
import ServiceLifecycle
import Synchronization

/// Where renders run: threads of their own (a NIOThreadPool), never NIO's event loops or Swift's
/// cooperative pool, and at most ``limit`` at once.
///
/// A render writes rows as the client reads them: a client that stops reading stops its render,
/// which then holds one of these threads until the write timeout closes the connection. Past
/// the limit a render is refused at once (`503` with `Retry-After`) rather than queued, so that
/// renders never wait on each other and every other route keeps answering.
///
/// A `Service`: it starts the threads and, on graceful shutdown, lets the renders under way end.
public final class RenderPool: Service, Sendable {
    /// Renders at once, at most.
    public let limit: Int
    private let threads: NIOThreadPool
    private let running = Running()

    /// The renders running, shared with the threads' work items.
    private final class Running: Sendable {
        let count = Atomic<Int>(0)
    }

    public init(limit: Int) {
        self.limit = max(1, limit)
        threads = NIOThreadPool(numberOfThreads: self.limit)
        threads.start()
    }

    /// Runs `render` on a thread of the pool, unless ``limit`` renders are running: false then.
    public func start(_ render: @escaping @Sendable () -> Void) -> Bool {
        guard reserve() else { return false }
        // Run even while the pool shuts down: the request waits for it.
        threads.submit { [running] _ in
            defer { running.count.subtract(1, ordering: .relaxed) }
            render()
        }
        return true
    }

    /// Counts a render run elsewhere (a small one, in its request's task) among the renders at
    /// once, unless ``limit`` are running: false then. ``release()`` ends it.
    public func reserve() -> Bool {
        guard running.count.add(1, ordering: .relaxed).newValue <= limit else {
            running.count.subtract(1, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Ends a render counted by ``reserve()``.
    public func release() {
        running.count.subtract(1, ordering: .relaxed)
    }

    /// The answer past the limit: `503` with `Retry-After`.
    static func busy(limit: Int) -> ServiceError {
        ServiceError(
            status: .serviceUnavailable,
            message: "\(limit) renders are under way, as many as this service renders at once; try again in a second",
            headers: [.retryAfter: "1"])
    }

    /// Renders running now.
    public var renders: Int { running.count.load(ordering: .relaxed) }

    /// Waits for graceful shutdown (or cancellation), then for the renders under way, and stops
    /// the threads.
    public func run() async throws {
        let (stop, stopping) = AsyncStream<Void>.makeStream()
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                for await _ in stop {}
            } onCancel: {
                stopping.finish()
            }
        } onGracefulShutdown: {
            stopping.finish()
        }
        try await threads.shutdownGracefully()
    }
}
