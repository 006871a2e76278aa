import SQLKit

extension SchemaMigrations {
    /// Version 20: what a provider gave with an identity (`provider_grants`): Apple's private
    /// relay flag and a sealed refresh token to revoke at the provider.
    package static let providerGrants: Step = { db in
        try await db.create(table: "provider_grants")
            .column("provider", type: .text, .notNull)
            .column("subject", type: .text, .notNull)
            .column("user_id", type: .text, .notNull, .references("users", "id", onDelete: .cascade))
            .column("private_email", type: .int, .notNull, .default(0))
            .column("sealed_token", type: .text)
            .column("updated_at", type: .bigint, .notNull)
            .primaryKey("provider", "subject")
            .run()
        try await db.create(index: "provider_grants_user_id").on("provider_grants").column("user_id").run()
    }
}
