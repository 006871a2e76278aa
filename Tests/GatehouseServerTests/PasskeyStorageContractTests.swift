import Foundation
import GatehouseCore
import GatehouseModel
import GatehouseSQL
import Testing

/// The storage contract of passkeys, on SQLite and PostgreSQL alike: a credential id is
/// registered once however many instances race, an account keeps one user handle, the handle
/// goes with the last passkey, and the counter only grows.
@Suite struct PasskeyStorageContractTests {
    typealias Engine = RepositoryContractTests.Engine
    static let now = RepositoryContractTests.now

    static func passkey(_ user: UserRecord, id: [UInt8], count: UInt32 = 0) -> PasskeyRecord {
        PasskeyRecord(
            userID: user.id, credentialID: id, publicKey: [1, 2, 3], algorithm: -7, signCount: count, backupEligible: false, backedUp: false,
            transports: ["internal"], name: "Phone", createdAt: now
        )
    }

    static func handle(_ user: UserRecord, _ subject: String) -> IdentityRecord {
        IdentityRecord(userID: user.id, provider: .passkey, subject: subject, verifiedAt: now, createdAt: now)
    }

    @Test(arguments: Engine.available)
    func aCredentialIsRegisteredOnceAndAnAccountKeepsOneHandle(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine, instances: 2) { repositories in
            let user = UserRecord(email: "ann@example.com", name: PersonName(full: "Ann Example"), createdAt: Self.now)
            try await repositories[0].createUser(user, identities: [], passwordHash: "h")
            // Five instances race to register the same credential: one stores it.
            let stored = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<5 {
                    group.addTask {
                        (try? await repositories[index % 2].addPasskey(Self.passkey(user, id: [9, 9]), handle: Self.handle(user, "H1"))) ?? false
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(stored == 1)
            await #expect(throws: RepositoryError.duplicateIdentity) {
                try await repositories[1].addPasskey(Self.passkey(user, id: [9, 9]), handle: Self.handle(user, "H1"))
            }
            let otherHandle = try await repositories[1].addPasskey(Self.passkey(user, id: [8]), handle: Self.handle(user, "H2"))
            #expect(!otherHandle, "a credential made for another handle is not stored")
            #expect(try await repositories[0].passkeys(userID: user.id).map(\.credentialID) == [[9, 9]])
            #expect(try await repositories[0].user(provider: .passkey, subject: "H1")?.id == user.id)
        }
    }

