import NIOCore
import NIOHTTP1

/// What HTTP/1.1 asks of a server before a request reaches the routes (RFC 9110 and 9112):
///
/// - exactly one `Host` in an HTTP/1.1 request, else `400` (RFC 9112, 3.2);
/// - no transfer coding but `chunked`, else `501` (RFC 9112, 6.1: one the server does not
///   implement);
/// - `Expect: 100-continue` answered with `100 Continue`, so that a client such as curl sends its
///   body at once rather than after a second's wait (RFC 9110, 10.1.1), or with `413` at once when
///   the body it declares is over ``PriceService/bodyLimit``; any other expectation is a `417`;
/// - a request head that trickles in has ``HeadDeadline``'s time, as a body has `BODY_TIMEOUT`.
///
/// A refused request is answered here, in JSON as every error is, and its connection closed: what
/// follows it on the connection can no longer be told apart from it.
final class RequestHeadChecks: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let deadline: HeadDeadline
    /// Whether the request being read was refused: its body is dropped, and the connection closes.
    private var refused = false

    init(deadline: HeadDeadline) {
        self.deadline = deadline
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            deadline.headRead()
            if let (status, message) = Self.problem(with: head) {
                refused = true
                refuse(context: context, version: head.version, status: status, message: message)
                return
            }
            let expectation = head.headers[canonicalForm: "expect"].first?.lowercased()
            if expectation == "100-continue" {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
            }
            context.fireChannelRead(data)
        case .body:
            if !refused { context.fireChannelRead(data) }
        case .end:
            deadline.requestRead()
            if !refused { context.fireChannelRead(data) }
        }
    }

    /// The status and message a head is refused with, or nil.
    static func problem(with head: HTTPRequestHead) -> (HTTPResponseStatus, String)? {
        let hosts = head.headers["Host"]
        if head.version == .http1_1 && hosts.count != 1 || hosts.count > 1 {
            return (.badRequest, hosts.isEmpty ? "an HTTP/1.1 request names its Host" : "a request names one Host, not \(hosts.count)")
        }
        let codings = head.headers[canonicalForm: "transfer-encoding"].map { $0.lowercased() }
        if let other = codings.first(where: { $0 != "chunked" }) {
            return (.notImplemented, "transfer coding '\(other.quotedForMessage)' is not read here; send the body as it is, or chunked")
        }
        if let expectation = head.headers[canonicalForm: "expect"].first {
            guard expectation.lowercased() == "100-continue" else {
                return (.expectationFailed, "Expect: '\(String(expectation).quotedForMessage)' is not met here; only 100-continue is")
            }
            if let length = head.headers["Content-Length"].first.flatMap({ Int($0) }), length > PriceService.bodyLimit {
                return (.payloadTooLarge, "the catalog is larger than \(PriceService.bodyLimit >> 20) MiB; render a larger one with the storeprice CLI")
            }
        }
        return nil
    }

    private func refuse(context: ChannelHandlerContext, version: HTTPVersion, status: HTTPResponseStatus, message: String) {
        let body = ByteBuffer(string: #"{"error":"\#(Self.jsonEscaped(message))"}"# + "\n")
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }

    static func jsonEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}

/// The time a request head has to arrive, from its first byte: a client that sends one byte a
/// second would otherwise hold its connection as long as it likes. Past it, `408` and the
/// connection is closed. A keep-alive connection between requests has no deadline.
///
/// It sits first in the pipeline, where bytes arrive, and ``RequestHeadChecks`` after the
/// decoder tells it when a head is read and when a request has ended; both run on the
/// connection's event loop.
final class HeadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let timeout: TimeAmount
    private var waitingForHead = true
    private var timer: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if waitingForHead, timer == nil, unwrapInboundIn(data).readableBytes > 0 {
            let bound = NIOLoopBound((context, self), eventLoop: context.eventLoop)
            timer = context.eventLoop.scheduleTask(in: timeout) {
                let (context, handler) = bound.value
                guard handler.waitingForHead else { return }
                let message = #"{"error":"the request's head took longer than \#(handler.timeout.nanoseconds / 1_000_000_000) s to arrive; send it at once"}"# + "\n"
                let response = "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\n"
                    + "Content-Length: \(message.utf8.count)\r\nConnection: close\r\n\r\n" + message
                context.writeAndFlush(NIOAny(ByteBuffer(string: response))).whenComplete { _ in bound.value.0.close(promise: nil) }
            }
        }
        context.fireChannelRead(data)
    }

    /// The head is read: the request has no deadline now (its body has `BODY_TIMEOUT`).
    func headRead() {
        waitingForHead = false
        timer?.cancel()
        timer = nil
    }

    /// The request has ended: the next bytes are a new head.
    func requestRead() {
        waitingForHead = true
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }
}
