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
