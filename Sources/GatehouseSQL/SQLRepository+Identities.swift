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

    public func removeIdentity(userID: String, provider: IdentityProvider) async throws -> Bool {
        try await changing(user: userID) {
            try await write {
                !(try await database.delete(from: "identities").where("user_id", .equal, userID)
                    .where("provider", .equal, provider.rawValue).returning("user_id").all()).isEmpty
            }
        }
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
