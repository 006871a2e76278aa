import Foundation
import GatehouseCore
import GatehouseDelivery
import GatehouseModel
import GatehouseSQL
import GatehouseServer
import GatehouseTestSupport
import Hummingbird
import HummingbirdTesting
import Logging
import SQLKit
import Testing

/// Issue 9's identity model: identities and password credentials outside `users`, a migration
/// that keeps databases of the previous release working, and writes that are all or nothing.
@Suite struct IdentityModelTests {
    /// A copy of `testdata/release-v4/gatehouse.sqlite`, written by the release before this
    /// schema (`gatehouse users create` and one sign-in through `gatehouse serve`).
    static func releaseFourDatabase() throws -> (path: String, refreshToken: String) {
        let testdata = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("testdata/release-v4")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("gatehouse.sqlite").path
        try FileManager.default.copyItem(atPath: testdata.appendingPathComponent("gatehouse.sqlite").path, toPath: path)
        let token = try String(contentsOf: testdata.appendingPathComponent("refresh-token.txt"), encoding: .utf8)
        return (path, token.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    static func repository(_ path: String, _ body: (SQLRepository, any SQLDatabase) async throws -> Void) async throws {
        let database = try await SQLiteDatabase(path: path, logger: Logger(label: "t"))
        do {
            let repository = SQLRepository(database: database.sql)
            try await repository.migrate()
            try await body(repository, database.sql)
            try await database.close()
        } catch {
            try? await database.close()
            throw error
        }
    }

    @Test func aDatabaseOfTheLastReleaseKeepsItsAccountsPasswordsLocksAndSessions() async throws {
        let (path, refreshToken) = try Self.releaseFourDatabase()
        struct Count: Decodable { let n: Int }
        try await Self.repository(path) { repository, sql in
            let identities = try await sql.raw("SELECT COUNT(*) AS n FROM identities WHERE provider = 'email'").first(decoding: Count.self)
            #expect(identities?.n == 3)
            let credentials = try await sql.raw("SELECT COUNT(*) AS n FROM password_credentials").first(decoding: Count.self)
            #expect(credentials?.n == 3)
            let ada = try #require(try await repository.user(email: "ada@example.com"))
            #expect(ada.personName.first == "Ada" && ada.personName.last == "King Lovelace")
            #expect(try await repository.user(email: "locked@example.com")?.lockedAt != nil)
        }
        // The old release's session was opened 2026-11-22T16:04Z: its refresh token still works.
        let clock = TestClock(Date(timeIntervalSince1970: 1_795_363_440.941 + 3600))
        var configuration = GatehouseConfiguration()
        configuration.databasePath = path
        configuration.logRequests = false
        configuration.hashing = .tests
        configuration.clock = { clock.now }
        try await buildApplication(configuration).test(.router) { client in
            #expect(try await client.refresh(refreshToken).status == .ok)
            let grant = try await client.grant("user@example.com", "password123")
            #expect(grant.user.name == "Demo User")
            #expect(try await client.login("ada@example.com", "lovelace-1815").status == .ok)
            let locked = try await client.login("locked@example.com", "locked-password")
            #expect(locked.errorBody?.error == "account_locked")
        }
    }

    @Test func anAccountMayHaveNeitherAnEmailNorAPassword() async throws {
        let fixture = try await Fixture()
        try await Self.repository(fixture.databasePath) { repository, _ in
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let user = UserRecord(email: nil, name: PersonName(first: "Priya", last: "Nair"), createdAt: now)
            let phone = IdentityRecord(userID: user.id, provider: .phone, subject: "+919876543210", verifiedAt: now, createdAt: now)
            try await repository.createUser(user, identities: [phone], passwordHash: nil)
            let found = try #require(try await repository.user(provider: .phone, subject: "+919876543210"))
            #expect(found.id == user.id && found.email == nil && found.profile.email == "")
            let found1 = try await repository.passwordHash(userID: user.id)
            #expect(found1 == nil)
            #expect(try await repository.identities(userID: user.id) == [phone])
        }
    }

    @Test func anIdentityBelongsToOneAccountAndAFailedCreateWritesNothing() async throws {
        let fixture = try await Fixture()
        try await Self.repository(fixture.databasePath) { repository, _ in
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let user = UserRecord(email: Fixture.email, name: PersonName(first: "Second", last: ""), createdAt: now)
            let phone = IdentityRecord(userID: user.id, provider: .phone, subject: "+15550100", verifiedAt: nil, createdAt: now)
            let email = IdentityRecord(userID: user.id, provider: .email, subject: Fixture.email, verifiedAt: now, createdAt: now)
            await #expect(throws: RepositoryError.duplicateIdentity) {
                try await repository.createUser(user, identities: [phone, email], passwordHash: "x")
            }
            let found2 = try await repository.user(id: user.id)
            #expect(found2 == nil)
            let found3 = try await repository.user(provider: .phone, subject: "+15550100")
            #expect(found3 == nil)
        }
    }

    @Test func aSessionAndItsFirstRefreshTokenAreWrittenTogetherOrNotAtAll() async throws {
        let fixture = try await Fixture()
        try await Self.repository(fixture.databasePath) { repository, _ in
            let user = try #require(try await repository.user(email: Fixture.email))
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            func session(_ id: String) -> SessionRecord {
                SessionRecord(id: id, userID: user.id, createdAt: now, expiresAt: now.addingTimeInterval(60))
            }
            let token = RefreshTokenRecord(tokenHash: "hash-1", sessionID: "s1", createdAt: now)
            try await repository.createSession(session("s1"), credential: .refreshToken(token))
            #expect(try await repository.session(id: "s1") != nil)
            // The same token hash again violates its primary key: the second session must not remain.
            await #expect(throws: (any Error).self) {
                try await repository.createSession(session("s2"), credential: .refreshToken(RefreshTokenRecord(tokenHash: "hash-1", sessionID: "s2", createdAt: now)))
            }
            let found4 = try await repository.session(id: "s2")
            #expect(found4 == nil)
        }
    }
}
