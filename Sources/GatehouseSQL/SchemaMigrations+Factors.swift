import SQLKit

extension SchemaMigrations {
    /// Version 18: second factors (`factors`), each one account's, its secret sealed.
    package static let factors: Step = { db in
        try await db.create(table: "factors")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("user_id", type: .text, .notNull, .references("users", "id", onDelete: .cascade))
            .column("kind", type: .text, .notNull)
            .column("friendly_name", type: .text, .notNull)
            .column("sealed_secret", type: .text, .notNull)
            .column("status", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("verified_at", type: .bigint)
            .column("last_step", type: .bigint)
            .run()
        try await db.create(index: "factors_user_id").on("factors").column("user_id").run()
    }
}

extension SchemaMigrations {
    /// Version 19: what a session proved (`sessions.aal`, `sessions.amr`), challenges of a
    /// second factor (`factor_challenges`, each with its wrong tries) and recovery codes
    /// (`recovery_codes`, hashed, each used once).
    package static let secondFactorChallenges: Step = { db in
        try await db.alter(table: "sessions").column("aal", type: .text).run()
        try await db.alter(table: "sessions").column("amr", type: .text).run()
        try await db.create(table: "factor_challenges")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("user_id", type: .text, .notNull, .references("users", "id", onDelete: .cascade))
            .column("factor_id", type: .text)
            .column("created_at", type: .bigint, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .column("failures", type: .int, .notNull, .default(0))
            .column("completed_at", type: .bigint)
            .run()
        try await db.create(index: "factor_challenges_user_id").on("factor_challenges").column("user_id").run()
        try await db.create(table: "recovery_codes")
            .column("user_id", type: .text, .notNull, .references("users", "id", onDelete: .cascade))
            .column("code_hash", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("used_at", type: .bigint)
            .primaryKey("user_id", "code_hash")
            .run()
    }
}
