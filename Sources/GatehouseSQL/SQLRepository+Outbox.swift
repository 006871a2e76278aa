import Foundation
import GatehouseCore
import SQLKit

/// The outbox (`outbox`): rows written with their cause, leased, settled.
extension SQLRepository: OutboxRepository {
    package struct OutboxRow: Codable {
        package var id: String
        package var channel: String
        package var purpose: String
        package var recipient: String
        package var payload: String?
        package var state: String
        package var attempts: Int64
        package var nextAttemptAt: Int64
        package var leaseUntil: Int64?
        package var createdAt: Int64
        package var sentAt: Int64?
        package var lastError: String?

        package enum CodingKeys: String, CodingKey {
            case id, channel, purpose, recipient, payload, state, attempts
            case nextAttemptAt = "next_attempt_at", leaseUntil = "lease_until", createdAt = "created_at", sentAt = "sent_at"
            case lastError = "last_error"
        }

        /// `nil` for a row whose channel, purpose or state this build does not know.
        package var record: OutboxRecord? {
            guard let channel = MessageChannel(rawValue: channel), let purpose = MessagePurpose(rawValue: purpose),
                  let state = OutboxState(rawValue: state)
            else { return nil }
            return OutboxRecord(
                id: id, channel: channel, purpose: purpose, recipient: recipient, sealedPayload: payload, state: state,
                attempts: Int(attempts), nextAttemptAt: Date(milliseconds: nextAttemptAt), leaseUntil: leaseUntil.map(Date.init(milliseconds:)),
                createdAt: Date(milliseconds: createdAt), sentAt: sentAt.map(Date.init(milliseconds:)), lastError: lastError
            )
        }
    }

    static func insert(_ message: OutboxRecord) -> SQLQueryString {
        """
        INSERT INTO outbox (id, channel, purpose, recipient, payload, state, attempts, next_attempt_at, lease_until, created_at, sent_at, last_error)
        VALUES (\(bind: message.id), \(bind: message.channel.rawValue), \(bind: message.purpose.rawValue), \(bind: message.recipient),
        \(bind: message.sealedPayload), \(bind: message.state.rawValue), \(bind: message.attempts), \(bind: message.nextAttemptAt.milliseconds),
        \(bind: message.leaseUntil?.milliseconds), \(bind: message.createdAt.milliseconds), \(bind: message.sentAt?.milliseconds),
        \(bind: message.lastError))
        """
    }

    public func queueMessage(_ message: OutboxRecord) async throws {
        try await write { try await database.raw(Self.insert(message)).run() }
    }

    public func putSecret(_ secret: OneTimeSecret, queueing message: OutboxRecord) async throws {
        try await transaction { db in
            try await db.raw(Self.upsert(secret)).run()
            try await db.raw(Self.insert(message)).run()
        }
    }

    public func claimMessages(due now: Date, leaseUntil: Date, limit: Int) async throws -> [OutboxRecord] {
        let due: SQLQueryString = """
            state = 'pending' AND next_attempt_at <= \(bind: now.milliseconds)
            AND (lease_until IS NULL OR lease_until <= \(bind: now.milliseconds))
            """
        // PostgreSQL: rows another instance is claiming are skipped, not waited for. SQLite has
        // one writer, so the statement alone is the claim.
        let lock: SQLQueryString = database.dialect.name == "sqlite" ? "" : " FOR UPDATE SKIP LOCKED"
        let query: SQLQueryString = "UPDATE outbox SET lease_until = \(bind: leaseUntil.milliseconds) WHERE id IN (SELECT id FROM outbox WHERE "
            + due + " ORDER BY next_attempt_at LIMIT \(bind: limit)" + lock + ") AND " + due + " RETURNING *"
        let rows = try await write { try await database.raw(query).all(decoding: OutboxRow.self) }
        return rows.compactMap(\.record).sorted { $0.nextAttemptAt < $1.nextAttemptAt }
    }

    public func markMessageSent(id: String, at date: Date) async throws {
        let query: SQLQueryString = """
            UPDATE outbox SET state = 'sent', payload = NULL, sent_at = \(bind: date.milliseconds), lease_until = NULL, last_error = NULL
            WHERE id = \(bind: id) AND state = 'pending'
            """
        try await write { try await database.raw(query).run() }
    }

    public func retryMessageLater(id: String, attempts: Int, at next: Date, error: String) async throws {
        let query: SQLQueryString = """
            UPDATE outbox SET attempts = \(bind: attempts), next_attempt_at = \(bind: next.milliseconds), lease_until = NULL,
            last_error = \(bind: error) WHERE id = \(bind: id) AND state = 'pending'
            """
        try await write { try await database.raw(query).run() }
    }

    public func deadLetterMessage(id: String, attempts: Int, error: String) async throws {
        let query: SQLQueryString = """
            UPDATE outbox SET state = 'dead', attempts = \(bind: attempts), lease_until = NULL, last_error = \(bind: error)
            WHERE id = \(bind: id) AND state = 'pending'
            """
        try await write { try await database.raw(query).run() }
    }

    public func deleteMessage(id: String) async throws {
        try await write { try await database.delete(from: "outbox").where("id", .equal, id).run() }
    }

    public func requeueDeadMessages(id: String?, at now: Date) async throws -> Int {
        var query: SQLQueryString = """
            UPDATE outbox SET state = 'pending', attempts = 0, next_attempt_at = \(bind: now.milliseconds), lease_until = NULL
            WHERE state = 'dead'
            """
        if let id { query = query + " AND id = \(bind: id)" }
        let statement = query + " RETURNING id"
        return try await write { try await database.raw(statement).all().count }
    }

    public func releaseMessageLeases() async throws {
        try await write { try await database.raw("UPDATE outbox SET lease_until = NULL WHERE state = 'pending' AND lease_until IS NOT NULL").run() }
    }

    public func messages(in state: OutboxState, limit: Int) async throws -> [OutboxRecord] {
        try await database.select().column("*").from("outbox").where("state", .equal, state.rawValue)
            .orderBy("created_at").limit(limit).all(decoding: OutboxRow.self).compactMap(\.record)
    }

    public func outboxBacklog() async throws -> OutboxBacklog {
        struct Row: Decodable {
            var pending: Int64
            var dead: Int64
            var oldest: Int64?
        }
        let query: SQLQueryString = """
            SELECT COUNT(CASE WHEN state = 'pending' THEN 1 END) AS pending, COUNT(CASE WHEN state = 'dead' THEN 1 END) AS dead,
            MIN(CASE WHEN state = 'pending' THEN created_at END) AS oldest
            FROM outbox WHERE state <> 'sent'
            """
        let row = try await database.raw(query).first(decoding: Row.self)
        return OutboxBacklog(pending: Int(row?.pending ?? 0), dead: Int(row?.dead ?? 0), oldestPendingAt: row?.oldest.map(Date.init(milliseconds:)))
    }

    public func pruneSentMessages(before date: Date) async throws -> Int {
        let query: SQLQueryString = "DELETE FROM outbox WHERE state = 'sent' AND sent_at < \(bind: date.milliseconds) RETURNING id"
        return try await write { try await database.raw(query).all().count }
    }
}
