import Foundation
import LoginCore

/// The SDK's entry point: sign in, keep the session fresh and stored, sign out.
///
/// ```swift
/// let client = try AuthClient(server: URL(string: "https://auth.example.com")!)
/// switch await client.restore() {
/// case .signedIn, .offline: showHome()
/// case .ended: showLogin(message: LoginForm().configuration.messages.text(.sessionExpired))
/// case .signedOut, .storeLocked: showLogin()
/// }
/// ```
///
/// Everything time-related uses ``ClientConfiguration/now``, and every network call goes
/// through the injected ``AuthTransport``, so tests control both.
public final class AuthClient: Sendable {
    let manager: SessionManager
    let events = SessionEvents()
    /// The screens' analytics events, as ``perform(_:)`` runs their `.track` effects.
    let analyticsEvents = Broadcast<AnalyticsEvent>()
    let transport: any AuthTransport
    let http: any HTTPExecutor
    let configuration: ClientConfiguration
    /// Whether this device accepted seed 003's offer.
    let passkeyMarker: any PasskeyMarker

    /// Creates a client.
    /// - Parameters:
    ///   - transport: how to reach the auth server.
    ///   - store: where the session is kept between launches.
    ///   - http: how authorised requests to your own API are sent.
    ///   - configuration: margins, budgets, backoff and the clock.
    ///   - passkeyMarker: where "this device accepted the biometric offer" is kept.
    public init(
        transport: any AuthTransport, store: any SessionStore, http: any HTTPExecutor = URLSessionExecutor(),
        configuration: ClientConfiguration = ClientConfiguration(), passkeyMarker: any PasskeyMarker = InMemoryPasskeyMarker()
    ) {
        self.transport = transport
        self.passkeyMarker = passkeyMarker
        self.http = http
        self.configuration = configuration
        manager = SessionManager(transport: transport, store: store, configuration: configuration, events: events)
    }

    /// A client with the platform's secure store, speaking the API the backend names.
    /// - Parameters:
    ///   - server: the server's base URL.
    ///   - backend: REST (the default), GraphQL or Supabase Auth, as an app file's `"backend"` says.
    ///   - configuration: margins, budgets, backoff and the clock.
    public convenience init(
        server: URL, backend: BackendConfiguration = BackendConfiguration(), configuration: ClientConfiguration = ClientConfiguration()
    ) throws {
        let transport = try AuthTransports.make(backend, server: server)
        self.init(
            transport: transport, store: SessionStores.platformDefault(server: server).store, configuration: configuration,
            passkeyMarker: UserDefaultsPasskeyMarker(server: server)
        )
    }

    /// Changes to the session, starting with the current one.
    public var sessionChanges: AsyncStream<SessionChange> {
        get async { events.stream(initial: .initialSession(await manager.current)) }
    }

    /// The stored session as last known, without touching the network.
    public var currentSession: Session? {
        get async { await manager.current }
    }

    /// Signs in with an email and password (seed 000 R6); the previous session is cleared first.
    @discardableResult
    public func signIn(email: String, password: String) async throws -> Session {
        try await manager.adopt(try await transport.token(.password(identifier: email, password: password)))
    }

    /// A session whose access token is valid, refreshed if it was about to expire.
    public func session() async throws -> Session {
        if let session = await manager.validateIfNeeded() { return session }
        return try await manager.validSession()
    }

    /// Ends every other session of the user on the server and keeps this one.
    public func signOutOthers() async throws {
        let session = try await self.session()
        try await transport.signOut(accessToken: session.accessToken, scope: .others)
    }

    /// Signs out: `.local` ends this session, `.global` every device's, both on the server and
    /// always here, even offline; `.others` ends every other device's and keeps this one.
    public func signOut(scope: SignOutScope = .local) async throws {
        if scope == .others { return try await signOutOthers() }
        guard let session = await manager.current else { return }
        var serverError: (any Error)?
        do {
            try await transport.signOut(accessToken: session.accessToken, scope: scope)
        } catch {
            serverError = error
        }
        try await manager.end(.user)
        if let error = serverError as? AuthError, !error.isTransient, error.sessionEndReason == nil {
            throw error
        }
    }
}
