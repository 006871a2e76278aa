import Foundation

extension SignInPipeline {
    /// Signs a browser in through the same pipeline as every grant, and opens a web session.
    ///
    /// The id is new at every sign-in; a web session the browser already held is ended, so an
    /// id planted before sign-in (session fixation) is worth nothing after it.
    /// - Parameters:
    ///   - previousID: the web session id the browser presented, if any.
    package func signInToWeb(_ grant: Grant, from client: ClientInfo, replacing previousID: String?) async throws -> WebSignIn {
        guard !grant.kind.isStepUpOnly else { throw GatehouseError.unauthenticated }
        return try await context.nearStorage(hashing: grant.kind.hashesAPassword) {
            let admitted = try await admission(grant, from: client)
            let method = admitted.method ?? grant.method
            let id = try await openWebSession(
                for: admitted.user, method: method, assurance: .signedIn(with: method, at: now), client: client, replacing: previousID,
                writes: admitted.writes, reports: admitted.reports
            )
            return WebSignIn(sessionID: id, deviceToken: admitted.deviceToken, isNewUser: admitted.isNewUser)
        }
    }

    /// Opens a web session for an admitted user, ending the one the browser held in the same
    /// transaction; returns its id.
    /// - Parameters:
    ///   - writes: the sign-in's own writes, stored with the session.
    ///   - reports: events those writes make true, reported once they are stored.
    package func openWebSession(
        for user: UserRecord, method: SignInMethodName, assurance: SessionAssurance, client: ClientInfo, replacing previousID: String?,
        writes: [SignInWrite] = [], reports: [SecurityEvent] = []
    ) async throws -> String {
        var writes = writes
        if let previousID, let previous = try await context.sessions.webSession(hash: WebSessionID.hash(previousID)) {
            writes.append(.sessionEnded(id: previous.sessionID, reason: .webSessionReplaced, at: now))
        }
        let id = WebSessionID.generate()
        _ = try await openSession(
            for: user, method: method, client: client, lifetime: settings.webSessionLifetime, assurance: assurance, writes: writes,
            reports: reports
        ) { session in
            .webSession(WebSessionRecord(
                idHash: WebSessionID.hash(id), sessionID: session.id, createdAt: session.createdAt, lastSeenAt: session.createdAt
            ))
        }
        return id
    }

    /// The user and session behind a web session id, if it is live and was used recently.
    ///
    /// An id unused for longer than the idle timeout ends its session. Use is recorded at most
    /// once a minute, so page views do not each cost a write.
    package func webPrincipal(sessionID: String) async throws -> Principal? {
        let hash = WebSessionID.hash(sessionID)
        guard let web = try await context.sessions.webSession(hash: hash) else { return nil }
        let idle = now.timeIntervalSince(web.lastSeenAt)
        guard idle < TimeInterval(settings.webSessionIdleTimeout) else {
            try await context.sessions.revokeSession(id: web.sessionID, at: now, reason: .idleTimeout)
            return nil
        }
        guard let principal = try await livePrincipal(sessionID: web.sessionID) else { return nil }
        if idle >= 60 { try await context.sessions.touchWebSession(hash: hash, at: now) }
        return principal
    }
}

/// A browser's successful sign-in: the web session id for its cookie and a device token.
package struct WebSignIn: Sendable {
    package let sessionID: String
    package let deviceToken: String
    package var isNewUser = false
    /// Recovery codes a first factor's verification made, shown once.
    package var recoveryCodes: [String]?
}

/// Web session ids: 256 random bits with a `ghw_` prefix, stored only as SHA-256 hashes.
package enum WebSessionID {
    package static let prefix = "ghw_"

    package static func generate() -> String {
        RefreshToken.generate(prefix: prefix)
    }

    package static func hash(_ id: String) -> String {
        RefreshToken.hash(id)
    }
}
