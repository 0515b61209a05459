import NIOCore
import NIOHTTP1

/// Answers an HTTP/1.0 request in HTTP/1.0: the body is sent as it is (HTTP/1.0 has no chunked
/// encoding) and the connection is closed after the response, which ends a body of unknown length.
///
/// Hummingbird answers every request as HTTP/1.1; this handler sits between NIO's HTTP/1 codec
/// and Hummingbird's, where a request's version is still known.
final class HTTP10Support: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The versions of the requests not yet answered, in order.
    private var versions: [HTTPVersion] = []
    private var closesAfterResponse = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) { versions.append(head.version) }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where versions.first == .http1_0:
            head.version = .http1_0
            head.headers.remove(name: "transfer-encoding")
            head.headers.replaceOrAdd(name: "connection", value: "close")
            closesAfterResponse = true
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end:
            if !versions.isEmpty { versions.removeFirst() }
            guard closesAfterResponse else { return context.write(data, promise: promise) }
            closesAfterResponse = false
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(data).whenComplete { result in
                promise?.completeWith(result)
                bound.value.close(promise: nil)
            }
        default:
            context.write(data, promise: promise)
        }
    }
}
