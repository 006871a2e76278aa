import Foundation
import GatehouseCore
import GatehouseModel
import GatehouseSQL
import GatehouseTestSupport
import Logging
import Testing

/// The storage contract, run against SQLite and PostgreSQL alike: what every engine must do
/// for accounts, sessions, refresh rotation, limits, web sessions, keys and migrations.
@Suite struct RepositoryContractTests {
    enum Engine: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case sqlite, postgres
        var testDescription: String { rawValue }

        /// Both engines where a PostgreSQL server is given (always in `scripts/test.sh`).
        static var available: [Engine] {
            if TestDatabase.postgresServer != nil { return allCases }
            precondition(ProcessInfo.processInfo.environment["GATEHOUSE_REQUIRE_POSTGRES"] == nil, "GATEHOUSE_TEST_POSTGRES_URL is required")
            return [.sqlite]
        }

        /// A new database on this engine: empty, or on PostgreSQL already migrated when
        /// `migrated` (a copy of one migrated database; SQLite's file is empty either way).
        func makeDatabase(migrated: Bool = false) async throws -> DatabaseLocation {
            switch self {
            case .sqlite:
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                return .sqlite(path: folder.appendingPathComponent("contract.sqlite").path)
            case .postgres:
                return .postgres(url: try await TestDatabase.makePostgres(on: TestDatabase.postgresServer ?? "", migrated: migrated))
            }
        }
    }

    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Runs `body` with `instances` separate connections to one new, migrated database, as that
    /// many server instances would have.
    static func withDatabase(
        _ engine: Engine, instances: Int = 1, _ body: ([SQLRepository]) async throws -> Void
    ) async throws {
        let location = try await engine.makeDatabase(migrated: true)
        var opened: [Storage] = []
        do {
            for _ in 0..<instances { opened.append(try await Storage.open(location, logger: Logger(label: "contract"))) }
            try await opened[0].repository.migrate()
            try await body(opened.map(\.repository))
        } catch {
            for storage in opened { try? await storage.close() }
            throw error
        }
        for storage in opened { try await storage.close() }
    }

    /// Runs `body` on one new database holding one account: `email` as its identity, "hash" as
    /// its password hash.
    static func withAccount(_ engine: Engine, _ email: String, _ body: (SQLRepository, UserRecord) async throws -> Void) async throws {
        try await withDatabase(engine) { repositories in
            let (user, identities) = Self.user(email)
            try await repositories[0].createUser(user, identities: identities, passwordHash: "hash")
            try await body(repositories[0], user)
        }
    }

    static func user(_ email: String) -> (UserRecord, [IdentityRecord]) {
        let user = UserRecord(email: email, name: PersonName(full: "Ann Example"), createdAt: now)
        return (user, [IdentityRecord(userID: user.id, provider: .email, subject: email, verifiedAt: now, createdAt: now)])
    }

    @Test(arguments: Engine.available)
    func accountsAreFoundByIdentityAndAnIdentityIsNeverTakenTwice(engine: Engine) async throws {
        try await Self.withDatabase(engine) { repositories in
            let repository = repositories[0]
            let (ann, identities) = Self.user("ann@example.com")
            try await repository.createUser(ann, identities: identities, passwordHash: "hash")
            let found = try await repository.passwordAccount(provider: .email, subject: "ann@example.com")
            #expect(found?.user.id == ann.id && found?.passwordHash == "hash" && found?.user.email == "ann@example.com")
            let (other, taken) = Self.user("ann@example.com")
            await #expect(throws: RepositoryError.duplicateIdentity) {
                try await repository.createUser(other, identities: taken, passwordHash: nil)
            }
            let value1 = try await repository.user(id: other.id)
            #expect(value1 == nil, "the loser's account row was rolled back")
        }
    }

    @Test(arguments: Engine.available)
    func tenRacingCreatesOfOneEmailGiveOneAccountAndNineDuplicates(engine: Engine) async throws {
        try await Self.withDatabase(engine, instances: 3) { repositories in
            let outcomes = await withTaskGroup(of: String.self) { group in
                for index in 0..<10 {
                    group.addTask {
                        let (user, identities) = Self.user("race@example.com")
                        do {
                            try await repositories[index % 3].createUser(user, identities: identities, passwordHash: "h")
                            return "created"
                        } catch RepositoryError.duplicateIdentity {
                            return "duplicate"
                        } catch {
                            return "unexpected: \(error)"
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == "created" }.count == 1, "\(outcomes)")
            #expect(outcomes.filter { $0 == "duplicate" }.count == 9, "\(outcomes)")
            let value2 = try await repositories[0].allUsers().count
            #expect(value2 == 1)
        }
    }

    @Test(arguments: Engine.available)
    func twentyConcurrentRotationsOfOneRefreshTokenHaveOneWinner(engine: Engine) async throws {
        try await Self.withDatabase(engine, instances: 3) { repositories in
            let (ann, identities) = Self.user("ann@example.com")
            try await repositories[0].createUser(ann, identities: identities, passwordHash: nil)
            let session = SessionRecord(id: "s1", userID: ann.id, createdAt: Self.now, expiresAt: Self.now.addingTimeInterval(3600))
            try await repositories[0].createSession(session, credential: .refreshToken(.init(tokenHash: "t1", sessionID: "s1", createdAt: Self.now)))
            let winners = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        let claim = try? await repositories[index % 3].claimRefreshToken(
                            hash: "t1", successorHash: "next-\(index)", sealedSuccessor: "s-\(index)", at: Self.now
                        )
                        return claim?.claimed ?? false
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(winners == 1)
            let rotated = try #require(try await repositories[1].refreshToken(hash: "t1"))
            let winner = try #require(rotated.sealedSuccessor?.dropFirst(2))
            let successor = try await repositories[2].refreshToken(hash: "next-\(winner)")
            #expect(rotated.rotatedAt != nil && successor?.sessionID == "s1" && successor?.rotatedAt == nil)
            var stored = 0
            for index in 0..<20 where try await repositories[0].refreshToken(hash: "next-\(index)") != nil { stored += 1 }
            #expect(stored == 1, "the losers stored no successor")
        }
    }

    @Test(arguments: Engine.available)
    func joinedReadsReturnTheSameRecordsAsTheSingleReads(engine: Engine) async throws {
        try await Self.withDatabase(engine) { repositories in
            let repository = repositories[0]
            let (ann, identities) = Self.user("ann@example.com")
            try await repository.createUser(ann, identities: identities, passwordHash: nil)
            let session = SessionRecord(id: "s1", userID: ann.id, createdAt: Self.now, expiresAt: Self.now.addingTimeInterval(3600))
            try await repository.createSession(session, credential: .refreshToken(.init(tokenHash: "t1", sessionID: "s1", createdAt: Self.now)))
            _ = try await repository.claimRefreshToken(hash: "t1", successorHash: "t2", sealedSuccessor: "sealed", at: Self.now.addingTimeInterval(5))
            let stored = try #require(try await repository.user(id: ann.id))
            #expect(stored.email == "ann@example.com")
            let pair = try #require(try await repository.sessionWithUser(id: "s1"))
            #expect(pair.0 == session && pair.1 == stored)
            let chain = try #require(try await repository.refreshTokenChain(hash: "t1"))
            let token = try await repository.refreshToken(hash: "t1")
            #expect(chain.0 == token && chain.0.sealedSuccessor == "sealed" && chain.1 == session && chain.2 == stored)
            let missingSession = try await repository.sessionWithUser(id: "s2")
            let missingToken = try await repository.refreshTokenChain(hash: "t3")
            #expect(missingSession == nil && missingToken == nil)
        }
    }

    /// Issue 25: the refresh claim rotates only a live session's token, and returns the chain as
    /// it was before, whether or not it claimed.
    @Test(arguments: Engine.available)
    func aRefreshClaimRotatesOnlyALiveSessionsTokenAndReadsItsChain(engine: Engine) async throws {
        try await Self.withDatabase(engine) { repositories in
            let repository = repositories[0]
            let (ann, identities) = Self.user("ann@example.com")
            try await repository.createUser(ann, identities: identities, passwordHash: nil)
            for (id, expires) in [("live", 3600.0), ("revoked", 3600), ("expired", 1)] {
                let session = SessionRecord(id: id, userID: ann.id, createdAt: Self.now, expiresAt: Self.now.addingTimeInterval(expires))
                try await repository.createSession(session, credential: .refreshToken(.init(tokenHash: "t-\(id)", sessionID: id, createdAt: Self.now)))
            }
            try await repository.revokeSession(id: "revoked", at: Self.now, reason: .logoutLocal)
            let later = Self.now.addingTimeInterval(10)
            let live = try #require(try await repository.claimRefreshToken(hash: "t-live", successorHash: "n-live", sealedSuccessor: "s", at: later))
            #expect(live.claimed && live.token.rotatedAt == nil && live.session.id == "live" && live.user.email == "ann@example.com")
            #expect(try await repository.refreshToken(hash: "n-live")?.sessionID == "live", "the successor is stored")
            let again = try #require(try await repository.claimRefreshToken(hash: "t-live", successorHash: "n2", sealedSuccessor: "s2", at: later))
            #expect(!again.claimed && again.token.rotatedAt == later && again.token.sealedSuccessor == "s")
            for id in ["revoked", "expired"] {
                let refused = try #require(try await repository.claimRefreshToken(hash: "t-\(id)", successorHash: "n-\(id)", sealedSuccessor: "s", at: later))
                #expect(!refused.claimed && refused.token.rotatedAt == nil, "\(id)")
                #expect(try await repository.refreshToken(hash: "n-\(id)") == nil, "\(id): nothing stored")
            }
            var locked = ann
            locked.lockedAt = Self.now
            try await repository.updateUser(locked)
            let session = SessionRecord(id: "locked", userID: ann.id, createdAt: Self.now, expiresAt: Self.now.addingTimeInterval(3600))
            try await repository.createSession(session, credential: .refreshToken(.init(tokenHash: "t-locked", sessionID: "locked", createdAt: Self.now)))
            let lockedClaim = try await repository.claimRefreshToken(hash: "t-locked", successorHash: "n-locked", sealedSuccessor: "s", at: later)
            #expect(lockedClaim?.claimed == false)
            #expect(try await repository.claimRefreshToken(hash: "missing", successorHash: "n", sealedSuccessor: "s", at: later) == nil)
        }
    }

    @Test(arguments: Engine.available)
    func aPhoneHasOneLiveCodeAndParallelTriesAcrossInstancesStopAtTheLimit(engine: Engine) async throws {
        try await Self.withDatabase(engine, instances: 3) { repositories in
            func code(_ id: String) -> PhoneCodeRecord {
                PhoneCodeRecord(
                    id: id, phone: "+919876543210", purpose: .signIn, name: nil, codeMAC: "mac-\(id)", createdAt: Self.now,
                    expiresAt: Self.now.addingTimeInterval(300), attempts: 0
                )
            }
            try await repositories[0].putPhoneCode(code("v1"))
            try await repositories[1].putPhoneCode(code("v2"))
            let replaced = try await repositories[2].phoneCode(id: "v1")
            let current = try await repositories[2].phoneCode(phone: "+919876543210")
            #expect(replaced == nil && current == code("v2"))
            let claims = await withTaskGroup(of: Int?.self) { group in
                for index in 0..<20 {
                    group.addTask { try? await repositories[index % 3].claimAttempt(id: "v2", maximum: 5, now: Self.now)?.attempts }
                }
                return await group.reduce(into: [Int]()) { if let attempts = $1 { $0.append(attempts) } }
            }
            #expect(claims.sorted() == [1, 2, 3, 4, 5])
            try await repositories[0].putPhoneCode(code("v3"))
            let late = try await repositories[1].claimAttempt(id: "v3", maximum: 5, now: Self.now.addingTimeInterval(300))
            #expect(late == nil, "an expired code cannot be tried")
            let first = try await repositories[1].consumePhoneCode(id: "v3", at: Self.now)
            let second = try await repositories[2].consumePhoneCode(id: "v3", at: Self.now)
            #expect(first && !second)
        }
    }

    @Test(arguments: Engine.available)
    func sessionsWebSessionsAndRevocationAreSharedByInstances(engine: Engine) async throws {
        try await Self.withDatabase(engine, instances: 2) { repositories in
            let (ann, identities) = Self.user("ann@example.com")
            try await repositories[0].createUser(ann, identities: identities, passwordHash: nil)
            let web = SessionRecord(id: "w1", userID: ann.id, createdAt: Self.now, expiresAt: Self.now.addingTimeInterval(3600))
            let record = WebSessionRecord(idHash: "h1", sessionID: "w1", createdAt: Self.now, lastSeenAt: Self.now)
            try await repositories[0].createSession(web, credential: .webSession(record))
            let value4 = try await repositories[1].webSession(hash: "h1")
            #expect(value4 == record)
            try await repositories[1].touchWebSession(hash: "h1", at: Self.now.addingTimeInterval(60))
            let value5 = try await repositories[0].webSession(hash: "h1")?.lastSeenAt
            #expect(value5 == Self.now.addingTimeInterval(60))
            let value6 = try await repositories[1].refreshToken(hash: "h1")
            #expect(value6 == nil, "a web id is no refresh token")
            let value7 = try await repositories[1].revokeSessions(userID: ann.id, keeping: nil, at: Self.now, reason: .logoutGlobal)
            #expect(value7 == 1)
            let value8 = try await repositories[0].session(id: "w1")?.revokedReason
            #expect(value8 == .logoutGlobal)
        }
    }

    @Test(arguments: Engine.available)
    func countersOfNoKeysAreNoneOnEveryEngine(engine: Engine) async throws {
        try await Self.withAccount(engine, "ann.counters@example.com") { repository, _ in
            _ = try await repository.hit("streak:a", window: 900, at: Self.now)
            #expect(try await repository.counters([]).isEmpty, "`IN ()` is no SQL on PostgreSQL")
            #expect(try await repository.counters(["streak:a", "streak:none"]).keys.sorted() == ["streak:a"])
        }
    }

    @Test(arguments: Engine.available)
    func aFailureStreakEndsWithTheSessionThatCommitsAndStaysWhenItDoesNot(engine: Engine) async throws {
        try await Self.withAccount(engine, "ann.streak@example.com") { repository, ann in
            _ = try await repository.hit("streak:a", window: 900, at: Self.now)
            _ = try await repository.hit("streak:b", window: 900, at: Self.now)
            func session(_ id: String) -> SessionRecord {
                SessionRecord(id: id, userID: ann.id, createdAt: Self.now, expiresAt: Self.now.addingTimeInterval(3600))
            }
            func token(_ hash: String) -> SessionCredential { .refreshToken(.init(tokenHash: hash, sessionID: "s1", createdAt: Self.now)) }
            try await repository.createSession(session("s1"), credential: token("t1"), with: [.failureStreakCleared(key: "streak:a")])
            await #expect(throws: (any Error).self, "a session whose id is taken is not stored") {
                try await repository.createSession(session("s1"), credential: token("t2"), with: [.failureStreakCleared(key: "streak:b")])
            }
            let left = try await repository.counters(["streak:a", "streak:b"])
            #expect(left["streak:a"] == nil, "the committed sign-in ended its streak")
            #expect(left["streak:b"]?.count == 1, "the sign-in that did not commit left its streak")
        }
    }

    @Test(arguments: Engine.available)
    func limitsCountedOnAnyInstanceAreOneCount(engine: Engine) async throws {
        try await Self.withDatabase(engine, instances: 3) { repositories in
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<30 {
                    group.addTask { _ = try? await repositories[index % 3].hit("address:1.2.3.4", window: 300, at: Self.now) }
                }
            }
            let value9 = try await repositories[2].counters(["address:1.2.3.4"])["address:1.2.3.4"]?.count
            #expect(value9 == 30)
            let shared = try await repositories[0].secret("hmac", orInsert: Data("first".utf8))
            let value10 = try await repositories[1].secret("hmac", orInsert: Data("second".utf8))
            #expect(value10 == shared)
        }
    }

    @Test(arguments: Engine.available)
    func signingKeysAreSharedAndRetiredOnce(engine: Engine) async throws {
        try await Self.withDatabase(engine, instances: 2) { repositories in
            let old = SigningKeyRecord(kid: "old", sealedPrivateKey: "sealed-1", createdAt: Self.now)
            let new = SigningKeyRecord(kid: "new", sealedPrivateKey: "sealed-2", createdAt: Self.now.addingTimeInterval(1))
            try await repositories[0].insertSigningKey(new)
            try await repositories[1].insertSigningKey(old)
            try await repositories[1].insertSigningKey(old)
            let value11 = try await repositories[0].activeSigningKeys().map(\.kid) == ["old", "new"]
            #expect(value11, "oldest first, no duplicate")
            let value12 = try await repositories[0].retireSigningKey(kid: "old", at: Self.now)
            #expect(value12)
            let value13 = try await repositories[1].retireSigningKey(kid: "old", at: Self.now)
            #expect(value13 == false)
            let value14 = try await repositories[1].activeSigningKeys().map(\.kid)
            #expect(value14 == ["new"])
        }
    }

    @Test(arguments: Engine.available)
    func tenInstancesMigratingAnEmptyDatabaseAtOnceLeaveOneSchema(engine: Engine) async throws {
        let location = try await engine.makeDatabase()
        var opened: [Storage] = []
        for _ in 0..<10 { opened.append(try await Storage.open(location, logger: Logger(label: "contract"))) }
        let failures = await withTaskGroup(of: String?.self) { group in
            for storage in opened {
                group.addTask {
                    do { try await storage.repository.migrate(); return nil } catch { return "\(error)" }
                }
            }
            return await group.reduce(into: [String]()) { if let failure = $1 { $0.append(failure) } }
        }
        #expect(failures.isEmpty, "\(failures)")
        let repository = opened[0].repository
        let value15 = try await SchemaMigrations.version(in: repository.database)
        #expect(value15 == SchemaMigrations(repository: repository).steps.count)
        struct Count: Decodable { let n: Int }
        let rows = try await repository.database.raw("SELECT COUNT(*) AS n FROM gatehouse_schema").first(decoding: Count.self)
        #expect(rows?.n == 1, "one version row")
        try await repository.requireCurrentSchema()
        for storage in opened { try await storage.close() }
    }
}
