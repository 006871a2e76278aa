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
}
