import Foundation
import GatehouseCore
import GatehouseModel
import SQLKit

extension SQLRepository: UserRepository {
    /// Whether the account has no identity at all (a guest, issue 39): derived, so adding any
    /// way in (an email, a phone, a provider, a passkey's handle) makes it permanent at once.
    static let anonymousColumn = "CASE WHEN EXISTS (SELECT 1 FROM identities g WHERE g.user_id = u.id) THEN 0 ELSE 1 END AS anonymous"

    /// Whether the account has a verified second factor (``PasswordAccount/hasSecondFactor``).
    static let secondFactorColumn = "CASE WHEN EXISTS (SELECT 1 FROM factors f WHERE f.user_id = u.id AND f.status = 'verified') THEN 1 ELSE 0 END AS has_factor"

    /// A `users` row with the subject of its email identity, if any.
    package struct UserRow: Codable {
        package enum CodingKeys: String, CodingKey, CaseIterable {
            case id, name, email, firstName = "first_name", lastName = "last_name", createdAt = "created_at"
            case passwordChangedAt = "password_changed_at", lockedAt = "locked_at", lockedUntil = "locked_until"
            case anonymous, deletionDueAt = "deletion_due_at"
        }

        /// A guest account's mark: no identity at all (``SQLRepository/anonymousColumn``).
        package var anonymous: Int?
        package var deletionDueAt: Int64?

        package var id: String
        package var name: String
        package var firstName: String
        package var lastName: String
        package var createdAt: Int64
        package var passwordChangedAt: Int64
        package var lockedAt: Int64?
        package var lockedUntil: Int64?
        package var email: String?

        package init(_ user: UserRecord) {
            id = user.id
            name = user.name
            firstName = user.personName.first
            lastName = user.personName.last
            createdAt = user.createdAt.milliseconds
            passwordChangedAt = user.passwordChangedAt.milliseconds
            lockedAt = user.lockedAt?.milliseconds
            lockedUntil = user.lockedUntil?.milliseconds
            email = user.email
            anonymous = nil
            deletionDueAt = user.deletionDueAt?.milliseconds
        }

        package var record: UserRecord {
            var user = UserRecord(
                id: id, email: email, name: PersonName(first: firstName, last: lastName),
                createdAt: Date(milliseconds: createdAt), passwordChangedAt: Date(milliseconds: passwordChangedAt),
                lockedAt: lockedAt.map(Date.init(milliseconds:)), lockedUntil: lockedUntil.map(Date.init(milliseconds:)),
                isAnonymous: anonymous == 1
            )
            user.deletionDueAt = deletionDueAt.map(Date.init(milliseconds:))
            return user
        }
    }

    package struct IdentityRow: Codable {
        package enum CodingKeys: String, CodingKey {
            case provider, subject, userId = "user_id", verifiedAt = "verified_at", createdAt = "created_at"
        }

        package var userId: String
        package var provider: String
        package var subject: String
        package var verifiedAt: Int64?
        package var createdAt: Int64

        package init(_ identity: IdentityRecord) {
            userId = identity.userID
            provider = identity.provider.rawValue
            subject = identity.subject
            verifiedAt = identity.verifiedAt?.milliseconds
            createdAt = identity.createdAt.milliseconds
        }

        package var record: IdentityRecord {
            IdentityRecord(
                userID: userId, provider: IdentityProvider(rawValue: provider), subject: subject,
                verifiedAt: verifiedAt.map(Date.init(milliseconds:)), createdAt: Date(milliseconds: createdAt)
            )
        }
    }

    public func createUser(_ user: UserRecord, identities: [IdentityRecord], passwordHash: String?) async throws {
        var row = UserRow(user)
        row.email = nil
        let userRow = row
        try await transaction { db in
            try await db.insert(into: "users").model(userRow).run()
            for identity in identities {
                // One statement, so two racing creates cannot both pass a check: the loser inserts
                // nothing, and its whole transaction is rolled back (on both engines).
                let inserted = try await db.insert(into: "identities")
                    .model(IdentityRow(identity))
                    .ignoringConflicts(with: ["provider", "subject"])
                    .returning("user_id").all()
                if inserted.isEmpty { throw RepositoryError.duplicateIdentity }
            }
            if let passwordHash {
                try await db.insert(into: "password_credentials").columns("user_id", "hash", "updated_at")
                    .values(SQLBind(user.id), SQLBind(passwordHash), SQLBind(user.passwordChangedAt.milliseconds)).run()
            }
        }
    }

    public func user(provider: IdentityProvider, subject: String) async throws -> UserRecord? {
        try await database.raw("""
            SELECT u.*, e.subject AS email, \(unsafeRaw: Self.anonymousColumn) FROM identities i JOIN users u ON u.id = i.user_id
            LEFT JOIN identities e ON e.user_id = u.id AND e.provider = 'email'
            WHERE i.provider = \(bind: provider.rawValue) AND i.subject = \(bind: subject)
            """).first(decoding: UserRow.self)?.record
    }

