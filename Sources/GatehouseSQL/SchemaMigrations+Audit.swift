import SQLKit

extension SchemaMigrations {
    /// Version 15: the audit log (`audit_events`), one row per security event, numbered in
    /// the order they were written; details are a JSON object in text.
    package static let auditLog: Step = { db in
        try await db.create(table: "audit_events")
            .column("id", type: .bigint, .primaryKey(autoIncrement: true))
            .column("at", type: .bigint, .notNull)
            .column("type", type: .text, .notNull)
            .column("user_id", type: .text)
            .column("account_ref", type: .text)
            .column("ip_address", type: .text)
            .column("device_label", type: .text)
            .column("actor", type: .text)
            .column("details", type: .text, .notNull)
            .run()
        try await db.create(index: "audit_events_at").on("audit_events").column("at").run()
        try await db.create(index: "audit_events_user_at").on("audit_events").column("user_id").column("at").run()
    }

    /// Version 16: a lock may end (`users.locked_until`): a ban for a time, as GoTrue's
    /// `ban_duration` sets `banned_until`. A lock without an end lasts until it is lifted.
    package static let bans: Step = { db in
        try await db.alter(table: "users").column("locked_until", type: .bigint).run()
    }
}
