import SQLKit

extension SchemaMigrations {
    /// Version 22: the outbox (issue 40): every outgoing message, written with the change that
    /// caused it, its content sealed and dropped once sent.
    package static let outbox: Step = { db in
        try await db.create(table: "outbox")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("channel", type: .text, .notNull)
            .column("purpose", type: .text, .notNull)
            .column("recipient", type: .text, .notNull)
            .column("payload", type: .text)
            .column("state", type: .text, .notNull)
            .column("attempts", type: .bigint, .notNull)
            .column("next_attempt_at", type: .bigint, .notNull)
            .column("lease_until", type: .bigint)
            .column("created_at", type: .bigint, .notNull)
            .column("sent_at", type: .bigint)
            .column("last_error", type: .text)
            .run()
        try await db.create(index: "outbox_due").on("outbox").column("state").column("next_attempt_at").run()
        try await db.create(index: "outbox_sent_at").on("outbox").column("sent_at").run()
    }
}
