import Foundation
import GatehouseCore
import GatehouseModel
import GatehouseSQL
import Testing

/// The storage contract of second factors (issue 37), on SQLite and PostgreSQL alike: racing
/// enrolments never pass the limit, and of racing uses of one code exactly one is accepted.
@Suite struct FactorStorageContractTests {
    typealias Engine = RepositoryContractTests.Engine
    static let now = RepositoryContractTests.now

    static func factor(_ user: UserRecord, at date: Date = now) -> FactorRecord {
        FactorRecord(userID: user.id, friendlyName: "Phone", sealedSecret: "sealed", createdAt: date)
    }

    static func user(_ repository: SQLRepository, _ email: String) async throws -> UserRecord {
        let user = UserRecord(email: email, name: PersonName(full: "Fay Factor"), createdAt: now)
        try await repository.createUser(user, identities: [], passwordHash: "h")
        return user
    }

    @Test(arguments: Engine.available)
    func racingEnrolmentsNeverPassTheLimitAndOldUnverifiedOnesDoNotCount(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine, instances: 2) { repositories in
            let user = try await Self.user(repositories[0], "fay@example.com")
            let stale = Self.factor(user, at: Self.now.addingTimeInterval(-3600))
            #expect(try await repositories[0].addFactor(stale, maximum: 3, unverifiedSince: Self.now.addingTimeInterval(-600)))
            let stored = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        (try? await repositories[index % 2].addFactor(Self.factor(user), maximum: 3, unverifiedSince: Self.now.addingTimeInterval(-600))) ?? false
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(stored == 3, "the hour-old unverified factor does not count against the limit")
            #expect(try await repositories[1].factors(userID: user.id).count == 4)
            #expect(try await repositories[0].deleteUnverifiedFactors(createdBefore: Self.now.addingTimeInterval(-600)) == 1)
            #expect(try await repositories[0].factors(userID: user.id).count == 3)
        }
    }

    /// Whether a sign-in storing only `write` stored it: `false` when it found its secret
    /// spent, and then the error names that write.
    static func stored(_ write: SignInWrite, on repository: SQLRepository) async throws -> Bool {
        do {
            try await repository.storeSignInWrites([write])
            return true
        } catch RepositoryError.secretSpent(let spent) {
            #expect(spent == write)
            return false
        }
    }

    static func step(_ factor: FactorRecord, _ step: Int64, userID: String? = nil, at date: Date = now) -> SignInWrite {
        .factorStepAccepted(factorID: factor.id, userID: userID ?? factor.userID, step: step, at: date)
    }

    @Test(arguments: Engine.available)
    func aStepIsAcceptedOnceAndOnlyNewerStepsAfterIt(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine, instances: 2) { repositories in
            let user = try await Self.user(repositories[0], "gus@example.com")
            let factor = Self.factor(user)
            #expect(try await repositories[0].addFactor(factor, maximum: 10, unverifiedSince: Self.now))
            let accepted = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<6 {
                    group.addTask { (try? await Self.stored(Self.step(factor, 100), on: repositories[index % 2])) ?? false }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(accepted == 1)
            let verified = try #require(try await repositories[1].factor(id: factor.id, userID: user.id))
            #expect(verified.status == .verified && verified.lastStep == 100 && verified.verifiedAt == Self.now)
            #expect(try await !Self.stored(Self.step(factor, 99), on: repositories[0]), "an older step")
            #expect(try await Self.stored(Self.step(factor, 101, at: Self.now.addingTimeInterval(30)), on: repositories[0]))
            #expect(try await repositories[0].factor(id: factor.id, userID: user.id)?.verifiedAt == Self.now, "verified once")
            #expect(try await !Self.stored(Self.step(factor, 200, userID: "someone-else"), on: repositories[0]))
        }
    }

    @Test(arguments: Engine.available)
    func aPasswordSignInsOneReadSaysWhetherTheAccountHasAVerifiedFactor(engine: Engine) async throws {
        try await RepositoryContractTests.withAccount(engine, "ann.mfa@example.com") { (repository: SQLRepository, ann: UserRecord) async throws in
            func read() async throws -> Bool? {
                try await repository.passwordAccount(provider: .email, subject: "ann.mfa@example.com")?.hasSecondFactor
            }
            #expect(try await read() == false)
            let factor = Self.factor(ann)
            #expect(try await repository.addFactor(factor, maximum: 10, unverifiedSince: Self.now))
            #expect(try await read() == false, "an unverified factor is no second factor yet")
            #expect(try await Self.stored(Self.step(factor, 1), on: repository))
            #expect(try await read() == true)
        }
    }

    @Test(arguments: Engine.available)
    func factorsAreTheAccountsOwnAndGoWithIt(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine) { repositories in
            let repository = repositories[0]
            let ann = try await Self.user(repository, "ann.factor@example.com")
            let bo = try await Self.user(repository, "bo.factor@example.com")
            let annFactor = Self.factor(ann), boFactor = Self.factor(bo)
            #expect(try await repository.addFactor(annFactor, maximum: 10, unverifiedSince: Self.now))
            #expect(try await repository.addFactor(boFactor, maximum: 10, unverifiedSince: Self.now))
            #expect(try await repository.factor(id: annFactor.id, userID: bo.id) == nil)
            #expect(try await !repository.deleteFactor(id: annFactor.id, userID: bo.id))
            #expect(try await repository.factors(userID: ann.id) == [annFactor])
            #expect(try await repository.deleteFactors(userID: ann.id) == [annFactor.id])
            #expect(try await repository.deleteFactor(id: boFactor.id, userID: bo.id))
            #expect(try await repository.factors(userID: bo.id).isEmpty)
        }
    }

    /// A step-up commits its code's step, its challenge, its recovery codes, the new session and
    /// the old one's end together: one that finds its code's step taken by another request
    /// stores none of them, and of two racing with one code exactly one opens its session.
    @Test(arguments: Engine.available)
    func aStepUpStoresItsCodeChallengeAndSessionsTogetherOrNothing(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine, instances: 2) { repositories in
            let repository = repositories[0]
            let user = try await Self.user(repository, "ivy@example.com")
            let factor = Self.factor(user)
            #expect(try await repository.addFactor(factor, maximum: 10, unverifiedSince: Self.now))
            func session(_ id: String) -> SessionRecord {
                SessionRecord(id: id, userID: user.id, createdAt: Self.now, expiresAt: Self.now.addingTimeInterval(3600))
            }
            func stepUp(_ id: String, from old: String, challenge: String, codes: [String], on repository: SQLRepository) async throws {
                try await repository.createSession(
                    session(id), credential: .refreshToken(.init(tokenHash: "t-\(id)", sessionID: id, createdAt: Self.now)),
                    with: [
                        Self.step(factor, 100), .factorChallengeCompleted(id: challenge, at: Self.now),
                        .recoveryCodesReplaced(userID: user.id, hashes: codes, at: Self.now),
                        .sessionEnded(id: old, reason: .steppedUp, at: Self.now),
                    ]
                )
            }
            for id in ["old1", "old2"] {
                try await repository.createSession(session(id), credential: .refreshToken(.init(tokenHash: "t-\(id)", sessionID: id, createdAt: Self.now)))
            }
            let challenges = (0..<4).map { _ in FactorChallengeContractTests.challenge(user) }
            for challenge in challenges { try await repository.createChallenge(challenge) }

            try await stepUp("new1", from: "old1", challenge: challenges[0].id, codes: ["a", "b"], on: repository)
            #expect(try await repository.session(id: "old1")?.revokedReason == .steppedUp)
            #expect(try await repository.challenge(id: challenges[0].id, userID: user.id)?.completedAt == Self.now)
            #expect(try await repository.factor(id: factor.id, userID: user.id)?.status == .verified)
            #expect(try await repository.unusedRecoveryCodes(userID: user.id) == 2)

            await #expect(throws: RepositoryError.secretSpent(Self.step(factor, 100))) {
                try await stepUp("new2", from: "old2", challenge: challenges[1].id, codes: ["c", "d", "e"], on: repository)
            }
            #expect(try await repository.session(id: "new2") == nil)
            #expect(try await repository.session(id: "old2")?.revokedAt == nil, "the session it would replace goes on")
            #expect(try await repository.challenge(id: challenges[1].id, userID: user.id)?.completedAt == nil)
            #expect(try await repository.unusedRecoveryCodes(userID: user.id) == 2, "its recovery codes were never stored")
            #expect(try await repository.useRecoveryCode(userID: user.id, hash: "a", at: Self.now))

            // Two racing with one newer code, each on its own instance: exactly one opens.
            async let first: Bool = (try? await repositories[0].createSession(
                session("r1"), credential: .refreshToken(.init(tokenHash: "t-r1", sessionID: "r1", createdAt: Self.now)),
                with: [Self.step(factor, 101), .factorChallengeCompleted(id: challenges[2].id, at: Self.now)]
            )) != nil
            async let second: Bool = (try? await repositories[1].createSession(
                session("r2"), credential: .refreshToken(.init(tokenHash: "t-r2", sessionID: "r2", createdAt: Self.now)),
                with: [Self.step(factor, 101), .factorChallengeCompleted(id: challenges[3].id, at: Self.now)]
            )) != nil
            let outcomes = await [first, second]
            #expect(outcomes.filter { $0 }.count == 1)
            let opened = [try await repository.session(id: "r1"), try await repository.session(id: "r2")].compactMap { $0 }
            #expect(opened.count == 1)
            let completed = [try await repository.challenge(id: challenges[2].id, userID: user.id), try await repository.challenge(id: challenges[3].id, userID: user.id)]
            #expect(completed.compactMap { $0?.completedAt }.count == 1, "only the opened session's challenge completed")
        }
    }
}
