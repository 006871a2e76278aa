import Foundation
import GatehouseCore
import SQLKit

/// The one store of one-time secrets (`one_time_secrets`); phone codes and provider flows are
/// the core's views of it, so they need no SQL of their own.
extension SQLRepository: OneTimeSecretRepository, PhoneCodeRepository, OIDCFlowRepository {
    package struct SecretRow: Codable {
        package var purpose: String
        package var id: String
        package var target: String
        package var secretMac: String?
        package var data: String
        package var attempts: Int64
        package var createdAt: Int64
        package var expiresAt: Int64
        package var consumedAt: Int64?

        package enum CodingKeys: String, CodingKey {
            case purpose, id, target, data, attempts
            case secretMac = "secret_mac", createdAt = "created_at", expiresAt = "expires_at", consumedAt = "consumed_at"
        }

        package var secret: OneTimeSecret {
            OneTimeSecret(
                purpose: OneTimeSecretPurpose(rawValue: purpose), id: id, target: target, secretMAC: secretMac, data: Data(data.utf8),
                attempts: Int(attempts), createdAt: Date(milliseconds: createdAt), expiresAt: Date(milliseconds: expiresAt),
                consumedAt: consumedAt.map(Date.init(milliseconds:))
            )
        }
    }

    public func putSecret(_ secret: OneTimeSecret) async throws {
        try await write { try await database.raw(Self.upsert(secret)).run() }
    }

    public func putSecret(
        _ secret: OneTimeSecret, countingUnder key: String, maximum: Int, window: TimeInterval, at date: Date
    ) async throws -> ThrottleCounter {
        try await transaction { db in
            let counter = try await Self.hit(key, window: window, at: date, in: db)
            if counter.count <= maximum { try await db.raw(Self.upsert(secret)).run() }
            return counter
        }
    }

    /// One statement: the target's old secret, live or not, is replaced as the new one lands.
    package static func upsert(_ secret: OneTimeSecret) -> SQLQueryString {
        """
            INSERT INTO one_time_secrets (purpose, id, target, secret_mac, data, attempts, created_at, expires_at, consumed_at)
            VALUES (\(bind: secret.purpose.rawValue), \(bind: secret.id), \(bind: secret.target), \(bind: secret.secretMAC),
            \(bind: String(decoding: secret.data, as: UTF8.self)), \(bind: secret.attempts), \(bind: secret.createdAt.milliseconds),
            \(bind: secret.expiresAt.milliseconds), \(bind: secret.consumedAt?.milliseconds))
            ON CONFLICT (purpose, target) DO UPDATE SET id = excluded.id, secret_mac = excluded.secret_mac, data = excluded.data,
            attempts = excluded.attempts, created_at = excluded.created_at, expires_at = excluded.expires_at,
            consumed_at = excluded.consumed_at
            """
    }

    // The two reads are SQL text: SQLKit's select builder quoted and escaped each name again
    // at every call, about eight times the cost of the statement's own text (issue 41).

    public func secret(_ purpose: OneTimeSecretPurpose, id: String) async throws -> OneTimeSecret? {
        try await database.raw("SELECT * FROM one_time_secrets WHERE purpose = \(bind: purpose.rawValue) AND id = \(bind: id)")
            .first(decoding: SecretRow.self)?.secret
    }

    public func secret(_ purpose: OneTimeSecretPurpose, target: String) async throws -> OneTimeSecret? {
        try await database.raw("SELECT * FROM one_time_secrets WHERE purpose = \(bind: purpose.rawValue) AND target = \(bind: target)")
            .first(decoding: SecretRow.self)?.secret
    }

    public func claimAttempt(_ purpose: OneTimeSecretPurpose, id: String, maximum: Int, now: Date) async throws -> OneTimeSecret? {
        let query: SQLQueryString = """
            UPDATE one_time_secrets SET attempts = attempts + 1
            WHERE purpose = \(bind: purpose.rawValue) AND id = \(bind: id) AND consumed_at IS NULL
            AND attempts < \(bind: maximum) AND expires_at > \(bind: now.milliseconds)
            RETURNING *
            """
        return try await write { try await database.raw(query).first(decoding: SecretRow.self)?.secret }
    }

    public func consumeSecret(_ purpose: OneTimeSecretPurpose, id: String, at date: Date, unexpiredAt: Date?) async throws -> OneTimeSecret? {
        let statement = Self.consume(purpose, id: id, at: date, unexpiredAt: unexpiredAt)
        return try await write { try await database.raw(statement).first(decoding: SecretRow.self)?.secret }
    }

    /// One statement: the secret marked used at `date` and returned, if it was unused (and, with
    /// `unexpiredAt`, unexpired then); no row for every other caller.
    static func consume(_ purpose: OneTimeSecretPurpose, id: String, at date: Date, unexpiredAt: Date?) -> SQLQueryString {
        var query: SQLQueryString = """
            UPDATE one_time_secrets SET consumed_at = \(bind: date.milliseconds)
            WHERE purpose = \(bind: purpose.rawValue) AND id = \(bind: id) AND consumed_at IS NULL
            """
        if let unexpiredAt { query = query + " AND expires_at > \(bind: unexpiredAt.milliseconds)" }
        return query + " RETURNING *"
    }

    public func setSecretExpiry(_ purpose: OneTimeSecretPurpose, id: String, to date: Date) async throws {
        try await write {
            try await database.update("one_time_secrets").set("expires_at", to: date.milliseconds)
                .where("purpose", .equal, purpose.rawValue).where("id", .equal, id).run()
        }
    }

    public func deleteSecret(_ purpose: OneTimeSecretPurpose, id: String) async throws {
        try await write {
            try await database.delete(from: "one_time_secrets").where("purpose", .equal, purpose.rawValue).where("id", .equal, id).run()
        }
    }

    public func purgeSecrets(_ purposes: [OneTimeSecretPurpose], before: Date) async throws -> Int {
        try await write {
            try await database.delete(from: "one_time_secrets")
                .where("purpose", .in, purposes.map(\.rawValue)).where("expires_at", .lessThan, before.milliseconds)
                .returning("id").all().count
        }
    }
}
