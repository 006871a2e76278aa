import Hummingbird
import Logging

/// Builds the Gatehouse application: storage, keys, hashing and routes, ready to run.
///
/// The database is opened and the signing key loaded before this returns; the schema is
/// migrated before the server accepts its first request.
/// - Parameters:
///   - configuration: how the server runs.
///   - logger: where the server logs; it never receives a password or token.
///   - onServerRunning: called with the bound port once the server listens.
public func buildApplication(
    _ configuration: GatehouseConfiguration,
    logger: Logger = Logger(label: "gatehouse"),
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    let database = try await SQLiteDatabase(path: configuration.databasePath, logger: logger)
    let repository = SQLRepository(database: database.sql)
    let router = try await buildRouter(configuration, repository: repository, logger: logger)
    var app = Application(
        router: router,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Gatehouse"),
        services: [database],
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
        logger: logger
    )
    app.beforeServerStarts {
        try await repository.migrate()
    }
    return app
}

/// Builds the router with every Gatehouse route, over any repository.
/// - Parameters:
///   - configuration: token lifetimes, hashing cost and the clock.
///   - repository: where users and sessions live.
///   - logger: the services' logger.
public func buildRouter(
    _ configuration: GatehouseConfiguration,
    repository: some UserRepository & SessionRepository,
    logger: Logger
) async throws -> Router<GatehouseRequestContext> {
    let signingKey = try configuration.resolvedSigningKeyPath.map(SigningKey.loadOrCreate(at:)) ?? SigningKey.ephemeral()
    let tokens = await TokenIssuer(
        signingKey: signingKey, issuer: configuration.issuer, audience: configuration.audience,
        lifetime: configuration.accessTokenLifetime
    )
    let service = try await AuthService(
        users: repository, sessions: repository, hasher: PasswordHasher(parameters: configuration.argon2),
        tokens: tokens, configuration: configuration, logger: logger
    )
    let router = Router(context: GatehouseRequestContext.self)
    router.add(middleware: SecurityHeadersMiddleware())
    if configuration.logRequests {
        router.add(middleware: LogRequestsMiddleware(.info))
    }
    router.add(middleware: JSONErrorMiddleware())
    AuthController(service: service).addRoutes(to: router)
    try GraphQLController(service: service, messages: configuration.login.messages).addRoutes(to: router)
    if let anonKey = configuration.supabaseAnonKey {
        GoTrueController(service: service, anonKey: anonKey).addRoutes(to: router)
    }
    WebController(service: service, resources: try WebResources.load()).addRoutes(to: router)
    router.get("/.well-known/jwks.json") { _, _ in
        try JSONBody.response(["keys": [signingKey.jwk]])
    }
    router.get("/health") { _, _ in try JSONBody.response(["status": "ok"]) }
    return router
}
