import Foundation
import Hummingbird

/// Rows from a rendering thread to a response, at most ``capacity`` chunks ahead of the
/// client: the thread waits while the client reads, and stops when the client goes away.
final class RowChannel: @unchecked Sendable {
    /// Chunks rendered but not yet taken by the response, at most.
    static let capacity = 4

    let stream: AsyncThrowingStream<ByteBuffer, any Error>
    private let continuation: AsyncThrowingStream<ByteBuffer, any Error>.Continuation
    /// Guards `waiting` and `gone`, and wakes the rendering thread.
    private let condition = NSCondition()
    private var waiting = 0
    private var gone = false

    /// The client stopped reading.
    struct ClientGone: Error {}

    init() {
        (stream, continuation) = AsyncThrowingStream.makeStream(of: ByteBuffer.self)
        continuation.onTermination = { [weak self] _ in self?.stopSending() }
    }

    /// Hands a chunk to the response; waits while ``capacity`` chunks are not taken.
    func send(_ buffer: ByteBuffer) throws {
        condition.lock()
        while waiting >= Self.capacity && !gone { condition.wait() }
        guard !gone else {
            condition.unlock()
            throw ClientGone()
        }
        waiting += 1
        condition.unlock()
        continuation.yield(buffer)
    }

    /// The next chunk, nil after the last; makes room for one more.
    func next(_ iterator: inout AsyncThrowingStream<ByteBuffer, any Error>.AsyncIterator) async throws -> ByteBuffer? {
        let buffer = try await iterator.next()
        if buffer != nil { taken() }
        return buffer
    }

    /// One chunk fewer waiting: the rendering thread may send another.
    private func taken() {
        condition.lock()
        waiting -= 1
        condition.signal()
        condition.unlock()
    }

    /// The response is done with the rows, written or not: the rendering thread stops at its
    /// next chunk.
    func close() {
        stopSending()
        continuation.finish()
    }

    func finish(throwing error: (any Error)?) {
        continuation.finish(throwing: error)
    }

    private func stopSending() {
        condition.lock()
        gone = true
        condition.broadcast()
        condition.unlock()
    }
}
