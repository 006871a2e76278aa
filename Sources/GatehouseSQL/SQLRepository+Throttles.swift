import Foundation
import GatehouseCore
import SQLKit

extension SQLRepository: ThrottleRepository {
    package struct CounterRow: Decodable {
        package enum CodingKeys: String, CodingKey {
            case key, count, startedAt = "started_at", lastAt = "last_at"
        }

        package var key: String?
        package var startedAt: Int64
        package var count: Int64
        package var lastAt: Int64

        package var counter: ThrottleCounter {
            ThrottleCounter(windowStart: Date(milliseconds: startedAt), count: Int(count), lastHit: Date(milliseconds: lastAt))
        }
    }

    public func hit(_ key: String, window: TimeInterval, at date: Date) async throws -> ThrottleCounter {
        try await write { try await Self.hit(key, window: window, at: date, in: database) }
    }

    /// One statement: insert, or restart an expired window, or count one more.
    static func hit(_ key: String, window: TimeInterval, at date: Date, in db: any SQLDatabase) async throws -> ThrottleCounter {
        let now = date.milliseconds
        let expired = now - Int64(window * 1000)
        let query: SQLQueryString = """
            INSERT INTO throttles (key, started_at, count, last_at) VALUES (\(bind: key), \(bind: now), 1, \(bind: now))
            ON CONFLICT (key) DO UPDATE SET
              count = CASE WHEN throttles.started_at <= \(bind: expired) THEN 1 ELSE throttles.count + 1 END,
              started_at = CASE WHEN throttles.started_at <= \(bind: expired) THEN \(bind: now) ELSE throttles.started_at END,
              last_at = \(bind: now)
            RETURNING started_at, count, last_at
            """
        guard let row = try await db.raw(query).first(decoding: CounterRow.self) else { throw RepositoryError.noRow }
        return row.counter
    }

    public func counters(_ keys: [String]) async throws -> [String: ThrottleCounter] {
        guard !keys.isEmpty else { return [:] }
        // SQL text, not the select builder: every sign-in reads its counters here.
        let rows = try await database.raw("SELECT key, started_at, count, last_at FROM throttles WHERE key IN (\(binds: keys))")
            .all(decoding: CounterRow.self)
        return Dictionary(rows.compactMap { row in row.key.map { ($0, row.counter) } }, uniquingKeysWith: { first, _ in first })
    }

    @discardableResult
    public func clear(_ key: String) async throws -> Bool {
        try await write {
            !(try await database.delete(from: "throttles").where("key", .equal, key).returning("key").all()).isEmpty
        }
    }

    @discardableResult
    public func clear(prefix: String) async throws -> Int {
        // substr, not LIKE: a key may hold `_` or `%`, which LIKE would read as wildcards.
        try await write {
            try await database.raw("""
                DELETE FROM throttles WHERE substr(key, 1, length(\(bind: prefix))) = \(bind: prefix) RETURNING key
                """).all().count
        }
    }

    public func purge(before date: Date) async throws -> Int {
        try await write {
            try await database.delete(from: "throttles").where("last_at", .lessThan, date.milliseconds)
                .returning("key").all().count
        }
    }
}

extension SQLRepository: SecretRepository {
    public func secret(_ name: String, orInsert candidate: Data) async throws -> Data {
        struct Row: Decodable { let value: String }
        let encoded = candidate.base64EncodedString()
        try await write {
            try await database.raw("""
                INSERT INTO server_secrets (name, value) VALUES (\(bind: name), \(bind: encoded)) ON CONFLICT (name) DO NOTHING
                """).run()
        }
        guard let row = try await database.select().column("value").from("server_secrets").where("name", .equal, name)
            .first(decoding: Row.self), let data = Data(base64Encoded: row.value)
        else { throw RepositoryError.missingSecret(name) }
        return data
    }
}
