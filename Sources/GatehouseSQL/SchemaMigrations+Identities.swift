import SQLKit

extension SchemaMigrations {
    /// Version 5: identities and password credentials move out of `users`, so an account may
    /// have neither an email nor a password (phone, Google, passkeys).
    package static let identities: Step = { db in
        try await db.create(table: "identities")
            .column("user_id", type: .text, .notNull, .references("users", "id", onDelete: .cascade))
            .column("provider", type: .text, .notNull)
            .column("subject", type: .text, .notNull)
            .column("verified_at", type: .bigint)
            .column("created_at", type: .bigint, .notNull)
            .primaryKey("provider", "subject")
            .run()
        try await db.create(index: "identities_user_id").on("identities").column("user_id").run()
        try await db.create(table: "password_credentials")
            .column("user_id", type: .text, .primaryKey(autoIncrement: false), .references("users", "id", onDelete: .cascade))
            .column("hash", type: .text, .notNull)
            .column("updated_at", type: .bigint, .notNull)
            .run()
        try await db.raw("""
            INSERT INTO identities (user_id, provider, subject, verified_at, created_at)
            SELECT id, 'email', email, created_at, created_at FROM users
            """).run()
        try await db.raw("""
            INSERT INTO password_credentials (user_id, hash, updated_at) SELECT id, password_hash, password_changed_at FROM users
            """).run()
        guard db.dialect.name == "sqlite" else {
            try await db.raw("ALTER TABLE users DROP COLUMN email, DROP COLUMN password_hash").run()
            return
        }
        // SQLite cannot drop a UNIQUE column: rebuild the table (foreign keys are off here).
        try await db.create(table: "users_v5")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("name", type: .text, .notNull)
            .column("first_name", type: .text, .notNull, .default(""))
            .column("last_name", type: .text, .notNull, .default(""))
            .column("created_at", type: .bigint, .notNull)
            .column("password_changed_at", type: .bigint, .notNull)
            .column("locked_at", type: .bigint)
            .run()
        try await db.raw("""
            INSERT INTO users_v5 (id, name, first_name, last_name, created_at, password_changed_at, locked_at)
            SELECT id, name, first_name, last_name, created_at, password_changed_at, locked_at FROM users
            """).run()
        try await db.raw("DROP TABLE users").run()
        try await db.raw("ALTER TABLE users_v5 RENAME TO users").run()
    }

    /// Version 6: attempt counters and server-wide secrets, shared by every instance.
    package static let throttlesAndSecrets: Step = { db in
        try await db.create(table: "throttles")
            .column("key", type: .text, .primaryKey(autoIncrement: false))
            .column("started_at", type: .bigint, .notNull)
            .column("count", type: .bigint, .notNull)
            .column("last_at", type: .bigint, .notNull)
            .run()
        try await db.create(index: "throttles_last_at").on("throttles").column("last_at").run()
        try await db.create(table: "server_secrets")
            .column("name", type: .text, .primaryKey(autoIncrement: false))
            .column("value", type: .text, .notNull)
            .run()
    }
}
