import Foundation
import GatehouseCore
import SQLKit

extension SQLRepository: FactorChallengeRepository {
    struct FactorChallengeRow: Codable {
        var id: String
        var userId: String
        var factorId: String?
        var createdAt: Int64
        var expiresAt: Int64
        var failures: Int
        var completedAt: Int64?

        enum CodingKeys: String, CodingKey {
            case id, failures
            case userId = "user_id", factorId = "factor_id", createdAt = "created_at", expiresAt = "expires_at", completedAt = "completed_at"
        }

        var record: FactorChallengeRecord {
            FactorChallengeRecord(
                id: id, userID: userId, factorID: factorId, createdAt: Date(milliseconds: createdAt),
                expiresAt: Date(milliseconds: expiresAt), failures: failures, completedAt: completedAt.map(Date.init(milliseconds:))
            )
        }
    }

    public func createChallenge(_ challenge: FactorChallengeRecord) async throws {
        let row = FactorChallengeRow(
            id: challenge.id, userId: challenge.userID, factorId: challenge.factorID, createdAt: challenge.createdAt.milliseconds,
            expiresAt: challenge.expiresAt.milliseconds, failures: challenge.failures, completedAt: challenge.completedAt?.milliseconds
        )
        try await transaction { db in
            try await db.raw(Self.removeExpiredChallenges(before: challenge.createdAt)).run()
            try await db.insert(into: "factor_challenges").model(row).run()
        }
    }

    /// One statement: the challenges that expired before `date` are removed (each new challenge
    /// runs it in its insert's transaction; the `factor_challenges_expires_at` index serves it).
    package static func removeExpiredChallenges(before date: Date) -> SQLQueryString {
        "DELETE FROM factor_challenges WHERE expires_at < \(bind: date.milliseconds)"
    }

    public func challenge(id: String, userID: String) async throws -> FactorChallengeRecord? {
        try await database.select().column("*").from("factor_challenges").where("id", .equal, id).where("user_id", .equal, userID)
            .first(decoding: FactorChallengeRow.self)?.record
    }

    public func recordChallengeFailure(id: String, at date: Date) async throws -> Int? {
        struct Row: Decodable { let failures: Int }
        return try await write {
            try await database.raw("""
                UPDATE factor_challenges SET failures = failures + 1
                WHERE id = \(bind: id) AND completed_at IS NULL AND expires_at > \(bind: date.milliseconds)
                AND failures < \(bind: FactorChallengeRecord.maximumFailures)
                RETURNING failures
                """).first(decoding: Row.self)?.failures
        }
    }

    /// A challenge answered (``SignInWrite/factorChallengeCompleted(id:at:)``), in one conditional
    /// statement: only an open challenge (unanswered, unexpired, under five wrong answers)
    /// returns the row, so a challenge completes once.
    static func completeChallenge(id: String, at date: Date) -> SQLQueryString {
        """
        UPDATE factor_challenges SET completed_at = \(bind: date.milliseconds)
        WHERE id = \(bind: id) AND completed_at IS NULL AND expires_at > \(bind: date.milliseconds)
        AND failures < \(bind: FactorChallengeRecord.maximumFailures)
        RETURNING id
        """
    }

    public func replaceRecoveryCodes(userID: String, hashes: [String], at date: Date) async throws {
        try await transaction { db in try await Self.replaceRecoveryCodes(userID: userID, hashes: hashes, at: date, in: db) }
    }

    /// The account's recovery codes replaced inside the caller's transaction.
    static func replaceRecoveryCodes(userID: String, hashes: [String], at date: Date, in db: any SQLDatabase) async throws {
        try await db.delete(from: "recovery_codes").where("user_id", .equal, userID).run()
        for hash in hashes {
            try await db.insert(into: "recovery_codes").columns("user_id", "code_hash", "created_at")
                .values(SQLBind(userID), SQLBind(hash), SQLBind(date.milliseconds)).run()
        }
    }

    public func useRecoveryCode(userID: String, hash: String, at date: Date) async throws -> Bool {
        try await write {
            try await database.raw("""
                UPDATE recovery_codes SET used_at = \(bind: date.milliseconds)
                WHERE user_id = \(bind: userID) AND code_hash = \(bind: hash) AND used_at IS NULL
                RETURNING code_hash
                """).first() != nil
        }
    }

    public func unusedRecoveryCodes(userID: String) async throws -> Int {
        struct Count: Decodable { let count: Int64 }
        return Int(try await database.raw("""
            SELECT COUNT(*) AS count FROM recovery_codes WHERE user_id = \(bind: userID) AND used_at IS NULL
            """).first(decoding: Count.self)?.count ?? 0)
    }

    public func deleteRecoveryCodes(userID: String) async throws {
        try await write { try await database.delete(from: "recovery_codes").where("user_id", .equal, userID).run() }
    }
}
