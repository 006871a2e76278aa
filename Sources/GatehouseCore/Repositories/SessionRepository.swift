import Foundation

/// Where sessions and their refresh tokens are kept.
public protocol SessionRepository: Sendable {
    /// The sessions known to be live, in memory; the repository empties a user's entries when
    /// it ends their sessions or changes the user.
    var liveness: LiveSessionCache { get }
    /// Opens a session with its first refresh token or its web session id and the sign-in's
    /// other writes, in one transaction: all of them or none.
    func createSession(_ session: SessionRecord, credential: SessionCredential, with writes: [SignInWrite]) async throws
    /// Stores a sign-in's writes in one transaction of their own, for an admission that opens
    /// no session here (a provider's callback that links an account).
    func storeSignInWrites(_ writes: [SignInWrite]) async throws
    func session(id: String) async throws -> SessionRecord?
    /// The session and its user, in one read (every authenticated request asks this).
    func sessionWithUser(id: String) async throws -> (SessionRecord, UserRecord)?
    /// Revokes the user's live sessions, except `keeping`; returns how many ended.
    func revokeSessions(userID: String, keeping: String?, at: Date, reason: SessionEndReason) async throws -> Int
    /// Records that the session was used at `at` (its `last_seen_at`).
    func touchSession(id: String, at: Date) async throws
    /// Revokes one session.
    func revokeSession(id: String, at: Date, reason: SessionEndReason) async throws
    /// The user's sessions that are neither revoked nor expired at `at`, most recently used first.
    func liveSessions(userID: String, at: Date) async throws -> [SessionRecord]
    /// How many sessions of all users are neither revoked nor expired at `at` (the metrics' gauge).
    func countLiveSessions(at: Date) async throws -> Int

    /// The web session with this id hash, whatever the state of its session.
    func webSession(hash: String) async throws -> WebSessionRecord?
    /// Records that a web session was used at `at`.
    func touchWebSession(hash: String, at: Date) async throws

    func refreshToken(hash: String) async throws -> RefreshTokenRecord?
    /// The refresh token, its session and the session's user, in one read (the refresh path).
    func refreshTokenChain(hash: String) async throws -> (RefreshTokenRecord, SessionRecord, UserRecord)?
    /// Claims a token and stores its successor, and reads the token with its session and user:
    /// one statement on PostgreSQL, so a refresh costs one round trip.
    ///
    /// The claim is atomic and happens only if the token is unrotated, its session neither
    /// revoked nor expired at `at`, and its user neither locked nor signed out by a password
    /// change; when another request claimed it first, or the session is not live, nothing is
    /// stored and `claimed` is `false`. `nil` when there is no such token.
    func claimRefreshToken(hash: String, successorHash: String, sealedSuccessor: String, at: Date) async throws -> RefreshClaim?
}

extension SessionRepository {
    /// Opens a session with its first refresh token or its web session id, in one transaction.
    public func createSession(_ session: SessionRecord, credential: SessionCredential) async throws {
        try await createSession(session, credential: credential, with: [])
    }
}
