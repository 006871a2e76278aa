import Foundation
import GatehouseCore
import GatehouseSQL
import GatehouseTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import SQLKit
import Testing

/// Issue 25's live-session cache: a valid access token is answered from memory, and a change
/// made anywhere (this process, another connection, another instance) ends it. Runs on SQLite
/// and, through scripts/postgres-suites.txt, on PostgreSQL with its `LISTEN/NOTIFY` feed.
@Suite struct SessionLivenessTests {
    /// Runs one statement on a second connection to the fixture's database, as the CLI would.
    static func execute(_ fixture: Fixture, _ statement: String) async throws {
        try await Storage.with(try DatabaseLocation(fixture.databasePath), logger: Logger(label: "test")) { storage in
            try await storage.execute(statement)
        }
    }

    /// Polls `/api/me` until it is refused; the number of tries it took, or `nil` if never.
    static func refusedAfter(_ client: any TestClientProtocol, _ token: String, tries: Int = 150) async throws -> Int? {
        for attempt in 1...tries {
            if try await client.me(token).status == .unauthorized { return attempt }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// With the change announcements removed, a revocation written straight to the database is
    /// not seen for a session already answered from memory, and is for one that was not: the
    /// cache, not the database, answered the first.
    @Test func I25_aLiveSessionsSecondRequestReadsNoDatabase() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(mode: .live) { client in
            let cached = try await client.grant()
            let uncached = try await client.grant()
            #expect(try await client.me(cached.accessToken).status == .ok)
            try await Self.execute(fixture, "DROP TRIGGER sessions_ended" + (TestDatabase.fixturesOnPostgres ? " ON sessions" : ""))
            try await Self.execute(fixture, "UPDATE sessions SET revoked_at = 1")
            #expect(try await client.me(cached.accessToken).status == .ok, "answered from memory")
            #expect(try await client.me(uncached.accessToken).status == .unauthorized, "read from the database")
        }
    }

    /// This process's own logout empties the cache before it answers.
    @Test func I25_aLogoutIsRefusedOnTheVeryNextRequest() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(mode: .live) { client in
            let grant = try await client.grant()
            #expect(try await client.me(grant.accessToken).status == .ok)
            #expect(try await client.logout(grant.accessToken).status == .noContent)
            #expect(try await client.me(grant.accessToken).status == .unauthorized)
        }
    }

    /// A lock, a password change or a revocation made over another connection (the CLI, another
    /// instance) reaches a session this server holds in memory through the change feed.
    @Test(arguments: ["lock", "password", "revoke"])
    func I25_anotherConnectionsChangeEndsACachedSession(change: String) async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(mode: .live) { client in
            let grant = try await client.grant()
            #expect(try await client.me(grant.accessToken).status == .ok)
            fixture.clock.advance(by: 1)
            switch change {
            case "lock": try await fixture.withAdministration { try await $0.setLocked(true, email: Fixture.email) }
            case "password": try await fixture.withAdministration { try await $0.setPassword("another-password-1", email: Fixture.email) }
            default: try await Self.execute(fixture, "UPDATE sessions SET revoked_at = 1")
            }
            #expect(try await Self.refusedAfter(client, grant.accessToken) != nil)
        }
    }

    /// PostgreSQL: when the listener's connection is killed the cache stops serving and the
    /// listener comes back; a change made after that still reaches a cached session.
    @Test(.enabled(if: TestDatabase.fixturesOnPostgres))
    func I25_aKilledListenerReconnectsAndChangesStillArrive() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(mode: .live) { client in
            let grant = try await client.grant()
            #expect(try await client.me(grant.accessToken).status == .ok)
            let listening = "SELECT COUNT(*) AS count FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND datname = current_database()"
            try await Self.execute(fixture, """
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE query LIKE 'LISTEN%' AND datname = current_database() AND pid <> pg_backend_pid()
                """)
            var back = false
            for _ in 0..<150 where !back {
                try await Task.sleep(for: .milliseconds(20))
                back = try await Storage.with(try DatabaseLocation(fixture.databasePath), logger: Logger(label: "test")) { storage in
                    struct Count: Decodable { let count: Int64 }
                    return try await storage.repository.database.raw(SQLQueryString(listening)).first(decoding: Count.self)?.count == 1
                }
            }
            #expect(back, "the listener reconnected")
            #expect(try await client.me(grant.accessToken).status == .ok)
            try await fixture.withAdministration { try await $0.setLocked(true, email: Fixture.email) }
            #expect(try await Self.refusedAfter(client, grant.accessToken) != nil)
        }
    }
}
