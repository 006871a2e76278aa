import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The open connections of one server, shared by every connection's guard.
package final class ConnectionCount: Sendable {
    private let count = NIOLockedValueBox(0)

    package init() {}

    /// Counts a new connection; `false` (and not counted) when `limit` are already open.
    package func open(limit: Int) -> Bool {
        count.withLockedValue { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    package func close() { count.withLockedValue { $0 -= 1 } }
}

/// The first handler on the plain-text side of a connection: counts it against the cap and
/// enforces the header timeout.
///
/// Over the cap, the connection is answered a JSON 503 with `Retry-After` and closed before
/// anything is read. The header timer starts at the first byte of each request and is
/// stopped by ``RequestHeadHandler`` when the request's head has been parsed; if it fires,
/// the connection closes.
package final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    package typealias InboundIn = ByteBuffer
    package typealias OutboundIn = ByteBuffer
    package typealias OutboundOut = ByteBuffer

    private enum Phase { case inactive, refused, awaitingRequest, readingHead, inRequest, closed }

    private let limits: ConnectionLimits
    private let connections: ConnectionCount
    private let logger: Logger
    private var phase = Phase.inactive
    private var headerDeadline: Scheduled<Void>?
    private var context: ChannelHandlerContext?

    package init(limits: ConnectionLimits, connections: ConnectionCount, logger: Logger) {
        self.limits = limits
        self.connections = connections
        self.logger = logger
    }

    package static let refusal: ByteBuffer = {
        let body = #"{"error":"server_busy","message":"The server has too many open connections. Please try again shortly.","retry_after":1}"#
        let head = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"
            + "Cache-Control: no-store\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        return ByteBuffer(string: head + body)
    }()

    package func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { activate(context) }
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        headerDeadline?.cancel()
        self.context = nil
    }

    package func channelActive(context: ChannelHandlerContext) {
        activate(context)
        context.fireChannelActive()
    }

    private func activate(_ context: ChannelHandlerContext) {
        guard phase == .inactive else { return }
        guard connections.open(limit: limits.maxConnections) else {
            phase = .refused
            logger.warning("Connection refused: too many open connections", metadata: ["limit": "\(limits.maxConnections)"])
            context.writeAndFlush(wrapOutboundOut(Self.refusal)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            return
        }
        phase = .awaitingRequest
    }

    package func channelInactive(context: ChannelHandlerContext) {
        headerDeadline?.cancel()
        if phase != .refused && phase != .inactive { connections.close() }
        phase = .closed
        context.fireChannelInactive()
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch phase {
        case .refused, .closed, .inactive:
            return  // Nothing from a refused connection is parsed.
        case .awaitingRequest:
            phase = .readingHead
            let seconds = limits.headerTimeout
            headerDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(seconds * 1000))) { [weak self] in
                self?.headerTimedOut()
            }
        case .readingHead, .inRequest:
            break
        }
        context.fireChannelRead(data)
    }

    private func headerTimedOut() {
        guard phase == .readingHead, let context else { return }
        logger.info("Connection closed: request headers too slow", metadata: ["timeout": "\(limits.headerTimeout)"])
        context.close(promise: nil)
    }

    /// The request's head is complete: the header timer stops until the response is written.
    package func headReceived() {
        headerDeadline?.cancel()
        headerDeadline = nil
        if phase == .readingHead || phase == .awaitingRequest { phase = .inRequest }
    }

    /// The response is written: the next byte starts the next request's header timer.
    package func responseEnded() {
        if phase == .inRequest { phase = .awaitingRequest }
    }
}
