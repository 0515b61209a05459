import Dispatch
import Hummingbird
import Synchronization

/// Rows from a rendering thread to a response, at most ``capacity`` chunks ahead of the
/// client: the thread waits while the client reads, and stops when the client goes away.
final class RowChannel: Sendable {
    /// Chunks rendered but not yet written, at most.
    static let capacity = 4

    let stream: AsyncThrowingStream<ByteBuffer, any Error>
    private let continuation: AsyncThrowingStream<ByteBuffer, any Error>.Continuation
    private let room = DispatchSemaphore(value: capacity)
    private let gone = Atomic<Bool>(false)

    /// The client stopped reading.
    struct ClientGone: Error {}

    init() {
        (stream, continuation) = AsyncThrowingStream.makeStream(of: ByteBuffer.self)
        continuation.onTermination = { [weak self] _ in self?.stopSending() }
    }

    /// Hands a chunk to the response; waits while ``capacity`` chunks are unwritten.
    func send(_ buffer: ByteBuffer) throws {
        room.wait()
        guard !gone.load(ordering: .acquiring) else {
            room.signal()
            throw ClientGone()
        }
        continuation.yield(buffer)
    }

    /// The next chunk, nil after the last; makes room for one more.
    func next(_ iterator: inout AsyncThrowingStream<ByteBuffer, any Error>.AsyncIterator) async throws -> ByteBuffer? {
        let buffer = try await iterator.next()
        if buffer != nil { room.signal() }
        return buffer
    }

    /// The response is done with the rows, written or not: the rendering thread stops at its
    /// next chunk.
    func close() {
        stopSending()
        continuation.finish()
    }

    private func stopSending() {
        gone.store(true, ordering: .releasing)
        room.signal()
    }

    func finish(throwing error: (any Error)?) {
        continuation.finish(throwing: error)
    }
}
