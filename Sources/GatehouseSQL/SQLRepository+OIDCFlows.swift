import Foundation
import GatehouseCore
import SQLKit

extension SQLRepository: OIDCFlowRepository {
    package struct FlowRow: Codable {
        package var id: String
        package var provider: String
        package var purpose: String
        package var bindingHash: String
        package var returnTo: String?
        package var clientState: String?
        package var codeChallenge: String?
        package var userId: String?
        package var isNewUser: Int64
        package var createdAt: Int64
        package var expiresAt: Int64
        package var consumedAt: Int64?

        package enum CodingKeys: String, CodingKey {
            case id, provider, purpose
            case bindingHash = "binding_hash", returnTo = "return_to", clientState = "client_state", codeChallenge = "code_challenge"
            case userId = "user_id", isNewUser = "is_new_user", createdAt = "created_at", expiresAt = "expires_at"
            case consumedAt = "consumed_at"
        }

        package init(_ flow: OIDCFlowRecord) {
            id = flow.id
            provider = flow.provider.rawValue
            purpose = flow.purpose.rawValue
            bindingHash = flow.bindingHash
            returnTo = flow.returnTo
            clientState = flow.clientState
            codeChallenge = flow.codeChallenge
            userId = flow.userID
            isNewUser = flow.isNewUser ? 1 : 0
            createdAt = flow.createdAt.milliseconds
            expiresAt = flow.expiresAt.milliseconds
            consumedAt = flow.consumedAt?.milliseconds
        }

        package var record: OIDCFlowRecord {
            OIDCFlowRecord(
                id: id, provider: IdentityProvider(rawValue: provider), purpose: OIDCFlowPurpose(rawValue: purpose) ?? .web,
                bindingHash: bindingHash, returnTo: returnTo, clientState: clientState, codeChallenge: codeChallenge,
                userID: userId, isNewUser: isNewUser != 0, createdAt: Date(milliseconds: createdAt),
                expiresAt: Date(milliseconds: expiresAt), consumedAt: consumedAt.map(Date.init(milliseconds:))
            )
        }
    }

    public func insertFlow(_ flow: OIDCFlowRecord) async throws {
        let row = FlowRow(flow)
        try await write { try await database.insert(into: "oidc_flows").model(row).run() }
    }

    public func consumeFlow(id: String, now: Date) async throws -> OIDCFlowRecord? {
        let query: SQLQueryString = """
            UPDATE oidc_flows SET consumed_at = \(bind: now.milliseconds)
            WHERE id = \(bind: id) AND consumed_at IS NULL AND expires_at > \(bind: now.milliseconds)
            RETURNING *
            """
        return try await write { try await database.raw(query).first(decoding: FlowRow.self)?.record }
    }

    public func completeFlow(id: String, userID: String, isNewUser: Bool, codeHash: String, expiresAt: Date) async throws {
        try await write {
            try await database.update("oidc_flows")
                .set("user_id", to: userID).set("is_new_user", to: isNewUser ? 1 : 0).set("code_hash", to: codeHash)
                .set("expires_at", to: expiresAt.milliseconds)
                .where("id", .equal, id).run()
        }
    }

    public func exchangeFlowCode(hash: String, now: Date) async throws -> OIDCFlowRecord? {
        let query: SQLQueryString = """
            UPDATE oidc_flows SET exchanged_at = \(bind: now.milliseconds)
            WHERE code_hash = \(bind: hash) AND exchanged_at IS NULL AND expires_at > \(bind: now.milliseconds)
            RETURNING *
            """
        return try await write { try await database.raw(query).first(decoding: FlowRow.self)?.record }
    }

    public func purgeFlows(before: Date) async throws -> Int {
        try await write {
            try await database.delete(from: "oidc_flows").where("expires_at", .lessThan, before.milliseconds).returning("id").all().count
        }
    }
}
