import Foundation
import GatehouseCore
import SQLKit

extension SQLRepository {
    public func addIdentity(_ identity: IdentityRecord) async throws {
        try await changing(user: identity.userID) {
            let row = IdentityRow(identity)
            try await write {
                let inserted = try await database.insert(into: "identities").model(row)
                    .ignoringConflicts(with: ["provider", "subject"]).returning("user_id").all()
                if inserted.isEmpty { throw RepositoryError.duplicateIdentity }
            }
        }
    }

    public func claimUnverifiedAccount(userID: String, adding identity: IdentityRecord, emailSubject: String, at date: Date) async throws {
        try await changing(user: userID) {
            let row = IdentityRow(identity)
            try await transaction { db in
                let inserted = try await db.insert(into: "identities").model(row)
                    .ignoringConflicts(with: ["provider", "subject"]).returning("user_id").all()
                if inserted.isEmpty { throw RepositoryError.duplicateIdentity }
                try await db.update("identities").set("verified_at", to: date.milliseconds)
                    .where("user_id", .equal, userID).where("provider", .equal, "email").where("subject", .equal, emailSubject).run()
                try await db.delete(from: "password_credentials").where("user_id", .equal, userID).run()
                // Sessions opened before this instant are over (see UserRecord.passwordChangedAt).
                try await db.update("users").set("password_changed_at", to: date.milliseconds).where("id", .equal, userID).run()
            }
        }
    }

    public func verifyIdentity(userID: String, provider: IdentityProvider, subject: String, at date: Date) async throws -> Bool {
        try await changing(user: userID) {
            try await write {
                !(try await database.update("identities").set("verified_at", to: date.milliseconds)
                    .where("user_id", .equal, userID).where("provider", .equal, provider.rawValue).where("subject", .equal, subject)
                    .where("verified_at", .is, SQLLiteral.null).returning("user_id").all()).isEmpty
            }
        }
    }

    public func removeIdentity(userID: String, provider: IdentityProvider, keepingAWayIn: Bool) async throws -> Bool {
        let sqlite = database.dialect.name == "sqlite"
        return try await changing(user: userID) {
            try await transaction { db in
                if keepingAWayIn { try await Self.lockUser(userID, in: db, sqlite: sqlite) }
                let removed = !(try await db.delete(from: "identities").where("user_id", .equal, userID)
                    .where("provider", .equal, provider.rawValue).returning("user_id").all()).isEmpty
                if removed, keepingAWayIn, try await !Self.hasAWayIn(userID, in: db) { throw RepositoryError.lastWayIn }
                return removed
            }
        }
    }

    /// Locks the account's row until the transaction ends (PostgreSQL), so that two removals of
    /// its ways in judge what is left one after the other. SQLite's `BEGIN IMMEDIATE` already
    /// lets one writer in at a time.
    static func lockUser(_ userID: String, in db: any SQLDatabase, sqlite: Bool) async throws {
        guard !sqlite else { return }
        _ = try await db.raw("SELECT id FROM users WHERE id = \(bind: userID) FOR UPDATE").all()
    }

    /// Whether the account still has a way in: a passkey, a phone or provider identity, or an
    /// email with a password.
    static func hasAWayIn(_ userID: String, in db: any SQLDatabase) async throws -> Bool {
        let row = try await db.raw("""
            SELECT CASE WHEN EXISTS (SELECT 1 FROM passkeys WHERE user_id = \(bind: userID))
              OR EXISTS (SELECT 1 FROM identities WHERE user_id = \(bind: userID) AND provider NOT IN ('email', 'passkey'))
              OR (EXISTS (SELECT 1 FROM password_credentials WHERE user_id = \(bind: userID))
                  AND EXISTS (SELECT 1 FROM identities WHERE user_id = \(bind: userID) AND provider = 'email'))
            THEN 1 ELSE 0 END AS way_in
            """).first()
        return try row?.decode(column: "way_in", as: Int.self) == 1
    }

    public func replaceIdentity(_ identity: IdentityRecord) async throws {
        try await changing(user: identity.userID) {
            let row = IdentityRow(identity)
            try await transaction { db in
                try await db.delete(from: "identities").where("user_id", .equal, identity.userID)
                    .where("provider", .equal, identity.provider.rawValue).run()
                let inserted = try await db.insert(into: "identities").model(row)
                    .ignoringConflicts(with: ["provider", "subject"]).returning("user_id").all()
                // Thrown inside the transaction, so the old identity's removal is rolled back.
                if inserted.isEmpty { throw RepositoryError.duplicateIdentity }
            }
        }
    }
}
