import SQLKit

extension SchemaMigrations {
    /// Version 10: one-time codes for phone sign-in and registration (seed 004).
    package static let phoneCodes: Step = { db in
        try await db.create(table: "phone_codes")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("phone", type: .text, .notNull, .unique)
            .column("purpose", type: .text, .notNull)
            .column("name", type: .text)
            .column("code_mac", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .column("attempts", type: .bigint, .notNull)
            .column("consumed_at", type: .bigint)
            .run()
    }
}
