import Foundation
import LoginCore

/// Owns the current session: at most one refresh in flight, new tokens stored before they are
/// used, and a session that ends only when the server says so.
///
/// Concurrent callers that need a refresh share one `Task`, so N requests made while the
/// access token is stale cause exactly one refresh on the server. A network failure starts a
/// backoff instead of ending the session; while the access token is still valid it keeps
/// being used.
actor SessionManager {
    let transport: any AuthTransport
    let store: any SessionStore
    let configuration: ClientConfiguration
    let events: SessionEvents

    private(set) var current: Session?
    /// Whether the server has confirmed ``current`` since it was loaded.
    private(set) var isValidated = false
    private var refreshTask: Task<Session, any Error>?
    private var validationTask: Task<Session, any Error>?
    private var failures = 0
    private var retryAfter: Date?

    init(transport: any AuthTransport, store: any SessionStore, configuration: ClientConfiguration, events: SessionEvents) {
        self.transport = transport
        self.store = store
        self.configuration = configuration
        self.events = events
    }

    var now: Date { configuration.now() }

    /// Adopts a session signed in just now: the old one is cleared, the new one stored first.
    func adopt(_ response: TokenResponse) async throws -> Session {
        let session = Session(response, receivedAt: now)
        try await store.update { $0 = nil; $0 = session }
        current = session
        isValidated = true
        events.emit(.signedIn(session))
        return session
    }

    /// Loads the stored session into memory, unvalidated.
    func load() async throws -> Session? {
        current = try await store.load()
        isValidated = false
        return current
    }

    /// A session whose access token is good for at least the refresh margin, refreshing if needed.
    func validSession() async throws -> Session {
        guard let session = current else { throw AuthError.notSignedIn }
        guard session.expires(within: configuration.refreshMargin, of: now) else { return session }
        do {
            return try await refresh(replacing: session)
        } catch let error as AuthError where error.isTransient && now < session.expiresAt {
            return session
        }
    }

    /// Refreshes unless `stale` was already replaced; joins a refresh already in flight.
    func refresh(replacing stale: Session) async throws -> Session {
        if let refreshTask { return try await refreshTask.value }
        guard let session = current else { throw AuthError.notSignedIn }
        if session.accessToken != stale.accessToken { return session }
        if let retryAfter, now < retryAfter { throw AuthError.networkUnavailable }
        let task = Task { try await self.performRefresh(session.refreshToken) }
        refreshTask = task
        defer { refreshTask = nil }
        return try await task.value
    }

    private func performRefresh(_ refreshToken: String) async throws -> Session {
        do {
            var session = Session(try await transport.token(.refreshToken(refreshToken)), receivedAt: now)
            // A refresh keeps the session's level, so a challenge still due stays due.
            if session.assuranceLevel == .aal1 { session.secondFactors = current?.secondFactors }
            try await store.save(session)
            current = session
            isValidated = true
            (failures, retryAfter) = (0, nil)
            events.emit(.refreshed(session))
            return session
        } catch let error as AuthError {
            if let reason = error.sessionEndReason {
                try await end(reason)
                throw AuthError.sessionEnded(reason)
            }
            if error.isTransient { backOff() }
            throw error
        }
    }

    /// Waits longer after each consecutive network failure before the server is asked again.
    private func backOff() {
        failures += 1
        let wait = min(configuration.maximumBackoff, configuration.initialBackoff * pow(2, Double(failures - 1)))
        retryAfter = now.addingTimeInterval(wait)
    }

    /// Confirms a restored, unconfirmed session: concurrent callers share one attempt, and after
    /// a network failure none is made until the backoff has passed. `nil` when nothing was confirmed.
    func validateIfNeeded() async -> Session? {
        guard !isValidated, current != nil else { return nil }
        if let validationTask { return try? await validationTask.value }
        if let retryAfter, now < retryAfter { return nil }
        let task = Task { try await self.validate(timeout: nil) }
        validationTask = task
        defer { validationTask = nil }
        do {
            return try await task.value
        } catch let error as AuthError where error.isTransient {
            backOff()
            return nil
        } catch {
            return nil
        }
    }

    /// Confirms the current session with the server, refreshing first if its token is stale.
    func validate(timeout: TimeInterval?) async throws -> Session {
        let session = try await validSession()
        do {
            let user = try await transport.user(accessToken: session.accessToken, timeout: timeout)
            return try await confirm(user: user)
        } catch AuthError.server(401, _, _) {
            _ = try await refresh(replacing: session)
            let refreshed = try await validSession()
            return try await confirm(user: try await transport.user(accessToken: refreshed.accessToken, timeout: timeout))
        }
    }

    private func confirm(user: SignedInUser) async throws -> Session {
        guard var session = current else { throw AuthError.notSignedIn }
        let wasValidated = isValidated
        if session.user != user {
            session.user = user
            try await store.save(session)
            current = session
        }
        isValidated = true
        if !wasValidated { events.emit(.validated(session)) }
        return session
    }

    /// Forgets the session here and in the store.
    func end(_ reason: SignOutReason) async throws {
        current = nil
        isValidated = false
        try await store.save(nil)
        events.emit(.signedOut(reason))
    }
}
