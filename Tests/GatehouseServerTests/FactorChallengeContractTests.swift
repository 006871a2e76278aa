import Foundation
import GatehouseCore
import GatehouseSQL
import SQLKit
import Testing

/// The storage contract of second-factor challenges and recovery codes (issue 37), on SQLite
/// and PostgreSQL alike: racing wrong answers never pass five, a challenge completes once, and
/// a recovery code works once.
@Suite struct FactorChallengeContractTests {
    typealias Engine = RepositoryContractTests.Engine
    static let now = RepositoryContractTests.now

    static func challenge(_ user: UserRecord) -> FactorChallengeRecord {
        FactorChallengeRecord(id: UUID().uuidString, userID: user.id, factorID: nil, createdAt: now, expiresAt: now.addingTimeInterval(300))
    }

    @Test(arguments: Engine.available)
    func racingWrongAnswersStopAtFiveAndAChallengeCompletesOnce(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine, instances: 2) { repositories in
            let user = try await FactorStorageContractTests.user(repositories[0], "hal@example.com")
            let challenge = Self.challenge(user)
            try await repositories[0].createChallenge(challenge)
            let counted = await withTaskGroup(of: Int?.self) { group in
                for index in 0..<9 {
                    group.addTask { try? await repositories[index % 2].recordChallengeFailure(id: challenge.id, at: Self.now) }
                }
                return await group.reduce(into: [Int]()) { if let failures = $1 { $0.append(failures) } }
            }
            #expect(counted.sorted() == [1, 2, 3, 4, 5], "each wrong answer counted once, none past five")
            #expect(try await !FactorStorageContractTests.stored(.factorChallengeCompleted(id: challenge.id, at: Self.now), on: repositories[1]), "an ended challenge does not complete")

            let open = Self.challenge(user)
            try await repositories[1].createChallenge(open)
            let completed = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<6 {
                    group.addTask {
                        (try? await FactorStorageContractTests.stored(.factorChallengeCompleted(id: open.id, at: Self.now), on: repositories[index % 2])) ?? false
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(completed == 1)
            #expect(try await repositories[0].challenge(id: open.id, userID: user.id)?.completedAt == Self.now)
            #expect(try await repositories[0].challenge(id: open.id, userID: "someone-else") == nil)
            let later = FactorChallengeRecord(
                id: UUID().uuidString, userID: user.id, factorID: nil, createdAt: Self.now.addingTimeInterval(301), expiresAt: Self.now.addingTimeInterval(601)
            )
            try await repositories[1].createChallenge(later)
            #expect(try await repositories[0].challenge(id: open.id, userID: user.id) == nil, "a new challenge removes the expired ones")
            #expect(try await repositories[0].challenge(id: challenge.id, userID: user.id) == nil)
            #expect(try await repositories[0].challenge(id: later.id, userID: user.id) != nil)
        }
    }

    @Test(arguments: Engine.available)
    func aRecoveryCodeWorksOnceAndANewSetReplacesTheOld(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine, instances: 2) { repositories in
            let user = try await FactorStorageContractTests.user(repositories[0], "ida@example.com")
            try await repositories[0].replaceRecoveryCodes(userID: user.id, hashes: ["a", "b", "c"], at: Self.now)
            let used = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<6 {
                    group.addTask { (try? await repositories[index % 2].useRecoveryCode(userID: user.id, hash: "b", at: Self.now)) ?? false }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(used == 1)
            #expect(try await repositories[1].unusedRecoveryCodes(userID: user.id) == 2)
            try await repositories[1].replaceRecoveryCodes(userID: user.id, hashes: ["d", "e"], at: Self.now)
            #expect(try await !repositories[0].useRecoveryCode(userID: user.id, hash: "a", at: Self.now), "the old set is gone")
            #expect(try await repositories[0].useRecoveryCode(userID: user.id, hash: "d", at: Self.now))
            try await repositories[0].deleteRecoveryCodes(userID: user.id)
            #expect(try await repositories[1].unusedRecoveryCodes(userID: user.id) == 0)
        }
    }

    /// Every new challenge removes the expired ones in its transaction; without an index on
    /// their expiry that statement reads every challenge of every account, each time.
    @Test(arguments: Engine.available)
    func theExpiredChallengesRemovalReadsThemThroughAnIndexOnTheirExpiry(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine) { repositories in
            let removal = SQLRepository.removeExpiredChallenges(before: Self.now)
            let plan = try await repositories[0].transaction { db in
                switch engine {
                case .sqlite:
                    return try await db.raw("EXPLAIN QUERY PLAN " + removal).all().map { try $0.decode(column: "detail", as: String.self) }
                case .postgres:
                    // An empty table costs less to scan than to search: ask for the plan it would
                    // use once the table has grown.
                    try await db.raw("SET LOCAL enable_seqscan = off").run()
                    return try await db.raw("EXPLAIN " + removal).all().map { try $0.decode(column: "QUERY PLAN", as: String.self) }
                }
            }
            #expect(plan.contains { $0.contains("factor_challenges_expires_at") }, "\(plan)")
        }
    }
}
