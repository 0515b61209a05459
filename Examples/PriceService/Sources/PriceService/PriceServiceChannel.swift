import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Hummingbird's HTTP/1 channel, with two of NIO's handlers added: HTTP/1.0 answered in
/// HTTP/1.0 (``HTTP10Support``), and a connection whose client takes no byte for the write
/// timeout closed (NIO's `IdleStateHandler`, then ``WriteTimeoutHandler``), which ends its
/// render and frees its thread.
struct PriceServiceChannel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let base: HTTP1Channel

    /// How long a request head may take to arrive, from its first byte.
    let headTimeout: TimeAmount

    /// The server that builds this channel for each connection.
    static func server(writeTimeout: Duration, headTimeout: Duration) -> HTTPServerBuilder {
        let timeout = TimeAmount.nanoseconds(Int64(writeTimeout.components.seconds) * 1_000_000_000)
        let head = TimeAmount.nanoseconds(Int64(headTimeout.components.seconds) * 1_000_000_000)
        return HTTPServerBuilder { responder in
            PriceServiceChannel(
                base: HTTP1Channel(
                    responder: responder,
                    configuration: .init(additionalChannelHandlers: [IdleStateHandler(writeTimeout: timeout), WriteTimeoutHandler()])),
                headTimeout: head)
        }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { [headTimeout] value in
            // Between NIO's request decoder and Hummingbird's codec, where a request's version is known.
            let decoder = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            let http10 = HTTP10Support()
            try channel.pipeline.syncOperations.addHandler(http10, position: .after(decoder))
            // Where bytes arrive, the head's deadline; after the decoder, the checks of a head.
            let deadline = HeadDeadline(timeout: headTimeout)
            try channel.pipeline.syncOperations.addHandler(deadline, position: .first)
            try channel.pipeline.syncOperations.addHandler(RequestHeadChecks(deadline: deadline), position: .after(http10))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Closes a connection when NIO's `IdleStateHandler` says nothing was written for the write
/// timeout while a response was under way: a client that stopped reading. A keep-alive
/// connection between requests is left open.
final class WriteTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart

    /// Whether a response's head is written and its end is not.
    private var responding = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head: responding = true
        case .end: responding = false
        case .body: break
        }
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case IdleStateHandler.IdleStateEvent.write = event, responding {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}
