import GatehouseCore
import GatehouseHTTP
import GatehouseSQL
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import NIOCore
import NIOSSL
import Logging
import ServiceLifecycle

/// Builds the Gatehouse application: storage, keys, hashing and routes, ready to run.
///
/// The database is opened and migrated and the signing key loaded before this returns.
/// - Parameters:
///   - configuration: how the server runs.
///   - logger: where the server logs; it never receives a password or token.
///   - onServerRunning: called with the bound port once the server listens.
public func buildApplication(
    _ configuration: GatehouseConfiguration,
    logger: Logger = Logger(label: "gatehouse"),
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    let storage = try await Storage.open(try DatabaseLocation(configuration.databasePath), logger: logger)
    let repository = storage.repository
    let deliveries = DeliveryQueue(logger: logger)
    let audit = configuration.audit.enabled ? AuditLog.compose(configuration, repository: repository, logger: logger) : nil
    // The pipeline reports to the audit log and to any sink the caller gave.
    var composed = configuration
    let sinks = [configuration.events, audit].compactMap { $0 }
    composed.events = sinks.count > 1 ? EventFanOut(sinks) : sinks.first
    let router: Router<GatehouseRequestContext>
    let services: GatehouseServices
    let outbox: MessageOutbox
    do {
        // Migrated (or checked) before the routes are built: the services read server secrets from the schema.
        if configuration.migrateOnStart {
            try await repository.migrate()
        } else {
            try await repository.requireCurrentSchema()
        }
        (router, services, outbox) = try await buildRouterAndServices(composed, repository: repository, deliveries: deliveries, logger: logger)
        // Written batches leave through the outbox's audit channel, registered when a webhook is set.
        if configuration.audit.webhook != nil { audit?.forward(through: outbox) }
    } catch {
        try? await storage.close()
        throw error
    }
    let clock = configuration.clock
    let metrics = configuration.metrics.map { endpoint in
        MetricsServer.make(endpoint, sessions: repository, clock: clock, logger: logger) as any Service
    }
    // Messages left in the outbox (retries, a killed process's) are sent by every instance's
    // worker; on SQLite one server owns the file, so a lease found at start is a dead process's.
    let sqlite = if case .sqlite = try DatabaseLocation(configuration.databasePath) { true } else { false }
    let worker = OutboxWorker(outbox: outbox, releasesLeasesAtStart: sqlite)
    // Accounts their owners deleted with a grace period go once it is over; unused guests go too.
    let deletion = configuration.accounts.deletionGraceDays > 0 ? services.deletion : nil
    let purge = deletion != nil || services.guests != nil
        ? AccountPurge(deletion: deletion, guests: services.guests, logger: logger) as any Service : nil
    let hashingThreads = hashingThreadResponder(configuration, pipeline: services.pipeline)
    let app = Application(
        router: router,
        server: try serverBuilder(configuration, hashingThreads: hashingThreads),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Gatehouse"),
        // Services stop in reverse after the server: the metrics listener, then the audit log
        // writes what is left (its forwards joining the outbox), then the outbox's worker ends
        // its pass, then the queue drains (what it does not send stays in the outbox), then
        // storage closes.
        services: [storage, storage.changeFeed, deliveries, worker] + [audit as (any Service)?, metrics, purge].compactMap { $0 },
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
        logger: logger
    )
    return app
}

/// HTTP/1, over TLS when configured, with the connection guards (see ``GuardedChannel``), and
/// the password sign-ins answered from `hashingThreads` when given, each connection then served
/// with a ``ConnectionExecutor``.
package func serverBuilder(_ configuration: GatehouseConfiguration, hashingThreads: HashingThreadResponder?) throws -> HTTPServerBuilder {
    let limits = configuration.connections
    let connections = ConnectionCount()
    let http1 = HTTP1Channel.Configuration(idleTimeout: .milliseconds(Int64(limits.idleTimeout * 1000)))
    let tls = try configuration.tls.map(tlsConfiguration)
    return HTTPServerBuilder { base in
        let responder = hashingThreads?.wrapping(base) ?? base
        let plain = HTTP1Channel(responder: responder, configuration: http1)
        guard let tls else { return GuardedChannel(base: plain, limits: limits, connections: connections, hashing: hashingThreads) }
        return GuardedChannel(base: try TLSChannel(plain, tlsConfiguration: tls), limits: limits, connections: connections, hashing: hashingThreads)
    }
}

/// A TLS 1.2+ server configuration from PEM files.
package func tlsConfiguration(_ files: TLSFiles) throws -> TLSConfiguration {
    let chain = try NIOSSLCertificate.fromPEMFile(files.certificateChainPath).map { NIOSSLCertificateSource.certificate($0) }
    let key = try NIOSSLPrivateKey(file: files.privateKeyPath, format: .pem)
    var tls = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
    tls.minimumTLSVersion = .tlsv12
    return tls
}
