import ArgumentParser
import Foundation
import GatehouseHTTP
import GatehouseServer

/// `serve`'s options for TLS, timeouts and the connection cap.
public struct ConnectionOptions: ParsableArguments {
    public init() {}

    @Option(help: "A PEM certificate chain; with --tls-key the server speaks only HTTPS and sends HSTS.")
    var tlsCert: String?

    @Option(help: "The PEM private key of --tls-cert.")
    var tlsKey: String?

    @Option(help: "Seconds a connection may stay open with nothing to do (default 30).")
    var idleTimeout: Double = ConnectionLimits().idleTimeout

    @Option(help: "Seconds from a request's first byte to the end of its headers (default 10).")
    var headerTimeout: Double = ConnectionLimits().headerTimeout

    @Option(help: "Connections open at once; more are answered 503 (default: 3/4 of the file limit, at most 16384).")
    var maxConnections: Int = ConnectionLimits().maxConnections

    public func validate() throws {
        guard idleTimeout > 0, headerTimeout > 0, idleTimeout.isFinite, headerTimeout.isFinite else {
            throw ValidationError("timeouts must be positive numbers of seconds")
        }
        guard maxConnections > 0 else { throw ValidationError("--max-connections must be positive") }
        switch (tlsCert, tlsKey) {
        case (nil, nil): break
        case (let cert?, let key?):
            for (flag, path) in [("--tls-cert", cert), ("--tls-key", key)] where !FileManager.default.isReadableFile(atPath: path) {
                throw ValidationError("\(flag) \(path): no such readable file")
            }
        default: throw ValidationError("--tls-cert and --tls-key go together")
        }
    }

    /// The URL scheme clients use.
    var scheme: String { tlsCert == nil ? "http" : "https" }

    /// Applies the options to a server configuration.
    func apply(to configuration: inout GatehouseConfiguration) {
        configuration.connections.idleTimeout = idleTimeout
        configuration.connections.headerTimeout = headerTimeout
        configuration.connections.maxConnections = maxConnections
        if let tlsCert, let tlsKey {
            configuration.tls = TLSFiles(certificateChainPath: tlsCert, privateKeyPath: tlsKey)
        }
    }
}
