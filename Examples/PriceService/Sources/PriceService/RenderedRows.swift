import Foundation
import Hummingbird
import Logging
import StorePrice

/// The answer to a render: rows a renderer writes, answered whole when there are few, streamed
/// from ``RenderPool`` as they are rendered when there are many. Both count among the pool's
/// renders at once; past its limit, a `503` with `Retry-After`.
struct RenderedRows: Sendable {
    /// Renders into `write`, a chunk of rows at a time, and returns the run's report.
    typealias Render = @Sendable (_ write: (UnsafeRawBufferPointer) throws -> Void) throws -> RenderReport

    /// The most rows answered whole rather than streamed: a few products for a few targets,
    /// rendered in the request's task in well under a millisecond. Their bytes never wait on
    /// the client, so the render needs no thread of its own, and the answer has a
    /// `Content-Length`.
    static let wholeRows = 4_096

    /// The rows' media type.
    let contentType: String
    /// What is logged of a run's invalid products: nil for nothing.
    let invalidProductsMessage: String?

    /// Answers `render`'s rows, at most `rows` of them: whole when they are at most
    /// ``wholeRows``; otherwise rendered on a thread of `pool` and answered once the first
    /// rows (or the error before them) are known. An error before any row is a 400 with the
    /// library's message; a later one ends the stream early, as `storeprice render` stops
    /// with the rows before it written.
    func response(rows: Int, pool: RenderPool, logger: Logger, render: @escaping Render) async throws -> Response {
        if rows <= Self.wholeRows { return try whole(pool: pool, logger: logger, render: render) }
        let channel = RowChannel()
        let started = pool.start { [self] in
            do {
                let report = try render { bytes in try channel.send(ByteBuffer(bytes: bytes)) }
                logInvalidProducts(report, logger: logger)
                channel.finish(throwing: nil)
            } catch is RowChannel.ClientGone {
                logger.info("client went away; rendering stopped")
                channel.finish(throwing: nil)
            } catch {
                // The client's catalog: its error is the client's, not the service's.
                logger.notice("render stopped", metadata: ["error": "\(error)"])
                channel.finish(throwing: error)
            }
        }
        guard started else { throw RenderPool.busy(limit: pool.limit) }
        var rows = channel.stream.makeAsyncIterator()
        let first: ByteBuffer?
        do {
            first = try await channel.next(&rows)
        } catch let error as StorePriceError {
            channel.close()
            throw ServiceError.badRequest(error.description)
        }
        let headers: HTTPFields = [.contentType: contentType]
        guard let first else {
            channel.close()
            var empty = headers
            empty[.contentLength] = "0"
            return Response(status: .ok, headers: empty, body: ResponseBody())
        }
        let rest = RemainingRows(iterator: rows)
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                defer { channel.close() }
                var rows = rest.iterator
                var next: ByteBuffer? = first
                while let buffer = next {
                    try await writer.write(buffer)
                    next = try await channel.next(&rows)
                }
                try await writer.finish(nil)
            })
    }

    /// Renders in the request's task and answers whole: the rows, or a 400 with the first
    /// error. It counts among the pool's renders at once.
    func whole(pool: RenderPool, logger: Logger, render: Render) throws -> Response {
        guard pool.reserve() else { throw RenderPool.busy(limit: pool.limit) }
        defer { pool.release() }
        var body = ByteBuffer()
        let report: RenderReport
        do {
            report = try render { body.writeBytes($0) }
        } catch let error as StorePriceError {
            logger.notice("render stopped", metadata: ["error": "\(error)"])
            throw ServiceError.badRequest(error.description)
        }
        logInvalidProducts(report, logger: logger)
        let headers: HTTPFields = [.contentType: contentType, .contentLength: "\(body.readableBytes)"]
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }

    private func logInvalidProducts(_ report: RenderReport, logger: Logger) {
        guard let message = invalidProductsMessage, let first = report.invalidProducts.first else { return }
        logger.notice("\(message)", metadata: ["count": "\(report.invalidProducts.count)", "first": "\(first)"])
    }
}

/// The iterator of a response's remaining rows, handed to the body's writer, which alone uses it.
private struct RemainingRows: @unchecked Sendable {
    var iterator: AsyncThrowingStream<ByteBuffer, any Error>.AsyncIterator
}
