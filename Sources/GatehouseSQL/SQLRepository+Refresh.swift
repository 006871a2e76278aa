import Foundation
import GatehouseCore
import SQLKit

/// The refresh path's claim: rotating a token and reading its chain, in one round trip on
/// PostgreSQL (a data-modifying CTE) and in two statements on SQLite, whose `UPDATE` cannot
/// sit inside a `WITH` or return another table's columns.
extension SQLRepository {
    public func claimRefreshToken(hash: String, successorHash: String, sealedSuccessor: String, at date: Date) async throws -> RefreshClaim? {
        let now = date.milliseconds
        // The trigger of schema version 9 inserts the successor's row in this same statement.
        // Written out rather than built: this runs on every refresh, and the text never changes.
        // The session's liveness mirrors `UserRecord.isLocked(at:)` and `SignInPipeline+Refresh`.
        let claim: SQLQueryString = """
            UPDATE refresh_tokens SET rotated_at = \(bind: now), sealed_successor = \(bind: sealedSuccessor),
            successor_hash = \(bind: successorHash) WHERE token_hash = \(bind: hash) AND rotated_at IS NULL AND EXISTS (
              SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id
              WHERE s.id = refresh_tokens.session_id AND s.revoked_at IS NULL AND s.expires_at > \(bind: now)
                AND (u.locked_at IS NULL OR (u.locked_until IS NOT NULL AND u.locked_until <= \(bind: now)))
                AND u.password_changed_at <= s.created_at
            ) RETURNING token_hash
            """
        guard database.dialect.name == "postgresql" else {
            // Read first: a token already rotated (a retry, a race) needs no write at all. Both
            // statements on the connection's thread, one after the other.
            return try await nearStorage {
                guard let (token, session, user) = try await refreshTokenChain(hash: hash) else { return nil }
                let claimed = token.rotatedAt == nil ? try await write { try await database.raw(claim).first() != nil } : false
                return RefreshClaim(token: token, session: session, user: user, claimed: claimed)
            }
        }
        // The main query sees the rows as they were before the CTE's update.
        var query = SQLQueryString("WITH claimed AS (")
        query.appendInterpolation(claim)
        query.appendLiteral(") ")
        query.appendInterpolation(Self.chainSelect(hash: hash, extra: ", (SELECT COUNT(*) FROM claimed) AS claimed"))
        guard let row = try await database.raw(query).first() else { return nil }
        return RefreshClaim(
            token: try row.decode(model: RefreshTokenRow.self, prefix: "t_").record,
            session: try row.decode(model: SessionRow.self, prefix: "s_").record,
            user: try row.decode(model: UserRow.self, prefix: "u_").record,
            claimed: try row.decode(column: "claimed", as: Int64.self) > 0
        )
    }
}
