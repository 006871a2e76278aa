import Foundation
import GatehouseCore
import GatehouseSQL
import Logging
import SQLKit
import Testing

/// The SQLite connection keeps statements compiled (``SQLiteHandle``): what it answers must
/// not differ from a statement compiled afresh.
@Suite struct SQLiteStatementCacheTests {
    struct Pair: Decodable, Equatable { let a: Int; let b: String? }

    @Test func aKeptSelectStarNamesTheColumnsAddedByALaterSchemaChange() async throws {
        let database = try await SQLiteDatabase(path: ":memory:", logger: Logger(label: "test"))
        let sql = database.sql
        try await sql.raw("CREATE TABLE t (a INTEGER NOT NULL)").run()
        try await sql.raw("INSERT INTO t (a) VALUES (1)").run()
        let before = try await sql.raw("SELECT * FROM t").first()
        #expect(before?.allColumns == ["a"])
        try await sql.raw("ALTER TABLE t ADD COLUMN b TEXT").run()
        try await sql.raw("UPDATE t SET b = 'x'").run()
        let after = try await sql.raw("SELECT * FROM t").first(decoding: Pair.self)
        #expect(after == Pair(a: 1, b: "x"), "the same text, compiled again for the new schema")
        try await database.close()
    }

    @Test func aKeptStatementTakesNewBindsAndNoneOfTheLastOnes() async throws {
        let database = try await SQLiteDatabase(path: ":memory:", logger: Logger(label: "test"))
        let sql = database.sql
        try await sql.raw("CREATE TABLE t (a INTEGER NOT NULL, b TEXT)").run()
        for (a, b) in [(1, "one"), (2, nil), (3, "three")] as [(Int, String?)] {
            try await sql.raw("INSERT INTO t (a, b) VALUES (\(bind: a), \(bind: b))").run()
        }
        var seen: [Pair] = []
        for a in [3, 2, 1, 4] {
            if let row = try await sql.raw("SELECT a, b FROM t WHERE a = \(bind: a)").first(decoding: Pair.self) { seen.append(row) }
        }
        #expect(seen == [Pair(a: 3, b: "three"), Pair(a: 2, b: nil), Pair(a: 1, b: "one")])
        try await database.close()
    }

    @Test func aKeptStatementIsNotCompiledAgainWhenItsBindsChange() async throws {
        // Without the planner's stability guarantee SQLite compiles `WHERE a = ?1 ORDER BY b`
        // and `LIMIT ?1` again at every run with other binds: as costly as keeping nothing.
        let database = try await SQLiteDatabase(path: ":memory:", logger: Logger(label: "test"))
        let sql = database.sql
        try await sql.raw("CREATE TABLE t (a INTEGER NOT NULL, b TEXT)").run()
        try await sql.raw("CREATE INDEX t_a ON t (a)").run()
        try await sql.raw("INSERT INTO t (a, b) VALUES (1, 'one'), (2, 'two'), (2, 'deux')").run()
        var seen: [[String?]] = []
        for (a, limit) in [(2, 1), (1, 5), (2, 2), (3, 0)] {
            seen.append(try await sql.raw("SELECT a, b FROM t WHERE a = \(bind: a) ORDER BY b LIMIT \(bind: limit)").all(decoding: Pair.self).map(\.b))
        }
        #expect(seen == [["deux"], ["one"], ["deux", "two"], []])
        #expect(try await database.recompilations() == [:])
        try await database.close()
    }

    @Test func aPasswordSignInsAccountReadStaysCompiledFromOneAccountToTheNext() async throws {
        let database = try await SQLiteDatabase(path: ":memory:", logger: Logger(label: "test"))
        let repository = SQLRepository(database: database.sql)
        try await repository.migrate()
        let migrated = try await database.recompilations()  // its PRAGMAs recompile what ran before
        for subject in ["a@example.com", "b@example.com", "a@example.com"] {
            #expect(try await repository.passwordAccount(provider: .email, subject: subject) == nil)
            _ = try await repository.factors(userID: subject)
            _ = try await repository.identities(userID: subject)
        }
        #expect(try await database.recompilations() == migrated)
        try await database.close()
    }

    @Test func aStatementLeftPartlyReadStillLetsAWriteCommit() async throws {
        // `first()` reads every row SQLKit is handed; the kept statement must be reset after
        // it, or its open read would keep the next transaction's snapshot old.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let database = try await SQLiteDatabase(path: path, logger: Logger(label: "test"))
        let sql = database.sql
        try await sql.raw("CREATE TABLE t (a INTEGER NOT NULL)").run()
        try await sql.raw("INSERT INTO t (a) VALUES (1), (2), (3)").run()
        _ = try await sql.raw("SELECT a FROM t ORDER BY a").first()
        try await sql.raw("BEGIN IMMEDIATE").run()
        try await sql.raw("DELETE FROM t WHERE a = 1").run()
        try await sql.raw("COMMIT").run()
        let count = try await sql.raw("SELECT COUNT(*) AS n FROM t").first(decoding: [String: Int].self)?["n"]
        #expect(count == 2)
        try await database.close()
    }

    @Test func aBrokenConstraintIsAnErrorButNotAnUnavailableStore() async throws {
        let database = try await SQLiteDatabase(path: ":memory:", logger: Logger(label: "test"))
        let sql = database.sql
        try await sql.raw("CREATE TABLE t (a INTEGER PRIMARY KEY)").run()
        try await sql.raw("INSERT INTO t (a) VALUES (1)").run()
        let failure = await #expect(throws: SQLiteFailure.self) { try await sql.raw("INSERT INTO t (a) VALUES (1)").run() }
        #expect(failure?.meansUnavailable == false)
        #expect(failure?.message.contains("UNIQUE") == true)
        // The failed statement was reset: the same text with another value runs.
        try await sql.raw("INSERT INTO t (a) VALUES (\(bind: 2))").run()
        try await database.close()
    }

    @Test func aFileHeldByAnotherWriterPastTheBusyTimeoutIsAnUnavailableStore() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("busy-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let holder = try await SQLiteDatabase(path: path, logger: Logger(label: "test"))
        let other = try await SQLiteDatabase(path: path, logger: Logger(label: "test"))
        try await holder.sql.raw("CREATE TABLE t (a INTEGER)").run()
        try await other.sql.raw("PRAGMA busy_timeout = 50").run()
        try await holder.sql.raw("BEGIN IMMEDIATE").run()
        let failure = await #expect(throws: SQLiteFailure.self) { try await other.sql.raw("INSERT INTO t (a) VALUES (1)").run() }
        #expect(failure?.meansUnavailable == true)
        try await holder.sql.raw("COMMIT").run()
        try await other.sql.raw("INSERT INTO t (a) VALUES (1)").run()
        try await holder.close()
        try await other.close()
    }
}
