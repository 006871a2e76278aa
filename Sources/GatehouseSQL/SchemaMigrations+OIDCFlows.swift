import SQLKit

extension SchemaMigrations {
    /// Version 11: sign-in flows with an external provider (Google), shared by every instance.
    ///
    /// A flow is known by the hash of its `state`; its nonce and PKCE verifier are derived from
    /// the state with a server key, so no secret of the flow is stored. A flow that returns to an
    /// app (GoTrue's authorize, the CLI) ends with a one-time code, also stored only as a hash.
    package static let oidcFlows: Step = { db in
        try await db.create(table: "oidc_flows")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("provider", type: .text, .notNull)
            .column("purpose", type: .text, .notNull)
            .column("binding_hash", type: .text, .notNull)
            .column("return_to", type: .text)
            .column("client_state", type: .text)
            .column("code_challenge", type: .text)
            .column("user_id", type: .text)
            .column("is_new_user", type: .bigint, .notNull, .default(0))
            .column("code_hash", type: .text, .unique)
            .column("created_at", type: .bigint, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .column("consumed_at", type: .bigint)
            .column("exchanged_at", type: .bigint)
            .run()
        try await db.create(index: "oidc_flows_expires_at").on("oidc_flows").column("expires_at").run()
    }
}
