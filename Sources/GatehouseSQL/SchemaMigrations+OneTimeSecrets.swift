import Foundation
import GatehouseCore
import SQLKit

extension SchemaMigrations {
    /// Version 13: one store for every one-time secret (`one_time_secrets`), keyed by purpose
    /// and id, with one live secret per purpose and target.
    ///
    /// Phone codes and provider flows move in with their state (tries, use, expiry), so a code
    /// sent or a flow started before the upgrade still works after it; the old tables go.
    package static let oneTimeSecrets: Step = { db in
        try await db.create(table: "one_time_secrets")
            .column("purpose", type: .text, .notNull)
            .column("id", type: .text, .notNull)
            .column("target", type: .text, .notNull)
            .column("secret_mac", type: .text)
            .column("data", type: .text, .notNull)
            .column("attempts", type: .bigint, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .column("consumed_at", type: .bigint)
            .primaryKey("purpose", "id")
            .unique("purpose", "target")
            .run()
        try await db.create(index: "one_time_secrets_expires_at").on("one_time_secrets").column("expires_at").run()
        for code in try await db.select().column("*").from("phone_codes").all(decoding: PhoneCodeRow.self) {
            try await insert(code.record.secret, into: db)
        }
        for flow in try await db.select().column("*").from("oidc_flows").all(decoding: FlowRow.self) {
            try await insert(flow.record.secret(purpose: .providerFlow, id: flow.id), into: db)
            if let hash = flow.codeHash {
                var returned = flow.record.secret(purpose: .providerReturn, id: hash)
                returned.consumedAt = flow.exchangedAt.map(Date.init(milliseconds:))
                try await insert(returned, into: db)
            }
        }
        try await db.drop(table: "phone_codes").run()
        try await db.drop(table: "oidc_flows").run()
    }

    private static func insert(_ secret: OneTimeSecret, into db: any SQLDatabase) async throws {
        try await db.insert(into: "one_time_secrets")
            .columns("purpose", "id", "target", "secret_mac", "data", "attempts", "created_at", "expires_at", "consumed_at")
            .values(
                SQLBind(secret.purpose.rawValue), SQLBind(secret.id), SQLBind(secret.target), SQLBind(secret.secretMAC),
                SQLBind(String(decoding: secret.data, as: UTF8.self)), SQLBind(secret.attempts), SQLBind(secret.createdAt.milliseconds),
                SQLBind(secret.expiresAt.milliseconds), SQLBind(secret.consumedAt?.milliseconds)
            )
            .run()
    }
}

extension SchemaMigrations {
    /// A row of version 10's `phone_codes`, read once by the move to version 13.
    struct PhoneCodeRow: Decodable {
        var id: String
        var phone: String
        var purpose: String
        var name: String?
        var codeMac: String
        var createdAt: Int64
        var expiresAt: Int64
        var attempts: Int64
        var consumedAt: Int64?

        enum CodingKeys: String, CodingKey {
            case id, phone, purpose, name, attempts
            case codeMac = "code_mac", createdAt = "created_at", expiresAt = "expires_at", consumedAt = "consumed_at"
        }

        var record: PhoneCodeRecord {
            PhoneCodeRecord(
                id: id, phone: phone, purpose: PhoneCodePurpose(rawValue: purpose) ?? .signIn, name: name, codeMAC: codeMac,
                createdAt: Date(milliseconds: createdAt), expiresAt: Date(milliseconds: expiresAt), attempts: Int(attempts),
                consumedAt: consumedAt.map(Date.init(milliseconds:))
            )
        }
    }

    /// A row of version 11's `oidc_flows`, read once by the move to version 13.
    struct FlowRow: Decodable {
        var id: String
        var provider: String
        var purpose: String
        var bindingHash: String
        var returnTo: String?
        var clientState: String?
        var codeChallenge: String?
        var userId: String?
        var isNewUser: Int64
        var codeHash: String?
        var createdAt: Int64
        var expiresAt: Int64
        var consumedAt: Int64?
        var exchangedAt: Int64?

        enum CodingKeys: String, CodingKey {
            case id, provider, purpose
            case bindingHash = "binding_hash", returnTo = "return_to", clientState = "client_state", codeChallenge = "code_challenge"
            case userId = "user_id", isNewUser = "is_new_user", codeHash = "code_hash", createdAt = "created_at"
            case expiresAt = "expires_at", consumedAt = "consumed_at", exchangedAt = "exchanged_at"
        }

        var record: OIDCFlowRecord {
            OIDCFlowRecord(
                id: id, provider: IdentityProvider(rawValue: provider), purpose: OIDCFlowPurpose(rawValue: purpose) ?? .web,
                bindingHash: bindingHash, returnTo: returnTo, clientState: clientState, codeChallenge: codeChallenge,
                userID: userId, isNewUser: isNewUser != 0, createdAt: Date(milliseconds: createdAt),
                expiresAt: Date(milliseconds: expiresAt), consumedAt: consumedAt.map(Date.init(milliseconds:))
            )
        }
    }
}
