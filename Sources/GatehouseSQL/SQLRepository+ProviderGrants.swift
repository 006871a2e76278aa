import Foundation
import GatehouseCore
import SQLKit

extension SQLRepository: ProviderGrantRepository {
    struct ProviderGrantRow: Codable {
        var provider: String
        var subject: String
        var userId: String
        var privateEmail: Int
        var sealedToken: String?
        var updatedAt: Int64

        enum CodingKeys: String, CodingKey {
            case provider, subject
            case userId = "user_id", privateEmail = "private_email", sealedToken = "sealed_token", updatedAt = "updated_at"
        }

        var record: ProviderGrantRecord {
            ProviderGrantRecord(
                userID: userId, provider: IdentityProvider(rawValue: provider), subject: subject, privateEmail: privateEmail != 0,
                sealedToken: sealedToken, updatedAt: Date(milliseconds: updatedAt)
            )
        }
    }

    public func saveProviderGrant(_ grant: ProviderGrantRecord) async throws {
        try await database.raw("""
            INSERT INTO provider_grants (provider, subject, user_id, private_email, sealed_token, updated_at)
            VALUES (\(bind: grant.provider.rawValue), \(bind: grant.subject), \(bind: grant.userID), \(bind: grant.privateEmail ? 1 : 0),
                    \(bind: grant.sealedToken), \(bind: grant.updatedAt.milliseconds))
            ON CONFLICT (provider, subject) DO UPDATE SET user_id = excluded.user_id, private_email = excluded.private_email,
                sealed_token = COALESCE(excluded.sealed_token, provider_grants.sealed_token), updated_at = excluded.updated_at
            """).run()
    }

    public func providerGrants(userID: String) async throws -> [ProviderGrantRecord] {
        try await database.raw("""
            SELECT provider, subject, user_id, private_email, sealed_token, updated_at FROM provider_grants
            WHERE user_id = \(bind: userID) ORDER BY provider
            """).all(decoding: ProviderGrantRow.self).map(\.record)
    }

    public func takeProviderGrants(userID: String, provider: IdentityProvider?) async throws -> [ProviderGrantRecord] {
        // One statement: of two racing removals, each row is returned to one of them only.
        let only = provider.map { SQLQueryString("AND provider = \(bind: $0.rawValue)") } ?? SQLQueryString("")
        return try await database.raw("""
            DELETE FROM provider_grants WHERE user_id = \(bind: userID) \(only)
            RETURNING provider, subject, user_id, private_email, sealed_token, updated_at
            """).all(decoding: ProviderGrantRow.self).map(\.record)
    }
}
