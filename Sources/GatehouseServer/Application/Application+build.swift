import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import NIOCore
import NIOSSL
import Logging

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
    let router: Router<GatehouseRequestContext>
    do {
        // Migrated (or checked) before the routes are built: the services read server secrets from the schema.
        if configuration.migrateOnStart {
            try await repository.migrate()
        } else {
            try await repository.requireCurrentSchema()
        }
        router = try await buildRouter(configuration, repository: repository, deliveries: deliveries, logger: logger)
    } catch {
        try? await storage.close()
        throw error
    }
    let app = Application(
        router: router,
        server: try serverBuilder(configuration),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Gatehouse"),
        // The queue is stopped before storage (services stop in reverse), so its jobs finish.
        services: [storage, deliveries],
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
        logger: logger
    )
    return app
}

/// HTTP/1, over TLS when configured, with the connection guards (see ``GuardedChannel``).
func serverBuilder(_ configuration: GatehouseConfiguration) throws -> HTTPServerBuilder {
    let limits = configuration.connections
    let connections = ConnectionCount()
    let http1 = HTTP1Channel.Configuration(idleTimeout: .milliseconds(Int64(limits.idleTimeout * 1000)))
    let tls = try configuration.tls.map(tlsConfiguration)
    return HTTPServerBuilder { responder in
        let plain = HTTP1Channel(responder: responder, configuration: http1)
        guard let tls else { return GuardedChannel(base: plain, limits: limits, connections: connections) }
        return GuardedChannel(base: try TLSChannel(plain, tlsConfiguration: tls), limits: limits, connections: connections)
    }
}

/// A TLS 1.2+ server configuration from PEM files.
func tlsConfiguration(_ files: TLSFiles) throws -> TLSConfiguration {
    let chain = try NIOSSLCertificate.fromPEMFile(files.certificateChainPath).map { NIOSSLCertificateSource.certificate($0) }
    let key = try NIOSSLPrivateKey(file: files.privateKeyPath, format: .pem)
    var tls = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
    tls.minimumTLSVersion = .tlsv12
    return tls
}

/// Builds the router with every Gatehouse route, over any repository.
/// - Parameters:
///   - configuration: token lifetimes, hashing cost and the clock.
///   - repository: where users and sessions live.
///   - deliveries: the queue that sends messages off the request path; the caller runs it.
///   - logger: the services' logger.
public func buildRouter(
    _ configuration: GatehouseConfiguration,
    repository: some UserRepository & SessionRepository & ThrottleRepository & SecretRepository & SigningKeyRepository
        & PhoneCodeRepository & OIDCFlowRepository,
    deliveries: DeliveryQueue? = nil,
    logger: Logger
) async throws -> Router<GatehouseRequestContext> {
    let location = try DatabaseLocation(configuration.databasePath)
    let keys = KeyRing(
        repository: repository, kek: try KeyEncryptionKey.resolve(configuration.keyEncryptionKey, location: location),
        refreshInterval: .milliseconds(Int64(configuration.signingKeyRefreshInterval * 1000))
    )
    try await keys.start(legacyKeyFile: configuration.legacySigningKeyPath, now: configuration.clock())
    let tokens = TokenIssuer(
        keys: keys, issuer: configuration.issuer, audience: configuration.audience, lifetime: configuration.accessTokenLifetime
    )
    let service = try await AuthService(
        repository: repository, hasher: PasswordHasher(parameters: configuration.argon2, pool: HashingPool.shared(configuration.hashing)),
        tokens: tokens, configuration: configuration, deliveries: deliveries, logger: logger
    )
    let router = Router(context: GatehouseRequestContext.self)
    router.add(middleware: ClientMiddleware(trustedProxies: configuration.trustedProxies, servesTLS: configuration.tls != nil))
    router.add(middleware: SecurityHeadersMiddleware(formTargets: configuration.google.flatMap { $0.origin }.map { [$0] } ?? []))
    if configuration.logRequests {
        router.add(middleware: RequestLogMiddleware(level: .info))
    }
    router.add(middleware: JSONErrorMiddleware())
    AuthController(service: service).addRoutes(to: router)
    if configuration.phone.enabled { PhoneController(service: service).addRoutes(to: router) }
    try GraphQLController(service: service, messages: configuration.login.messages).addRoutes(to: router)
    if let anonKey = configuration.supabaseAnonKey {
        GoTrueController(service: service, anonKey: anonKey).addRoutes(to: router)
    }
    if configuration.google != nil { GoogleController(service: service).addRoutes(to: router) }
    WebController(service: service, resources: try WebResources.load()).addRoutes(to: router)
    router.get("/.well-known/jwks.json") { _, _ in
        try JSONBody.response(try await keys.jwks())
    }
    router.get("/health") { _, _ in try JSONBody.response(["status": "ok"]) }
    return router
}
