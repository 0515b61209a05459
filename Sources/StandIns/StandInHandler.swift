import NIOCore
import NIOHTTP1
import NIOPosix

/// A stand-in's connection: it answers each request, once its head and body have come, with what
/// `answer` gives, after the latency.
final class StandInHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    let latency: TimeAmount
    let answer: @Sendable (HTTPRequestHead, [UInt8]) -> (HTTPResponseStatus, [(String, String)], [UInt8])
    let finished: @Sendable () -> Void
    var head: HTTPRequestHead?
    var body: [UInt8] = []

    init(
        latency: TimeAmount, answer: @escaping @Sendable (HTTPRequestHead, [UInt8]) -> (HTTPResponseStatus, [(String, String)], [UInt8]),
        finished: @escaping @Sendable () -> Void
    ) {
        self.latency = latency
        self.answer = answer
        self.finished = finished
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
        case .body(let part): body += part.readableBytesView
        case .end:
            guard let head else { return }
            let (status, fields, body) = answer(head, body)
            var headers = HTTPHeaders(fields)
            headers.add(name: "Content-Length", value: String(body.count))
            let response = HTTPResponseHead(version: head.version, status: status, headers: headers)
            let bound = NIOLoopBound((context, self), eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: latency) {
                let (context, handler) = bound.value
                context.write(handler.wrapOutboundOut(.head(response)), promise: nil)
                context.write(handler.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
                context.writeAndFlush(handler.wrapOutboundOut(.end(nil)), promise: nil)
                handler.finished()
            }
        }
    }

    /// A server on `host` and `port` (0: any free port) answering each request with `answer`.
    static func serve(
        host: String, port: Int, latency: Duration,
        answer: @escaping @Sendable (HTTPRequestHead, [UInt8]) -> (HTTPResponseStatus, [(String, String)], [UInt8]),
        finished: @escaping @Sendable () -> Void
    ) throws -> any Channel {
        let delay = TimeAmount.nanoseconds(latency.components.seconds * 1_000_000_000 + latency.components.attoseconds / 1_000_000_000)
        return try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(StandInHandler(latency: delay, answer: answer, finished: finished))
                }
            }
            .bind(host: host, port: port).wait()
    }
}
