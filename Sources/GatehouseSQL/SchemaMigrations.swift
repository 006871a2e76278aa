import GatehouseModel
import SQLKit

/// The schema, as an ordered list of steps; the applied count lives in `gatehouse_schema`.
///
/// Each step runs in its own transaction together with the version bump, so a crash leaves
/// either the old schema or the new one, and re-checks the version inside it, so a step is
/// never applied twice. On PostgreSQL the whole run holds an advisory lock, so instances
/// started together migrate one after the other; on SQLite `BEGIN IMMEDIATE` serialises them.
package struct SchemaMigrations: Sendable {
    /// The advisory lock's key: "gatehouse" in ASCII, folded into 63 bits.
    package static let lockKey: Int64 = 0x6761_7465_686F_7573
    package let repository: SQLRepository

    package init(repository: SQLRepository) {
        self.repository = repository
    }

    package var database: any SQLDatabase { repository.database }

    package typealias Step = @Sendable (any SQLDatabase) async throws -> Void

    package var steps: [Step] {
        [
            Self.createUsers, Self.createSessions, Self.createRefreshTokens, Self.splitNames,
            Self.identities, Self.throttlesAndSecrets, Self.webSessions, Self.signingKeys, Self.oneStatementRotation,
            Self.phoneCodes, Self.oidcFlows, Self.sessionDevices, Self.oneTimeSecrets, Self.passkeys,
            Self.auditLog, Self.bans, Self.sessionChanges, Self.factors, Self.secondFactorChallenges, Self.providerGrants, Self.deletionGrace,
            Self.outbox, Self.challengeExpiry,
        ]
    }

    package func run() async throws {
        guard database.dialect.name == "postgresql" else { return try await apply() }
        try await database.withSession { session in
            try await session.raw("SELECT pg_advisory_lock(\(bind: Self.lockKey))").run()
            do {
                try await apply()
            } catch {
                try? await session.raw("SELECT pg_advisory_unlock(\(bind: Self.lockKey))").run()
                throw error
            }
            try await session.raw("SELECT pg_advisory_unlock(\(bind: Self.lockKey))").run()
        }
    }

    private func apply() async throws {
        let applied = try await repository.transaction { db in
            try await db.create(table: "gatehouse_schema").ifNotExists()
                .column("version", type: .bigint, .notNull)
                .run()
            if let version = try await Self.version(in: db) { return version }
            try await db.insert(into: "gatehouse_schema").columns("version").values(SQLBind(0)).run()
            return 0
        }
        let isSQLite = database.dialect.name == "sqlite"
        for (index, step) in steps.enumerated() where index >= applied {
            // SQLite can only switch foreign keys off outside a transaction; a table rebuild needs it.
            if isSQLite { try await database.raw("PRAGMA foreign_keys = OFF").run() }
            try await repository.transaction { db in
                guard try await Self.version(in: db) == index else { return }
                try await step(db)
                try await db.update("gatehouse_schema").set("version", to: index + 1).run()
            }
            if isSQLite { try await database.raw("PRAGMA foreign_keys = ON").run() }
        }
    }

    /// The applied version, or `nil` on an empty database.
    package static func version(in database: any SQLDatabase) async throws -> Int? {
        struct Row: Decodable { let version: Int }
        return try await database.select().column("version").from("gatehouse_schema").first(decoding: Row.self)?.version
    }

    package static let createUsers: Step = { db in
        try await db.create(table: "users")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("email", type: .text, .notNull, .unique)
            .column("name", type: .text, .notNull)
            .column("password_hash", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("password_changed_at", type: .bigint, .notNull)
            .column("locked_at", type: .bigint)
            .run()
    }

    package static let createSessions: Step = { db in
        try await db.create(table: "sessions")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("user_id", type: .text, .notNull, .references("users", "id", onDelete: .cascade))
            .column("created_at", type: .bigint, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .column("revoked_at", type: .bigint)
            .column("revoked_reason", type: .text)
            .run()
        try await db.create(index: "sessions_user_id").on("sessions").column("user_id").run()
    }

    package static let createRefreshTokens: Step = { db in
        try await db.create(table: "refresh_tokens")
            .column("token_hash", type: .text, .primaryKey(autoIncrement: false))
            .column("session_id", type: .text, .notNull, .references("sessions", "id", onDelete: .cascade))
            .column("created_at", type: .bigint, .notNull)
            .column("rotated_at", type: .bigint)
            .column("sealed_successor", type: .text)
            .run()
        try await db.create(index: "refresh_tokens_session_id").on("refresh_tokens").column("session_id").run()
    }

    /// Version 4: first and last names (seed 001), split from the one-line name.
    package static let splitNames: Step = { db in
        for column in ["first_name", "last_name"] {
            try await db.alter(table: "users").column(column, type: .text, .notNull, .default("")).run()
        }
        struct Row: Decodable { let id: String; let name: String }
        for row in try await db.select().columns("id", "name").from("users").all(decoding: Row.self) {
            let parts = PersonName(full: row.name)
            try await db.update("users").set("first_name", to: parts.first).set("last_name", to: parts.last)
                .where("id", .equal, row.id).run()
        }
    }
}
