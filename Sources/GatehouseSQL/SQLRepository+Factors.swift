import Foundation
import GatehouseCore
import SQLKit

extension SQLRepository: FactorRepository {
    struct FactorRow: Codable {
        var id: String
        var userId: String
        var kind: String
        var friendlyName: String
        var sealedSecret: String
        var status: String
        var createdAt: Int64
        var verifiedAt: Int64?
        var lastStep: Int64?

        enum CodingKeys: String, CodingKey {
            case id, kind, status
            case userId = "user_id", friendlyName = "friendly_name", sealedSecret = "sealed_secret", createdAt = "created_at"
            case verifiedAt = "verified_at", lastStep = "last_step"
        }

        init(_ record: FactorRecord) {
            id = record.id
            userId = record.userID
            kind = record.kind.rawValue
            friendlyName = record.friendlyName
            sealedSecret = record.sealedSecret
            status = record.status.rawValue
            createdAt = record.createdAt.milliseconds
            verifiedAt = record.verifiedAt?.milliseconds
            lastStep = record.lastStep
        }

        var record: FactorRecord? {
            guard let kind = FactorRecord.Kind(rawValue: kind), let status = FactorRecord.Status(rawValue: status) else { return nil }
            return FactorRecord(
                id: id, userID: userId, kind: kind, friendlyName: friendlyName, sealedSecret: sealedSecret, status: status,
                createdAt: Date(milliseconds: createdAt), verifiedAt: verifiedAt.map(Date.init(milliseconds:)), lastStep: lastStep
            )
        }
    }

    public func addFactor(_ factor: FactorRecord, maximum: Int, unverifiedSince: Date) async throws -> Bool {
        let sqlite = database.dialect.name == "sqlite"
        let row = FactorRow(factor)
        return try await transaction { db in
            try await Self.lockUser(factor.userID, in: db, sqlite: sqlite)
            struct Count: Decodable { let count: Int64 }
            let existing = try await db.raw("""
                SELECT COUNT(*) AS count FROM factors WHERE user_id = \(bind: factor.userID)
                AND (status = 'verified' OR created_at >= \(bind: unverifiedSince.milliseconds))
                """).first(decoding: Count.self)?.count ?? 0
            guard existing < maximum else { return false }
            try await db.insert(into: "factors").model(row).run()
            return true
        }
    }

    public func factors(userID: String) async throws -> [FactorRecord] {
        try await database.select().column("*").from("factors").where("user_id", .equal, userID)
            .orderBy("created_at").orderBy("id").all(decoding: FactorRow.self).compactMap(\.record)
    }

    public func factor(id: String, userID: String) async throws -> FactorRecord? {
        try await database.select().column("*").from("factors").where("id", .equal, id).where("user_id", .equal, userID)
            .first(decoding: FactorRow.self)?.record
    }

    /// A second factor's code accepted (``SignInWrite/factorStepAccepted(factorID:userID:step:at:)``),
    /// in one conditional statement: the step must be newer than any accepted before, so of two
    /// requests with one code exactly one returns the row.
    static func acceptStep(factorID: String, userID: String, step: Int64, at date: Date) -> SQLQueryString {
        """
        UPDATE factors SET last_step = \(bind: step), status = 'verified',
        verified_at = COALESCE(verified_at, \(bind: date.milliseconds))
        WHERE id = \(bind: factorID) AND user_id = \(bind: userID) AND (last_step IS NULL OR last_step < \(bind: step))
        RETURNING id
        """
    }

    public func deleteFactor(id: String, userID: String) async throws -> Bool {
        try await write {
            !(try await database.delete(from: "factors").where("id", .equal, id).where("user_id", .equal, userID).returning("id").all()).isEmpty
        }
    }

    public func deleteFactors(userID: String) async throws -> [String] {
        struct Row: Decodable { let id: String }
        return try await write {
            try await database.delete(from: "factors").where("user_id", .equal, userID).returning("id").all(decoding: Row.self).map(\.id)
        }
    }

    public func deleteUnverifiedFactors(createdBefore date: Date) async throws -> Int {
        try await write {
            try await database.delete(from: "factors").where("status", .equal, FactorRecord.Status.unverified.rawValue)
                .where("created_at", .lessThan, date.milliseconds).returning("id").all().count
        }
    }
}
