import Foundation
import GatehouseCore
import GatehouseSQL
import Logging
import SQLKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// ``StorageAffinity`` on SQLite: work near the storage runs on the connection's own thread,
/// statements and all, and leaves the database free for others while it awaits elsewhere.
@Suite struct StorageAffinityTests {
    /// The thread a piece of work runs on.
    static func thread() -> UInt { UInt(pthread_self()) }

    @Test func workNearSQLiteRunsOnTheConnectionsThreadBeforeAndAfterEachStatement() async throws {
        let database = try await SQLiteDatabase(path: ":memory:", logger: Logger(label: "test"))
        let repository = SQLRepository(database: database.sql)
        let connection = try await database.thread.runIfActive { Self.thread() }
        let seen = try await repository.nearStorage {
            var seen = [Self.thread()]
            for _ in 0..<3 {
                _ = try await database.sql.raw("SELECT 1 AS one").first()
                seen.append(Self.thread())
            }
            return seen
        }
        #expect(seen == Array(repeating: connection, count: 4), "every step on the connection's thread")
        #expect(Self.thread() != connection, "and back to the caller's executor after")
        try await database.close()
    }

    @Test func workNearSQLiteThatAwaitsElsewhereLeavesTheConnectionFreeForOthers() async throws {
        let database = try await SQLiteDatabase(path: ":memory:", logger: Logger(label: "test"))
        let repository = SQLRepository(database: database.sql)
        let (started, starting) = AsyncStream.makeStream(of: Void.self)
        let (release, releasing) = AsyncStream.makeStream(of: Void.self)
        // A sign-in waiting for its hash: it holds no lock and no thread while it waits.
        let waiting = Task {
            try await repository.nearStorage {
                starting.yield()
                for await _ in release { break }
                return try await database.sql.raw("SELECT 2 AS two").first(decoding: [String: Int].self)?["two"]
            }
        }
        for await _ in started { break }
        let other = try await database.sql.raw("SELECT 1 AS one").first(decoding: [String: Int].self)?["one"]
        #expect(other == 1, "another request's statement ran while the first work waited")
        releasing.yield()
        #expect(try await waiting.value == 2)
        try await database.close()
    }
}
