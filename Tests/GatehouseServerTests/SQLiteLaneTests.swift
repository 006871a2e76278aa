import Foundation
import GatehouseCore
import GatehouseSQL
import Logging
import SQLKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A sign-in that hashes runs wholly on a hashing thread (``HashingPool/runHere(_:)``), and on
/// an SQLite file its statements run there too, on that thread's own connection.
@Suite struct SQLiteLaneTests {
    /// A new SQLite file in a folder of its own with one table, and its repository; the caller
    /// closes the database and removes the folder.
    static func database(withTable table: String) async throws -> (SQLiteDatabase, SQLRepository, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-lanes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = try await SQLiteDatabase(path: folder.appendingPathComponent("lanes.sqlite").path, logger: Logger(label: "test"))
        try await database.sql.raw("CREATE TABLE \(unsafeRaw: table)").run()
        return (database, SQLRepository(database: database.sql), folder)
    }

    static let pool = HashingPool.shared(.tests)

    @Test func workOnAHashingThreadRunsItsStatementsThereOnAConnectionOfItsOwn() async throws {
        let (database, repository, folder) = try await Self.database(withTable: "seen (v INTEGER)")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(repository.runsBesideHashing)
        let connection = try await database.thread.runIfActive { StorageAffinityTests.thread() }
        let threads = try await Self.pool.runHere {
            var threads = [StorageAffinityTests.thread()]
            // A temporary table belongs to the connection that made it.
            try await database.sql.raw("CREATE TEMP TABLE mine (v INTEGER)").run()
            try await repository.transaction { db in
                try await db.raw("INSERT INTO seen SELECT count(*) FROM temp.mine").run()
            }
            threads.append(StorageAffinityTests.thread())
            #expect(HashingPool.onHashingThread)
            return threads
        }
        #expect(Set(threads).count == 1 && !threads.contains(connection), "every step on one hashing thread")
        #expect(repository.hashingThreadConnections == 1)
        let shared = try await database.sql.raw("SELECT name FROM sqlite_temp_master").all()
        #expect(shared.isEmpty, "the temporary table is not the shared connection's: the statements ran on another")
        let committed = try await database.sql.raw("SELECT v FROM seen").all()
        #expect(committed.count == 1, "what the hashing thread's connection committed, the shared one reads")
        try await database.close()
        #expect(repository.hashingThreadConnections == 0, "closing the database closes the hashing threads' connections")
    }

    @Test func writesFromBothKindsOfConnectionAtOnceAllCommit() async throws {
        let (database, repository, folder) = try await Self.database(withTable: "rows (who TEXT, n INTEGER)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<40 {
                group.addTask {
                    let write = {
                        try await repository.transaction { db in
                            try await db.raw("INSERT INTO rows VALUES (\(bind: n % 2 == 0 ? "hashing" : "shared"), \(bind: n))").run()
                            try await db.raw("INSERT INTO rows VALUES ('second', \(bind: n))").run()
                        }
                    }
                    if n % 2 == 0 { try await Self.pool.runHere(write) } else { try await repository.nearStorage(write) }
                }
            }
            try await group.waitForAll()
        }
        let counts = try await database.sql.raw("SELECT who, count(*) AS n FROM rows GROUP BY who ORDER BY who").all()
        let byWho = try Dictionary(uniqueKeysWithValues: counts.map { (try $0.decode(column: "who", as: String.self), try $0.decode(column: "n", as: Int.self)) })
        #expect(byWho == ["hashing": 20, "second": 40, "shared": 20])
        try await database.close()
    }

    @Test func anInMemoryDatabaseKeepsEveryStatementOnItsOneConnection() async throws {
        let database = try await SQLiteDatabase(path: ":memory:", logger: Logger(label: "test"))
        let repository = SQLRepository(database: database.sql)
        #expect(!repository.runsBesideHashing, "another connection would open another, empty database")
        try await database.sql.raw("CREATE TABLE kept (v INTEGER)").run()
        let rows = try await Self.pool.runHere { try await database.sql.raw("SELECT v FROM kept").all() }
        #expect(rows.isEmpty && repository.hashingThreadConnections == 0, "the table was found: the one connection ran it")
        try await database.close()
    }
}

extension SQLiteLaneTests {
    @Test func aSessionThatWaitsMidwayKeepsItsConnectionAndNoOtherCallerSeesItsRowsBeforeTheCommit() async throws {
        let (database, repository, folder) = try await Self.database(withTable: "rows (n INTEGER)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (inside, entered) = AsyncStream.makeStream(of: Void.self)
        let (go, released) = AsyncStream.makeStream(of: Void.self)
        let session = Task {
            try await Self.pool.runHere {
                try await repository.transaction { db in
                    try await db.raw("INSERT INTO rows VALUES (1)").run()
                    entered.yield()
                    // Suspended with its transaction open; it may go on on the other hashing thread.
                    for await _ in go { break }
                    try await db.raw("INSERT INTO rows VALUES (2)").run()
                }
            }
        }
        for await _ in inside { break }
        // Readers on the hashing threads meanwhile, one of them on the session's own thread.
        let seen = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await Self.pool.runHere {
                        try await database.sql.raw("SELECT count(*) AS n FROM rows").first()?.decode(column: "n", as: Int.self) ?? -1
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(seen == Array(repeating: 0, count: 8), "no reader ran on the session's connection, inside its transaction")
        released.yield()
        try await session.value
        let rows = try await database.sql.raw("SELECT n FROM rows ORDER BY n").all().map { try $0.decode(column: "n", as: Int.self) }
        #expect(rows == [1, 2], "both statements ran in the one transaction and committed together")
        try await database.close()
    }
}
