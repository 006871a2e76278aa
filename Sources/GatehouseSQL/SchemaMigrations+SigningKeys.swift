import SQLKit

extension SchemaMigrations {
    /// Version 8: signing keys move from a file beside the database into the database, so every
    /// instance signs and verifies with the same keys.
    package static let signingKeys: Step = { db in
        try await db.create(table: "signing_keys")
            .column("kid", type: .text, .primaryKey(autoIncrement: false))
            .column("sealed_private_key", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("retired_at", type: .bigint)
            .run()
    }
}
