import SQLKit

extension SchemaMigrations {
    /// Version 7: web sessions get their own ids, apart from refresh tokens.
    package static let webSessions: Step = { db in
        try await db.create(table: "web_sessions")
            .column("id_hash", type: .text, .primaryKey(autoIncrement: false))
            .column("session_id", type: .text, .notNull, .references("sessions", "id", onDelete: .cascade))
            .column("created_at", type: .bigint, .notNull)
            .column("last_seen_at", type: .bigint, .notNull)
            .run()
        try await db.create(index: "web_sessions_session_id").on("web_sessions").column("session_id").run()
    }
}