    @Test(arguments: Engine.available)
    func theHandleGoesWithTheLastPasskeyTheCounterOnlyGrowsAndAUseCommitsWithItsSession(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine) { repositories in
            let repository = repositories[0]
            let user = UserRecord(email: "bo@example.com", name: PersonName(full: "Bo Example"), createdAt: Self.now)
            try await repository.createUser(user, identities: [], passwordHash: "h")
            let first = Self.passkey(user, id: [1])
            let second = Self.passkey(user, id: [2])
            #expect(try await repository.addPasskey(first, handle: Self.handle(user, "H")))
            #expect(try await repository.addPasskey(second, handle: Self.handle(user, "H")))
            try await repository.storeSignInWrites([.passkeyUsed(credentialID: [1], signCount: 7, backedUp: true, at: Self.now.addingTimeInterval(5))])
            // A sign-in's session and its passkey's use commit together.
            let session = SessionRecord(id: "s1", userID: user.id, createdAt: Self.now, expiresAt: Self.now.addingTimeInterval(3600))
            try await repository.createSession(
                session, credential: .refreshToken(.init(tokenHash: "t1", sessionID: "s1", createdAt: Self.now)),
                with: [.passkeyUsed(credentialID: [1], signCount: 3, backedUp: false, at: Self.now.addingTimeInterval(9))]
            )
            let used = try #require(try await repository.passkey(credentialID: [1]))
            #expect(used.signCount == 7 && !used.backedUp && used.lastUsedAt == Self.now.addingTimeInterval(9))
            #expect(try await repository.session(id: "s1") != nil)
            // A session that cannot be stored (its id is taken) takes its passkey's use with it.
            await #expect(throws: (any Error).self) {
                try await repository.createSession(
                    session, credential: .refreshToken(.init(tokenHash: "t2", sessionID: "s1", createdAt: Self.now)),
                    with: [.passkeyUsed(credentialID: [1], signCount: 50, backedUp: true, at: Self.now.addingTimeInterval(20))]
                )
            }
            let unchanged = try #require(try await repository.passkey(credentialID: [1]))
            #expect(unchanged.signCount == 7 && unchanged.lastUsedAt == Self.now.addingTimeInterval(9))
            #expect(try await repository.renamePasskey(id: first.id, userID: "someone-else", to: "x") == false)
            #expect(try await repository.renamePasskey(id: first.id, userID: user.id, to: "Laptop"))
            #expect(try await repository.deletePasskey(id: first.id, userID: user.id))
            #expect(try await repository.identities(userID: user.id).contains { $0.provider == .passkey }, "one passkey left: the handle stays")
            #expect(try await repository.deletePasskey(id: second.id, userID: user.id))
            #expect(try await repository.identities(userID: user.id).allSatisfy { $0.provider != .passkey }, "the last one took the handle")
            #expect(try await repository.deletePasskey(id: second.id, userID: user.id) == false)
            _ = try await repository.addPasskey(Self.passkey(user, id: [3]), handle: Self.handle(user, "H3"))
            #expect(try await repository.deleteUser(id: user.id))
            #expect(try await repository.passkey(credentialID: [3]) == nil, "an account's passkeys go with it")
        }
    }

    /// A passkey sign-in spends its challenge in its session's transaction: once, never when
    /// expired, and a sign-in whose challenge another request spent first stores nothing of
    /// itself (neither its session nor its passkey's use); of two racing, exactly one opens.
    @Test(arguments: Engine.available)
    func aChallengeIsSpentWithItsSessionOnceAndASignInThatFindsItSpentStoresNothing(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine, instances: 2) { repositories in
            let repository = repositories[0]
            let user = UserRecord(email: "cy@example.com", name: PersonName(full: "Cy Example"), createdAt: Self.now)
            try await repository.createUser(user, identities: [], passwordHash: "h")
            #expect(try await repository.addPasskey(Self.passkey(user, id: [4]), handle: Self.handle(user, "H")))
            for (id, expiry) in [("c1", 300.0), ("c2", -1), ("c3", 300)] {
                try await repository.putSecret(OneTimeSecret(
                    purpose: .passkeyAuthentication, id: id, target: id, createdAt: Self.now, expiresAt: Self.now.addingTimeInterval(expiry)
                ))
            }
            func signIn(_ session: String, challenge: String, count: UInt32, on repository: SQLRepository) async throws {
                try await repository.createSession(
                    SessionRecord(id: session, userID: user.id, createdAt: Self.now, expiresAt: Self.now.addingTimeInterval(3600)),
                    credential: .refreshToken(.init(tokenHash: "t-\(session)", sessionID: session, createdAt: Self.now)),
                    with: [
                        .secretConsumed(purpose: .passkeyAuthentication, id: challenge, at: Self.now),
                        .passkeyUsed(credentialID: [4], signCount: count, backedUp: false, at: Self.now),
                    ]
                )
            }
            try await signIn("s1", challenge: "c1", count: 5, on: repository)
            #expect(try await repository.secret(.passkeyAuthentication, id: "c1")?.consumedAt == Self.now)
            await #expect(throws: RepositoryError.secretSpent(.secretConsumed(purpose: .passkeyAuthentication, id: "c1", at: Self.now))) {
                try await signIn("s2", challenge: "c1", count: 9, on: repository)
            }
            await #expect(throws: RepositoryError.secretSpent(.secretConsumed(purpose: .passkeyAuthentication, id: "c2", at: Self.now))) {
                try await signIn("s3", challenge: "c2", count: 9, on: repository)
            }
            #expect(try await repository.session(id: "s2") == nil)
            #expect(try await repository.session(id: "s3") == nil)
            #expect(try await repository.passkey(credentialID: [4])?.signCount == 5, "a refused sign-in's passkey use is not stored")
            #expect(try await repository.secret(.passkeyAuthentication, id: "c2")?.consumedAt == nil)
            async let first: Bool = (try? await signIn("r1", challenge: "c3", count: 6, on: repositories[0])) != nil
            async let second: Bool = (try? await signIn("r2", challenge: "c3", count: 7, on: repositories[1])) != nil
            let outcomes = await [first, second]
            #expect(outcomes.filter { $0 }.count == 1)
            let sessions = [try await repository.session(id: "r1"), try await repository.session(id: "r2")].compactMap { $0 }
            #expect(sessions.count == 1)
        }
    }

    /// A passkey challenge and its count commit together, and a challenge past the limit is
    /// counted but not stored.
    @Test(arguments: Engine.available)
    func aChallengeIsStoredWithItsCountAndNotPastTheLimit(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine) { repositories in
            let repository = repositories[0]
            var counts: [Int] = []
            for id in ["a", "b", "c"] {
                let secret = OneTimeSecret(purpose: .passkeyAuthentication, id: id, target: id, createdAt: Self.now, expiresAt: Self.now.addingTimeInterval(300))
                counts.append(try await repository.putSecret(secret, countingUnder: "challenges:1", maximum: 2, window: 60, at: Self.now).count)
            }
            #expect(counts == [1, 2, 3])
            #expect(try await repository.secret(.passkeyAuthentication, id: "b") != nil)
            #expect(try await repository.secret(.passkeyAuthentication, id: "c") == nil, "past the limit: counted, not stored")
            #expect(try await repository.counters(["challenges:1"])["challenges:1"]?.count == 3)
        }
    }

    /// The one-statement read a passkey sign-in makes: the credential with the account that owns
    /// the presented user handle, that account's email with it, and no account for a handle
    /// nobody has or for another account's handle (the sign-in then refuses the mismatch).
    @Test(arguments: Engine.available)
    func aCredentialIsReadWithTheAccountThatOwnsThePresentedHandle(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine) { repositories in
            let repository = repositories[0]
            let ann = UserRecord(email: "ann@example.com", name: PersonName(full: "Ann Example"), createdAt: Self.now)
            let bo = UserRecord(email: nil, name: PersonName(full: "Bo Example"), createdAt: Self.now)
            let email = IdentityRecord(userID: ann.id, provider: .email, subject: "ann@example.com", verifiedAt: Self.now, createdAt: Self.now)
            try await repository.createUser(ann, identities: [email], passwordHash: "h")
            try await repository.createUser(bo, identities: [], passwordHash: nil)
            #expect(try await repository.addPasskey(Self.passkey(ann, id: [5, 5], count: 4), handle: Self.handle(ann, "HA")))
            #expect(try await repository.addPasskey(Self.passkey(bo, id: [6]), handle: Self.handle(bo, "HB")))

            let (credential, owner) = try #require(try await repository.passkey(credentialID: [5, 5], handle: "HA"))
            #expect(credential == (try await repository.passkey(credentialID: [5, 5])), "the same record the plain read gives")
            #expect(owner == (try await repository.user(id: ann.id)), "the whole account, its email included")
            #expect(owner?.email == "ann@example.com" && owner?.isAnonymous == false)

            let (_, other) = try #require(try await repository.passkey(credentialID: [5, 5], handle: "HB"))
            #expect(other?.id == bo.id, "another account's handle names that account, which the sign-in then refuses")
            let (_, nobody) = try #require(try await repository.passkey(credentialID: [5, 5], handle: "no such handle"))
            #expect(nobody == nil)
            #expect(try await repository.passkey(credentialID: [7], handle: "HA") == nil, "an unknown credential reads nothing")
        }
    }

    /// Issue 35, point 11: two removals of an account's last two ways in, racing on two
    /// instances, never both pass: the check and the removal are one transaction with the
    /// account's row locked. Ten trials each, for passkeys and for identities.
    /// What one removal did: `removed`, `not found`, `last way in`, or the error it threw.
    static func removal(_ body: () async throws -> Bool) async -> String {
        do { return try await body() ? "removed" : "not found" } catch RepositoryError.lastWayIn { return "last way in" } catch { return "\(error)" }
    }

    @Test(arguments: Engine.available)
    func S11_racingRemovalsNeverLeaveAnAccountWithNoWayIn(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine, instances: 2) { repositories in
            for trial in 0..<10 {
                let user = UserRecord(email: nil, name: PersonName(full: "Passkey \(trial)"), createdAt: Self.now)
                try await repositories[0].createUser(user, identities: [], passwordHash: nil)
                let first = Self.passkey(user, id: [UInt8(trial), 1]), second = Self.passkey(user, id: [UInt8(trial), 2])
                _ = try await repositories[0].addPasskey(first, handle: Self.handle(user, "P\(trial)"))
                _ = try await repositories[0].addPasskey(second, handle: Self.handle(user, "P\(trial)"))
                async let a = Self.removal { try await repositories[0].deletePasskey(id: first.id, userID: user.id, keepingAWayIn: true) }
                async let b = Self.removal { try await repositories[1].deletePasskey(id: second.id, userID: user.id, keepingAWayIn: true) }
                let outcomes = await [a, b]
                #expect(outcomes.sorted() == ["last way in", "removed"], "trial \(trial)")
                #expect(try await repositories[0].passkeys(userID: user.id).count == 1)
            }
            for trial in 0..<10 {
                let user = UserRecord(email: nil, name: PersonName(full: "Phone \(trial)"), createdAt: Self.now)
                let identities = [
                    IdentityRecord(userID: user.id, provider: .phone, subject: "+9198765000\(10 + trial)", verifiedAt: Self.now, createdAt: Self.now),
                    IdentityRecord(userID: user.id, provider: .google, subject: "google-\(trial)", verifiedAt: Self.now, createdAt: Self.now),
                ]
                try await repositories[0].createUser(user, identities: identities, passwordHash: nil)
                async let a = Self.removal { try await repositories[0].removeIdentity(userID: user.id, provider: .phone, keepingAWayIn: true) }
                async let b = Self.removal { try await repositories[1].removeIdentity(userID: user.id, provider: .google, keepingAWayIn: true) }
                let outcomes = await [a, b]
                #expect(outcomes.sorted() == ["last way in", "removed"], "trial \(trial)")
                #expect(try await repositories[0].identities(userID: user.id).count == 1)
            }
        }
    }

    @Test(arguments: Engine.available)
    func S11_anAccountWithAnotherWayInMayRemoveItsLastPasskey(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine) { repositories in
            let repository = repositories[0]
            let user = UserRecord(email: "cy@example.com", name: PersonName(full: "Cy Example"), createdAt: Self.now)
            let email = IdentityRecord(userID: user.id, provider: .email, subject: "cy@example.com", verifiedAt: Self.now, createdAt: Self.now)
            try await repository.createUser(user, identities: [email], passwordHash: "h")
            let only = Self.passkey(user, id: [42])
            _ = try await repository.addPasskey(only, handle: Self.handle(user, "C"))
            #expect(try await repository.deletePasskey(id: only.id, userID: user.id, keepingAWayIn: true))
            await #expect(throws: RepositoryError.lastWayIn) {
                try await repository.removeIdentity(userID: user.id, provider: .email, keepingAWayIn: true)
            }
            #expect(try await repository.identities(userID: user.id).map(\.provider) == [.email], "refused: nothing removed")
        }
    }
}
