import NIOCore
import NIOHTTP1

/// Sits right after the HTTP/1 parser: tells the ``ConnectionGuardHandler`` when a request's
/// head is complete and its response written, and makes a request that does not ask to keep
/// the connection alive (HTTP/1.0 by default, or `Connection: close`) close it afterwards.
final class RequestHeadHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let guardHandler: ConnectionGuardHandler

    init(guardHandler: ConnectionGuardHandler) {
        self.guardHandler = guardHandler
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        guardHandler.headReceived()
        if !head.isKeepAlive {
            // The server closes after the response when it sees exactly `close`.
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { guardHandler.responseEnded() }
        context.write(data, promise: promise)
    }
}
