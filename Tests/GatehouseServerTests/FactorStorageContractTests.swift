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

    @Test(arguments: Engine.available)
    func aStepIsAcceptedOnceAndOnlyNewerStepsAfterIt(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine, instances: 2) { repositories in
            let user = try await Self.user(repositories[0], "gus@example.com")
            let factor = Self.factor(user)
            #expect(try await repositories[0].addFactor(factor, maximum: 10, unverifiedSince: Self.now))
            let accepted = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<6 {
                    group.addTask { (try? await repositories[index % 2].acceptStep(factorID: factor.id, userID: user.id, step: 100, at: Self.now)) ?? false }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(accepted == 1)
            let verified = try #require(try await repositories[1].factor(id: factor.id, userID: user.id))
            #expect(verified.status == .verified && verified.lastStep == 100 && verified.verifiedAt == Self.now)
            #expect(try await !repositories[0].acceptStep(factorID: factor.id, userID: user.id, step: 99, at: Self.now), "an older step")
            #expect(try await repositories[0].acceptStep(factorID: factor.id, userID: user.id, step: 101, at: Self.now.addingTimeInterval(30)))
            #expect(try await repositories[0].factor(id: factor.id, userID: user.id)?.verifiedAt == Self.now, "verified once")
            #expect(try await !repositories[0].acceptStep(factorID: factor.id, userID: "someone-else", step: 200, at: Self.now))
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
            #expect(try await repository.acceptStep(factorID: factor.id, userID: ann.id, step: 1, at: Self.now))
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
}
