import Foundation

/// Where sessions and their refresh tokens are kept.
public protocol SessionRepository: Sendable {
    /// Opens a session with its first refresh token or its web session id, in one transaction.
    func createSession(_ session: SessionRecord, credential: SessionCredential) async throws
    func session(id: String) async throws -> SessionRecord?
    /// Revokes the user's live sessions, except `keeping`; returns how many ended.
    func revokeSessions(userID: String, keeping: String?, at: Date, reason: String) async throws -> Int
    /// Revokes one session.
    func revokeSession(id: String, at: Date, reason: String) async throws

    /// The web session with this id hash, whatever the state of its session.
    func webSession(hash: String) async throws -> WebSessionRecord?
    /// Records that a web session was used at `at`.
    func touchWebSession(hash: String, at: Date) async throws

    func insertRefreshToken(_ token: RefreshTokenRecord) async throws
    func refreshToken(hash: String) async throws -> RefreshTokenRecord?
    func deleteRefreshToken(hash: String) async throws
    /// Marks a live token rotated, atomically: returns `false` if another request rotated it first.
    func markRotated(hash: String, at: Date, sealedSuccessor: String) async throws -> Bool
}
