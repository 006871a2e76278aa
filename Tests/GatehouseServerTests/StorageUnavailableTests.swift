import Foundation
import GatehouseCore
import GatehouseSQL
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// Issue 40: a database that cannot take a write answers 503 `server_busy` with a short
/// `Retry-After`, never a 500, and reads go on. Here another process holds the SQLite file's
/// write lock past the busy timeout (a disk that is full or failing answers the same way, as
/// does a PostgreSQL that is restarting: `StorageFailure`).
@Suite struct StorageUnavailableTests {
    @Test func aWriteTheDatabaseCannotTakeIs503WithRetryAfterAndReadsGoOn() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        let location = try DatabaseLocation(fixture.databasePath)
        guard case .sqlite = location else { return }  // SQLite's own lock; PostgreSQL's outage is the e2e suite's
        try await fixture.test { client in
            let before = try await client.grant()
            try await Storage.with(location, logger: Logger(label: "holder")) { holder in
                try await holder.repository.database.raw("BEGIN EXCLUSIVE").run()
                let refused = try await client.login()
                let read = try await client.me(before.accessToken)
                try await holder.repository.database.raw("ROLLBACK").run()
                #expect(read.status == .ok, "reads go on while writes cannot")
                #expect(refused.status == .serviceUnavailable)
                #expect(refused.errorBody?.error == "server_busy")
                #expect(refused.headers[.retryAfter] == "1")
            }
            #expect(try await client.login().status == .ok, "writes come back once the lock is gone")
        }
    }

    /// PostgreSQL ended a connection in the middle of a transaction (a restart's "terminating
    /// connection"). The next statement fails at once as "unavailable" (503), where PostgresNIO
    /// alone would write it to the closed channel and never answer; nothing is committed, and
    /// the pool's next transaction works.
    @Test(.timeLimit(.minutes(1)), arguments: RepositoryContractTests.Engine.available.filter { $0 == .postgres })
    func aTransactionWhoseConnectionTheServerEndsFailsAtOnceAsUnavailable(engine: RepositoryContractTests.Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine) { repositories in
            let repository = repositories[0]
            try await repository.database.raw("CREATE TABLE lost_test (n INT)").run()
            let started = ContinuousClock.now
            let failure = await #expect(throws: (any Error).self) {
                try await repository.transaction { session in
                    try await session.raw("INSERT INTO lost_test VALUES (1)").run()
                    struct Backend: Decodable { let pid: Int32 }
                    let pid = try #require(try await session.raw("SELECT pg_backend_pid() AS pid").first(decoding: Backend.self)).pid
                    try await repository.database.raw("SELECT pg_terminate_backend(\(bind: pid))").run()
                    try await Task.sleep(for: .milliseconds(300))  // the server's goodbye arrives and the channel closes
                    try await session.raw("INSERT INTO lost_test VALUES (2)").run()
                }
            }
            #expect(ContinuousClock.now - started < .seconds(10), "failed, not hung")
            #expect((failure as? any StorageFailure)?.meansUnavailable == true, "answered 503, not 500: \(String(describing: failure))")
            struct Count: Decodable { let n: Int64 }
            #expect(try await repository.database.raw("SELECT COUNT(*) AS n FROM lost_test").first(decoding: Count.self)?.n == 0)
            try await repository.transaction { try await $0.raw("INSERT INTO lost_test VALUES (3)").run() }
        }
    }
}
