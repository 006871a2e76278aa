import Foundation
import GatehouseCore
import SQLKit

extension SQLRepository: PasskeyRepository {
    struct PasskeyRow: Codable {
        var id: String
        var userId: String
        var credentialId: String
        var publicKey: String
        var algorithm: Int64
        var signCount: Int64
        var backupEligible: Int64
        var backedUp: Int64
        var transports: String
        var name: String
        var createdAt: Int64
        var lastUsedAt: Int64?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, algorithm, transports, name
            case userId = "user_id", credentialId = "credential_id", publicKey = "public_key", signCount = "sign_count"
            case backupEligible = "backup_eligible", backedUp = "backed_up", createdAt = "created_at", lastUsedAt = "last_used_at"
        }

        init(_ record: PasskeyRecord) {
            id = record.id
            userId = record.userID
            credentialId = Data(record.credentialID).base64URLEncoded()
            publicKey = Data(record.publicKey).base64URLEncoded()
            algorithm = Int64(record.algorithm)
            signCount = Int64(record.signCount)
            backupEligible = record.backupEligible ? 1 : 0
            backedUp = record.backedUp ? 1 : 0
            transports = record.transports.joined(separator: ",")
            name = record.name
            createdAt = record.createdAt.milliseconds
            lastUsedAt = record.lastUsedAt?.milliseconds
        }

        var record: PasskeyRecord {
            PasskeyRecord(
                id: id, userID: userId, credentialID: Array(Data(base64URLEncoded: credentialId) ?? Data()),
                publicKey: Array(Data(base64URLEncoded: publicKey) ?? Data()), algorithm: Int(algorithm),
                signCount: UInt32(clamping: signCount), backupEligible: backupEligible != 0, backedUp: backedUp != 0,
                transports: transports.split(separator: ",").map(String.init), name: name, createdAt: Date(milliseconds: createdAt),
                lastUsedAt: lastUsedAt.map(Date.init(milliseconds:))
            )
        }
    }

    public func addPasskey(_ passkey: PasskeyRecord, handle: IdentityRecord) async throws -> Bool {
        let row = PasskeyRow(passkey)
        let identity = IdentityRow(handle)
        return try await transaction { db in
            let current = try await db.select().column("*").from("identities")
                .where("user_id", .equal, handle.userID).where("provider", .equal, handle.provider.rawValue)
                .first(decoding: IdentityRow.self)
            if let current, current.subject != handle.subject { return false }
            if current == nil { try await db.insert(into: "identities").model(identity).run() }
            let inserted = try await db.insert(into: "passkeys").model(row).ignoringConflicts(with: ["credential_id"]).returning("id").all()
            if inserted.isEmpty { throw RepositoryError.duplicateIdentity }
            return true
        }
    }

    public func passkey(credentialID: [UInt8]) async throws -> PasskeyRecord? {
        try await database.select().column("*").from("passkeys")
            .where("credential_id", .equal, Data(credentialID).base64URLEncoded())
            .first(decoding: PasskeyRow.self)?.record
    }

    public func passkey(credentialID: [UInt8], handle: String) async throws -> (PasskeyRecord, owner: UserRecord?)? {
        // One statement: the credential, and the account whose user handle was presented.
        let query: SQLQueryString = """
            SELECT \(unsafeRaw: Self.passkeyColumns), \(unsafeRaw: Self.userColumns) FROM passkeys p
            LEFT JOIN identities i ON i.provider = 'passkey' AND i.subject = \(bind: handle)
            LEFT JOIN users u ON u.id = i.user_id
            LEFT JOIN identities e ON e.user_id = u.id AND e.provider = 'email'
            WHERE p.credential_id = \(bind: Data(credentialID).base64URLEncoded())
            """
        guard let row = try await database.raw(query).first() else { return nil }
        let owner = try row.decodeNil(column: "u_id") ? nil : try row.decode(model: UserRow.self, prefix: "u_").record
        return (try row.decode(model: PasskeyRow.self, prefix: "p_").record, owner)
    }

    private static let passkeyColumns = PasskeyRow.CodingKeys.allCases.map { "p.\($0.rawValue) AS p_\($0.rawValue)" }.joined(separator: ", ")

    public func passkeys(userID: String) async throws -> [PasskeyRecord] {
        try await database.select().column("*").from("passkeys").where("user_id", .equal, userID)
            .orderBy("created_at").orderBy("id").all(decoding: PasskeyRow.self).map(\.record)
    }

    public func renamePasskey(id: String, userID: String, to name: String) async throws -> Bool {
        try await write {
            !(try await database.update("passkeys").set("name", to: name).where("id", .equal, id).where("user_id", .equal, userID)
                .returning("id").all()).isEmpty
        }
    }

    public func deletePasskey(id: String, userID: String, keepingAWayIn: Bool) async throws -> Bool {
        let sqlite = database.dialect.name == "sqlite"
        return try await transaction { db in
            if keepingAWayIn { try await Self.lockUser(userID, in: db, sqlite: sqlite) }
            let deleted = try await db.delete(from: "passkeys").where("id", .equal, id).where("user_id", .equal, userID).returning("id").all()
            guard !deleted.isEmpty else { return false }
            if keepingAWayIn, try await !Self.hasAWayIn(userID, in: db) { throw RepositoryError.lastWayIn }
            // The user handle goes with the last passkey, in the same transaction.
            try await db.raw("""
                DELETE FROM identities WHERE user_id = \(bind: userID) AND provider = 'passkey'
                AND NOT EXISTS (SELECT 1 FROM passkeys WHERE user_id = \(bind: userID))
                """).run()
            return true
        }
    }

    public func deletePasskeys(userID: String) async throws -> [String] {
        try await transaction { db in
            let deleted = try await db.delete(from: "passkeys").where("user_id", .equal, userID).returning("id").all()
            try await db.delete(from: "identities").where("user_id", .equal, userID).where("provider", .equal, IdentityProvider.passkey.rawValue)
                .run()
            return try deleted.map { try $0.decode(column: "id", as: String.self) }
        }
    }

    /// A passkey's sign-in (``SignInWrite/passkeyUsed(credentialID:signCount:backedUp:at:)``), in
    /// one statement: the counter only grows, whatever order parallel sign-ins land in.
    static func passkeyUse(credentialID: [UInt8], signCount: UInt32, backedUp: Bool, at date: Date) -> SQLQueryString {
        """
        UPDATE passkeys SET sign_count = CASE WHEN sign_count < \(bind: Int64(signCount)) THEN \(bind: Int64(signCount)) ELSE sign_count END,
        backed_up = \(bind: backedUp ? 1 : 0), last_used_at = \(bind: date.milliseconds)
        WHERE credential_id = \(bind: Data(credentialID).base64URLEncoded())
        """
    }
}
