import GatehouseCore
import GatehouseHTTP
import GatehousePhoneNumbers
import GraphQLSurface
import Hummingbird
import Logging
import RESTSurface
import SupabaseSurface
import WebSurface

/// Builds the router with every Gatehouse route, over any repository.
///
/// The composition root: it builds the pipeline (``AuthService/compose(_:repository:deliveries:logger:)``)
/// and mounts each surface the configuration turns on. It holds no behaviour of its own.
/// - Parameters:
///   - configuration: token lifetimes, hashing cost, the features and the clock.
///   - repository: where users and sessions live.
///   - deliveries: the queue that sends messages off the request path; the caller runs it.
///   - logger: the services' logger.
public func buildRouter(
    _ configuration: GatehouseConfiguration,
    repository: some GatehouseRepository,
    deliveries: DeliveryQueue? = nil,
    logger: Logger
) async throws -> Router<GatehouseRequestContext> {
    let (service, keys) = try await AuthService.compose(configuration, repository: repository, deliveries: deliveries, logger: logger)
    let router = Router(context: GatehouseRequestContext.self)
    router.add(middleware: ClientMiddleware(trustedProxies: configuration.trustedProxies, servesTLS: configuration.tls != nil))
    router.add(middleware: SecurityHeadersMiddleware(formTargets: configuration.google.flatMap { $0.origin }.map { [$0] } ?? []))
    if configuration.logRequests {
        router.add(middleware: RequestLogMiddleware(level: .info))
    }
    // Request counts and durations by route and status (only recorded when `serve --metrics-port` bootstrapped a registry).
    if configuration.metrics != nil {
        router.add(middleware: MetricsMiddleware())
        router.add(middleware: ErrorResponseMiddleware())
    }
    router.add(middleware: JSONErrorMiddleware())
    AuthController(service: service).addRoutes(to: router)
    AccountController(service: service).addRoutes(to: router)
    if service.passkeys != nil { PasskeyController(service: service).addRoutes(to: router) }
    SessionController(service: service).addRoutes(to: router)
    WellKnownController(options: configuration.passkeys).addRoutes(to: router)
    if service.phone != nil { PhoneController(service: service).addRoutes(to: router) }
    try GraphQLController(service: service, messages: configuration.login.messages, limits: configuration.graphQL).addRoutes(to: router)
    if let anonKey = configuration.supabaseAnonKey {
        GoTrueController(service: service, anonKey: anonKey).addRoutes(to: router)
    }
    if let serviceRoleKey = configuration.serviceRoleKey {
        let admin = UserAdministration(
            repository: repository, numbers: LibPhoneNumber(), hasher: service.hasher, rules: configuration.login.rules,
            clock: configuration.clock, events: configuration.events, actor: .serviceRole
        )
        GoTrueAdminController(admin: admin, serviceRoleKey: serviceRoleKey).addRoutes(to: router)
    }
    if service.google != nil {
        GoogleController(service: service).addRoutes(to: router)
        ProviderFlowController(service: service).addRoutes(to: router)
    }
    WebController(service: service, resources: try WebResources.load()).addRoutes(to: router)
    router.get("/.well-known/jwks.json") { _, _ in
        try JSONBody.response(try await keys.jwks())
    }
    router.get("/health") { _, _ in try JSONBody.response(["status": "ok"]) }
    return router
}
