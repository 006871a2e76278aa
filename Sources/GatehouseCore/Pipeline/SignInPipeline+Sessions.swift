import Foundation

/// Which sessions a logout ends (the same scopes as Supabase Auth).
public enum LogoutScope: String, Sendable, CaseIterable {
    /// Only the session of the presented token (seed 001 US3.4: this device only).
    case local
    /// Every session of the user.
    case global
    /// Every session of the user except the presented one.
    case others
}

/// Who a request is signed in as: the user and the live session.
public struct Principal: Sendable {
    public let user: UserRecord
    public let session: SessionRecord
}

extension SignInPipeline {
    /// The user and session of an access token that is valid now and whose session is live.
    package func authenticate(accessToken: String) async throws -> Principal {
        let claims = try await tokens.verify(accessToken, now: now)
        guard let principal = try await livePrincipal(sessionID: claims.sid), principal.user.id == claims.sub.value else {
            throw GatehouseError.sessionEnded
        }
        return principal
    }

    /// The session and its user, if the session is neither revoked nor expired and its user is
    /// neither locked nor signed in with a password changed since.
    ///
    /// A session found live is kept in ``SessionRepository/liveness``, so the next request
    /// with it reads no database; liveness is judged again on each hit, against `now`.
    package func livePrincipal(sessionID: String) async throws -> Principal? {
        let cache = context.sessions.liveness
        if let cached = cache.principal(sessionID: sessionID) {
            return isLive(cached.session, of: cached.user) ? cached : nil
        }
        let epoch = cache.epoch
        guard let (session, user) = try await context.sessions.sessionWithUser(id: sessionID), isLive(session, of: user) else { return nil }
        let principal = Principal(user: user, session: session)
        cache.keep(principal, readAt: epoch)
        return principal
    }

    private func isLive(_ session: SessionRecord, of user: UserRecord) -> Bool {
        session.revokedAt == nil && now < session.expiresAt && !user.isLocked(at: now) && user.passwordChangedAt <= session.createdAt
    }

    /// Ends sessions of the token's user according to `scope`.
    ///
    /// Ending only the others needs a recent second factor once the account has one (someone
    /// with just the password must not sign its owner out and stay); ending this session, or
    /// all of them, never does.
    package func logout(_ principal: Principal, scope: LogoutScope) async throws {
        if scope == .others { try await context.requireStepUp(principal) }
        let reason = SessionEndReason(logout: scope)
        switch scope {
        case .local:
            try await context.sessions.revokeSession(id: principal.session.id, at: now, reason: reason)
        case .global:
            _ = try await context.sessions.revokeSessions(userID: principal.user.id, keeping: nil, at: now, reason: reason)
        case .others:
            _ = try await context.sessions.revokeSessions(userID: principal.user.id, keeping: principal.session.id, at: now, reason: reason)
        }
        context.logger.info("Logout", metadata: ["user.id": "\(principal.user.id)", "scope": "\(scope.rawValue)"])
        let ended = SecurityEvent.sessionEnded(userID: principal.user.id, sessionID: scope == .local ? principal.session.id : nil, reason: reason)
        context.report(ended, address: principal.session.address, device: principal.session.deviceLabel)
    }
}
