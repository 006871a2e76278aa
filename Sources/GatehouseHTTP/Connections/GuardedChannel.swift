import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL

/// An HTTP/1 child channel (plain or TLS) with Gatehouse's connection guards in its pipeline.
///
/// After the wrapped channel's own setup, a ``ConnectionGuardHandler`` goes on the plain-text
/// side (first, or right after TLS) and a ``RequestHeadHandler`` right after the HTTP parser.
/// Hummingbird's own idle timeout closes connections with nothing to do.
package struct GuardedChannel<Base: ServerChildChannel & HTTPChannelHandler>: ServerChildChannel, HTTPChannelHandler {
    package typealias Value = Base.Value

    package let base: Base
    package let limits: ConnectionLimits
    package let connections: ConnectionCount
    /// Where password sign-ins are answered, when on a hashing thread: each connection is
    /// then served with a ``ConnectionExecutor``.
    package let hashing: HashingThreadResponder?

    package var responder: HTTPChannelHandler.Responder { base.responder }

    package init(base: Base, limits: ConnectionLimits, connections: ConnectionCount, hashing: HashingThreadResponder?) {
        self.base = base
        self.limits = limits
        self.connections = connections
        self.hashing = hashing
    }

    package func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let guardHandler = ConnectionGuardHandler(limits: limits, connections: connections, logger: logger)
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(RequestHeadHandler(guardHandler: guardHandler), position: .after(decoder))
            if let tls = try? pipeline.handler(type: NIOSSLServerHandler.self) {
                try pipeline.addHandler(guardHandler, position: .after(tls))
            } else {
                try pipeline.addHandler(guardHandler, position: .first)
            }
            return value
        }
    }

    package func handle(value: Value, logger: Logger) async {
        guard let hashing else { return await base.handle(value: value, logger: logger) }
        await hashing.serving { await base.handle(value: value, logger: logger) }
    }
}