    public func passwordAccount(provider: IdentityProvider, subject: String) async throws -> PasswordAccount? {
        struct Row: Decodable {
            package let user: UserRow
            package let hash: String?
            package let hasFactor: Int
            package init(from decoder: any Decoder) throws {
                user = try UserRow(from: decoder)
                let container = try decoder.container(keyedBy: Key.self)
                hash = try container.decodeIfPresent(String.self, forKey: .hash)
                hasFactor = try container.decode(Int.self, forKey: .hasFactor)
            }
            package enum Key: String, CodingKey { case hash, hasFactor = "has_factor" }
        }
        let row = try await database.raw("""
            SELECT u.*, e.subject AS email, \(unsafeRaw: Self.anonymousColumn), p.hash AS hash, \(unsafeRaw: Self.secondFactorColumn)
            FROM identities i JOIN users u ON u.id = i.user_id
            LEFT JOIN identities e ON e.user_id = u.id AND e.provider = 'email'
            LEFT JOIN password_credentials p ON p.user_id = u.id
            WHERE i.provider = \(bind: provider.rawValue) AND i.subject = \(bind: subject)
            """).first(decoding: Row.self)
        return row.map { PasswordAccount(user: $0.user.record, passwordHash: $0.hash, hasSecondFactor: $0.hasFactor == 1) }
    }

    public func user(id: String) async throws -> UserRecord? {
        try await database.raw("""
            SELECT u.*, e.subject AS email, \(unsafeRaw: Self.anonymousColumn) FROM users u
            LEFT JOIN identities e ON e.user_id = u.id AND e.provider = 'email' WHERE u.id = \(bind: id)
            """).first(decoding: UserRow.self)?.record
    }

    public func identities(userID: String) async throws -> [IdentityRecord] {
        try await database.select().column("*").from("identities").where("user_id", .equal, userID).orderBy("created_at")
            .all(decoding: IdentityRow.self).map(\.record)
    }

    public func passwordHash(userID: String) async throws -> String? {
        struct Row: Decodable { let hash: String }
        return try await database.select().column("hash").from("password_credentials").where("user_id", .equal, userID)
            .first(decoding: Row.self)?.hash
    }

    public func setPassword(userID: String, hash: String, at date: Date) async throws {
        try await changing(user: userID) {
            try await transaction { db in
                try await db.delete(from: "password_credentials").where("user_id", .equal, userID).run()
                try await db.insert(into: "password_credentials").columns("user_id", "hash", "updated_at")
                    .values(SQLBind(userID), SQLBind(hash), SQLBind(date.milliseconds)).run()
                try await db.update("users").set("password_changed_at", to: date.milliseconds).where("id", .equal, userID).run()
            }
        }
    }

    public func allUsers() async throws -> [UserRecord] {
        try await database.raw("""
            SELECT u.*, e.subject AS email, \(unsafeRaw: Self.anonymousColumn) FROM users u
            LEFT JOIN identities e ON e.user_id = u.id AND e.provider = 'email' ORDER BY u.created_at
            """).all(decoding: UserRow.self).map(\.record)
    }

    public func users(offset: Int, limit: Int) async throws -> (users: [UserRecord], total: Int) {
        struct Count: Decodable { let count: Int64 }
        let total = try await database.raw("SELECT COUNT(*) AS count FROM users").first(decoding: Count.self)?.count ?? 0
        let page = try await database.raw("""
            SELECT u.*, e.subject AS email, \(unsafeRaw: Self.anonymousColumn) FROM users u
            LEFT JOIN identities e ON e.user_id = u.id AND e.provider = 'email'
            ORDER BY u.created_at, u.id LIMIT \(bind: max(0, limit)) OFFSET \(bind: max(0, offset))
            """).all(decoding: UserRow.self).map(\.record)
        return (page, Int(total))
    }

    public func removeGuests(unusedSince date: Date) async throws -> Int {
        let cutoff = date.milliseconds
        return try await write {
            try await database.raw("""
                DELETE FROM users WHERE created_at < \(bind: cutoff)
                AND NOT EXISTS (SELECT 1 FROM identities i WHERE i.user_id = users.id)
                AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.user_id = users.id AND s.last_seen_at >= \(bind: cutoff))
                RETURNING id
                """).all().count
        }
    }

    public func updateUser(_ user: UserRecord) async throws {
        try await changing(user: user.id) {
            let row = UserRow(user)
            try await write {
                try await database.update("users")
                    .set("name", to: row.name)
                    .set("first_name", to: row.firstName)
                    .set("last_name", to: row.lastName)
                    .set("locked_at", to: row.lockedAt)
                    .set("locked_until", to: row.lockedUntil)
                    .set("deletion_due_at", to: row.deletionDueAt)
                    .where("id", .equal, row.id)
                    .run()
            }
        }
    }

    public func deleteUser(id: String) async throws -> Bool {
        try await changing(user: id) {
            try await write {
                !(try await database.delete(from: "users").where("id", .equal, id).returning("id").all()).isEmpty
            }
        }
    }

    public func usersDueForDeletion(at date: Date, limit: Int) async throws -> [UserRecord] {
        try await database.raw("""
            SELECT u.*, e.subject AS email, \(unsafeRaw: Self.anonymousColumn) FROM users u
            LEFT JOIN identities e ON e.user_id = u.id AND e.provider = 'email'
            WHERE u.deletion_due_at IS NOT NULL AND u.deletion_due_at <= \(bind: date.milliseconds)
            ORDER BY u.deletion_due_at LIMIT \(bind: max(0, limit))
            """).all(decoding: UserRow.self).map(\.record)
    }

    public func deleteUserIfDue(id: String, at date: Date) async throws -> Bool {
        try await changing(user: id) {
            try await write {
                !(try await database.delete(from: "users").where("id", .equal, id).where("deletion_due_at", .isNot, SQLLiteral.null)
                    .where("deletion_due_at", .lessThanOrEqual, date.milliseconds).returning("id").all()).isEmpty
            }
        }
    }
}
