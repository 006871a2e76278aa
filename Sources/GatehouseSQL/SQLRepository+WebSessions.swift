import Foundation
import GatehouseCore
import SQLKit

extension SQLRepository {
    package struct WebSessionRow: Codable {
        package enum CodingKeys: String, CodingKey {
            case idHash = "id_hash", sessionId = "session_id", createdAt = "created_at", lastSeenAt = "last_seen_at"
        }

        package var idHash: String
        package var sessionId: String
        package var createdAt: Int64
        package var lastSeenAt: Int64

        package init(_ record: WebSessionRecord) {
            idHash = record.idHash
            sessionId = record.sessionID
            createdAt = record.createdAt.milliseconds
            lastSeenAt = record.lastSeenAt.milliseconds
        }

        package var record: WebSessionRecord {
            WebSessionRecord(
                idHash: idHash, sessionID: sessionId, createdAt: Date(milliseconds: createdAt),
                lastSeenAt: Date(milliseconds: lastSeenAt)
            )
        }
    }

    public func webSession(hash: String) async throws -> WebSessionRecord? {
        try await database.select().column("*").from("web_sessions").where("id_hash", .equal, hash)
            .first(decoding: WebSessionRow.self)?
            .record
    }

    public func touchWebSession(hash: String, at date: Date) async throws {
        try await write {
            try await database.update("web_sessions").set("last_seen_at", to: date.milliseconds)
                .where("id_hash", .equal, hash).run()
        }
    }
}
