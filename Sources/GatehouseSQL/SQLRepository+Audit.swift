import Foundation
import GatehouseCore
import SQLKit

extension SQLRepository: AuditRepository {
    /// A stored entry: its number and the columns it was inserted with.
    struct AuditRow: Decodable {
        var id: Int64
        var fields: NewAuditRow

        private enum Key: String, CodingKey { case id }

        init(from decoder: any Decoder) throws {
            id = try decoder.container(keyedBy: Key.self).decode(Int64.self, forKey: .id)
            fields = try NewAuditRow(from: decoder)
        }

        var entry: AuditEntry {
            AuditEntry(
                id: id, at: Date(milliseconds: fields.at), type: fields.type, userID: fields.userId, account: fields.accountRef,
                address: fields.ipAddress, device: fields.deviceLabel, actor: fields.actor,
                details: (try? JSONDecoder().decode([String: String].self, from: Data(fields.details.utf8))) ?? [:]
            )
        }
    }

    /// An entry to insert: every column but `id`.
    struct NewAuditRow: Codable {
        var at: Int64
        var type: String
        var userId: String?
        var accountRef: String?
        var ipAddress: String?
        var deviceLabel: String?
        var actor: String?
        var details: String

        enum CodingKeys: String, CodingKey {
            case at, type, actor, details
            case userId = "user_id", accountRef = "account_ref", ipAddress = "ip_address", deviceLabel = "device_label"
        }

        init(_ entry: AuditEntry) {
            at = entry.at.milliseconds
            type = entry.type
            userId = entry.userID
            accountRef = entry.account
            ipAddress = entry.address
            deviceLabel = entry.device
            actor = entry.actor
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            details = (try? encoder.encode(entry.details)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        }
    }

    /// Rows per INSERT: eight binds each keeps a statement far below SQLite's bind limit.
    static let auditRowsPerInsert = 500

    public func appendAuditEntries(_ entries: [AuditEntry], queueing export: OutboxRecord?) async throws {
        guard !entries.isEmpty else { return }
        let rows = entries.map(NewAuditRow.init)
        try await transaction { db in
            for start in stride(from: 0, to: rows.count, by: Self.auditRowsPerInsert) {
                let chunk = rows[start..<min(start + Self.auditRowsPerInsert, rows.count)]
                try await db.raw(Self.insertAuditRows(chunk)).run()
            }
            if let export { try await db.raw(Self.insert(export)).run() }
        }
    }

    /// One INSERT of `rows`, as SQL text with binds: every sign-in writes an entry, and SQLKit's
    /// insert builder encoded each through `Codable` and quoted every column name again.
    static func insertAuditRows(_ rows: ArraySlice<NewAuditRow>) -> SQLQueryString {
        let values = rows.map { row -> SQLQueryString in
            """
            (\(bind: row.at), \(bind: row.type), \(bind: row.userId), \(bind: row.accountRef), \(bind: row.ipAddress), \
            \(bind: row.deviceLabel), \(bind: row.actor), \(bind: row.details))
            """
        }
        return """
            INSERT INTO audit_events (at, type, user_id, account_ref, ip_address, device_label, actor, details) \
            VALUES \(values.joined(separator: ", "))
            """
    }

    public func auditEntries(_ query: AuditQuery) async throws -> [AuditEntry] {
        var select = database.select().column("*").from("audit_events")
        if let userID = query.userID {
            let accounts = query.accounts
            select = select.where { group in
                accounts.reduce(group.where("user_id", .equal, userID)) { $0.orWhere("account_ref", .equal, $1) }
            }
        }
        if let since = query.since { select = select.where("at", .greaterThanOrEqual, since.milliseconds) }
        if !query.types.isEmpty {
            let types = query.types
            select = select.where { group in
                types.reduce(group) { group, type in
                    type.hasSuffix(".") ? group.orWhere(Self.prefix(of: type), .equal, SQLBind(type)) : group.orWhere("type", .equal, type)
                }
            }
        }
        return try await select.orderBy("id", .descending).limit(max(0, query.limit)).all(decoding: AuditRow.self).map(\.entry)
    }

    public func pruneAuditEntries(before date: Date) async throws -> Int {
        try await write {
            try await database.delete(from: "audit_events").where("at", .lessThan, date.milliseconds).returning("id").all().count
        }
    }

    /// `substr(type, 1, n)`: the type's first `n` characters, to match a `admin.`-style prefix
    /// exactly (LIKE would read `_` as a wildcard). The length is a literal: PostgreSQL's
    /// `substr` takes an integer, not a bound bigint.
    private static func prefix(of type: String) -> SQLFunction {
        SQLFunction("substr", args: SQLColumn("type"), SQLLiteral.numeric("1"), SQLLiteral.numeric("\(type.count)"))
    }
}
