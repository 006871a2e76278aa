import NIOCore
import NIOHTTP1

/// Sits right after the HTTP/1 parser: tells the ``ConnectionGuardHandler`` when a request's
/// head is complete and its response written, and makes a request that does not ask to keep
/// the connection alive (HTTP/1.0 by default, or `Connection: close`) close it afterwards.
package final class RequestHeadHandler: ChannelDuplexHandler, RemovableChannelHandler {
    package typealias InboundIn = HTTPServerRequestPart
    package typealias InboundOut = HTTPServerRequestPart
    package typealias OutboundIn = HTTPServerResponsePart
    package typealias OutboundOut = HTTPServerResponsePart

    private let guardHandler: ConnectionGuardHandler

    package init(guardHandler: ConnectionGuardHandler) {
        self.guardHandler = guardHandler
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
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

    package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { guardHandler.responseEnded() }
        context.write(data, promise: promise)
    }
}
