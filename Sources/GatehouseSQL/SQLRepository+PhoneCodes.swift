import Foundation
import GatehouseCore
import SQLKit

extension SQLRepository: PhoneCodeRepository {
    package struct PhoneCodeRow: Codable {
        package var id: String
        package var phone: String
        package var purpose: String
        package var name: String?
        package var codeMac: String
        package var createdAt: Int64
        package var expiresAt: Int64
        package var attempts: Int64
        package var consumedAt: Int64?

        package enum CodingKeys: String, CodingKey {
            case id, phone, purpose, name, attempts
            case codeMac = "code_mac", createdAt = "created_at", expiresAt = "expires_at", consumedAt = "consumed_at"
        }

        package var record: PhoneCodeRecord {
            PhoneCodeRecord(
                id: id, phone: phone, purpose: PhoneCodePurpose(rawValue: purpose) ?? .signIn, name: name, codeMAC: codeMac,
                createdAt: Date(milliseconds: createdAt), expiresAt: Date(milliseconds: expiresAt), attempts: Int(attempts),
                consumedAt: consumedAt.map(Date.init(milliseconds:))
            )
        }
    }

    public func putPhoneCode(_ code: PhoneCodeRecord) async throws {
        // One statement: the phone's old code, live or not, is replaced as the new one lands.
        let query: SQLQueryString = """
            INSERT INTO phone_codes (id, phone, purpose, name, code_mac, created_at, expires_at, attempts, consumed_at)
            VALUES (\(bind: code.id), \(bind: code.phone), \(bind: code.purpose.rawValue), \(bind: code.name), \(bind: code.codeMAC),
            \(bind: code.createdAt.milliseconds), \(bind: code.expiresAt.milliseconds), 0, NULL)
            ON CONFLICT (phone) DO UPDATE SET id = excluded.id, purpose = excluded.purpose, name = excluded.name,
            code_mac = excluded.code_mac, created_at = excluded.created_at, expires_at = excluded.expires_at,
            attempts = 0, consumed_at = NULL
            """
        try await write { try await database.raw(query).run() }
    }

    public func phoneCode(id: String) async throws -> PhoneCodeRecord? {
        try await database.select().column("*").from("phone_codes").where("id", .equal, id)
            .first(decoding: PhoneCodeRow.self)?.record
    }

    public func phoneCode(phone: String) async throws -> PhoneCodeRecord? {
        try await database.select().column("*").from("phone_codes").where("phone", .equal, phone)
            .first(decoding: PhoneCodeRow.self)?.record
    }

    public func claimAttempt(id: String, maximum: Int, now: Date) async throws -> PhoneCodeRecord? {
        let query: SQLQueryString = """
            UPDATE phone_codes SET attempts = attempts + 1
            WHERE id = \(bind: id) AND consumed_at IS NULL AND attempts < \(bind: maximum) AND expires_at > \(bind: now.milliseconds)
            RETURNING *
            """
        return try await write { try await database.raw(query).first(decoding: PhoneCodeRow.self)?.record }
    }

    public func consumePhoneCode(id: String, at date: Date) async throws -> Bool {
        let query: SQLQueryString = """
            UPDATE phone_codes SET consumed_at = \(bind: date.milliseconds) WHERE id = \(bind: id) AND consumed_at IS NULL RETURNING id
            """
        return try await write { try await database.raw(query).first() != nil }
    }

    public func deletePhoneCode(id: String) async throws {
        try await write { try await database.delete(from: "phone_codes").where("id", .equal, id).run() }
    }
}
