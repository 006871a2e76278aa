import Foundation

/// Where sessions and their refresh tokens are kept.
public protocol SessionRepository: Sendable {
    /// Opens a session with its first refresh token, in one transaction.
    func createSession(_ session: SessionRecord, firstToken: RefreshTokenRecord) async throws
    func session(id: String) async throws -> SessionRecord?
    /// Revokes the user's live sessions, except `keeping`; returns how many ended.
    func revokeSessions(userID: String, keeping: String?, at: Date, reason: String) async throws -> Int
    /// Revokes one session.
    func revokeSession(id: String, at: Date, reason: String) async throws

    func insertRefreshToken(_ token: RefreshTokenRecord) async throws
    func refreshToken(hash: String) async throws -> RefreshTokenRecord?
    func deleteRefreshToken(hash: String) async throws
    /// Marks a live token rotated, atomically: returns `false` if another request rotated it first.
    func markRotated(hash: String, at: Date, sealedSuccessor: String) async throws -> Bool
}
