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
/// The composition root: it builds the pipeline and the enabled feature services
/// (``GatehouseServices/compose(_:repository:deliveries:logger:)``) and mounts each surface the
/// configuration turns on, handing each only the services it serves. It holds no behaviour of its own.
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
    try await buildRouterAndServices(configuration, repository: repository, deliveries: deliveries, logger: logger).router
}

/// ``buildRouter(_:repository:deliveries:logger:)``, with the services it composed, for the
/// application's background work (the purge of accounts whose grace period is over, the outbox).
package func buildRouterAndServices(
    _ configuration: GatehouseConfiguration,
    repository: some GatehouseRepository,
    deliveries: DeliveryQueue? = nil,
    logger: Logger
) async throws -> (router: Router<GatehouseRequestContext>, services: GatehouseServices, outbox: MessageOutbox) {
    let composition = try await GatehouseServices.compose(configuration, repository: repository, deliveries: deliveries, logger: logger)
    let services = composition.services, pipeline = services.pipeline
    let router = Router(context: GatehouseRequestContext.self)
    // Outermost: a request's mail and notices start once its answer is written.
    router.add(middleware: AnswerHoldMiddleware())
    router.add(middleware: ClientMiddleware(trustedProxies: configuration.trustedProxies, servesTLS: configuration.tls != nil))
    router.add(middleware: SecurityHeadersMiddleware(formTargets: configuration.providers.compactMap(\.origin)))
    if configuration.logRequests {
        router.add(middleware: RequestLogMiddleware(level: .info))
    }
    // Request counts and durations by route and status (only recorded when `serve --metrics-port` bootstrapped a registry).
    if configuration.metrics != nil {
        router.add(middleware: MetricsMiddleware())
        router.add(middleware: ErrorResponseMiddleware())
    }
    router.add(middleware: JSONErrorMiddleware())
    AuthController(pipeline: pipeline).addRoutes(to: router)
    AccountController(pipeline: pipeline, accounts: services.accounts, deletion: services.deletion).addRoutes(to: router)
    if let emailChange = services.emailChange { EmailChangeController(pipeline: pipeline, emailChange: emailChange).addRoutes(to: router) }
    if let passkeys = services.passkeys { PasskeyController(pipeline: pipeline, passkeys: passkeys).addRoutes(to: router) }
    SessionController(pipeline: pipeline, devices: services.devices).addRoutes(to: router)
    if let factors = services.factors { FactorController(pipeline: pipeline, factors: factors).addRoutes(to: router) }
    WellKnownController(options: configuration.passkeys).addRoutes(to: router)
    if let phone = services.phone { PhoneController(pipeline: pipeline, phone: phone).addRoutes(to: router) }
    try GraphQLController(services: services, messages: configuration.login.messages, limits: configuration.graphQL).addRoutes(to: router)
    if let anonKey = configuration.supabaseAnonKey {
        GoTrueController(services: services, anonKey: anonKey).addRoutes(to: router)
    }
    if let serviceRoleKey = configuration.serviceRoleKey {
        var admin = UserAdministration(
            repository: repository, numbers: LibPhoneNumber(), hasher: composition.hasher, rules: configuration.login.rules,
            clock: configuration.clock, events: composition.events, actor: .serviceRole, passwordPolicy: services.passwordPolicy
        )
        if let providers = services.providers { admin.beforeDeleting = { try await providers.revokeGrants(userID: $0.id) } }
        GoTrueAdminController(admin: admin, serviceRoleKey: serviceRoleKey, offersFactors: services.factors != nil).addRoutes(to: router)
    }
    let analyticsKey = try await repository.key(named: WebAnalytics.keyName)
    if let providers = services.providers {
        GoogleController(pipeline: pipeline, offersGoogle: configuration.google != nil).addRoutes(to: router)
        if configuration.providers.contains(where: { $0.kind == .apple }) {
            AppleController(pipeline: pipeline, providers: providers).addRoutes(to: router)
        }
        ProviderFlowController(pipeline: pipeline, providers: providers, analyticsKey: analyticsKey).addRoutes(to: router)
    }
    WebController(services: services, resources: try WebResources.load(), analyticsKey: analyticsKey).addRoutes(to: router)
    router.get("/.well-known/jwks.json") { _, _ in
        try JSONBody.response(try await composition.keys.jwks())
    }
    router.get("/health") { _, _ in try JSONBody.response(["status": "ok"]) }
    return (router, services, composition.outbox)
}

/// The password sign-ins of the surfaces ``buildRouter(_:repository:deliveries:logger:)`` mounts
/// for `configuration` (GraphQL's is a mutation in a body, so it has none).
package func passwordSignInRoutes(_ configuration: GatehouseConfiguration) -> [PasswordSignInRoute] {
    [AuthController.passwordSignIn, WebController.passwordSignIn] + (configuration.supabaseAnonKey != nil ? [GoTrueController.passwordSignIn] : [])
}

/// Answers those sign-ins from the hashing thread they run on, where they run on one (an
/// SQLite file, ``SignInPipeline/passwordSignInThreads``); `nil` elsewhere.
package func hashingThreadResponder(_ configuration: GatehouseConfiguration, pipeline: SignInPipeline) -> HashingThreadResponder? {
    pipeline.passwordSignInThreads.map { HashingThreadResponder(pool: $0, routes: passwordSignInRoutes(configuration)) }
}
