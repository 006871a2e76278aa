import SQLKit

extension SchemaMigrations {
    /// Version 14: passkeys (`passkeys`), each a credential of one account, its id unique.
    ///
    /// Binary fields are base64url text, the same on both engines. The account's user handle
    /// is its `passkey` identity, so it needs no table.
    package static let passkeys: Step = { db in
        try await db.create(table: "passkeys")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("user_id", type: .text, .notNull, .references("users", "id", onDelete: .cascade))
            .column("credential_id", type: .text, .notNull, .unique)
            .column("public_key", type: .text, .notNull)
            .column("algorithm", type: .bigint, .notNull)
            .column("sign_count", type: .bigint, .notNull)
            .column("backup_eligible", type: .bigint, .notNull)
            .column("backed_up", type: .bigint, .notNull)
            .column("transports", type: .text, .notNull)
            .column("name", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("last_used_at", type: .bigint)
            .run()
        try await db.create(index: "passkeys_user_id").on("passkeys").column("user_id").run()
    }
}
