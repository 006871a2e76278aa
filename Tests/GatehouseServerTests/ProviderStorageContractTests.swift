import Foundation
import GatehouseCore
import GatehouseModel
import Testing

/// The storage contract for sign-in with a provider, on SQLite and PostgreSQL: flows that are
/// used once and expire, the codes they return to apps, and identities linked and claimed.
@Suite struct ProviderStorageContractTests {
    typealias Engine = RepositoryContractTests.Engine
    static let now = RepositoryContractTests.now

    static func flow(_ id: String = UUID().uuidString, lifetime: TimeInterval = 300) -> OIDCFlowRecord {
        OIDCFlowRecord(
            id: id, provider: .google, purpose: .app, bindingHash: "binding", returnTo: "http://127.0.0.1:5000/callback",
            clientState: "s", codeChallenge: String(repeating: "c", count: 43), createdAt: now,
            expiresAt: now.addingTimeInterval(lifetime)
        )
    }

    @Test(arguments: Engine.available)
    func aFlowStateIsUsedOnceAndRefusedOnceExpired(_ engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine) { repositories in
            let repository = repositories[0]
            let live = Self.flow("live"), expired = Self.flow("expired", lifetime: 60)
            try await repository.insertFlow(live)
            try await repository.insertFlow(expired)
            var consumed = live
            consumed.consumedAt = Self.now.addingTimeInterval(30)
            #expect(try await repository.consumeFlow(id: "live", now: Self.now.addingTimeInterval(30)) == consumed)
            #expect(try await repository.consumeFlow(id: "live", now: Self.now.addingTimeInterval(31)) == nil)
            #expect(try await repository.consumeFlow(id: "expired", now: Self.now.addingTimeInterval(61)) == nil)
            #expect(try await repository.consumeFlow(id: "forged", now: Self.now) == nil)
        }
    }

    @Test(arguments: Engine.available)
    func twoInstancesRacingForOneStateOnlyOneWins(_ engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine, instances: 2) { repositories in
            try await repositories[0].insertFlow(Self.flow("raced"))
            async let first = repositories[0].consumeFlow(id: "raced", now: Self.now)
            async let second = repositories[1].consumeFlow(id: "raced", now: Self.now)
            let winners = [try await first, try await second].compactMap { $0 }
            #expect(winners.count == 1)
        }
    }

    @Test(arguments: Engine.available)
    func aFlowsReturnCodeIsExchangedOnceAndOnlyBeforeItExpires(_ engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine) { repositories in
            let repository = repositories[0]
            let (user, identities) = RepositoryContractTests.user("flow@example.com")
            try await repository.createUser(user, identities: identities, passwordHash: nil)
            for id in ["a", "b"] {
                try await repository.insertFlow(Self.flow(id))
                _ = try await repository.consumeFlow(id: id, now: Self.now)
                try await repository.completeFlow(
                    id: id, userID: user.id, isNewUser: id == "a", codeHash: "hash-\(id)", expiresAt: Self.now.addingTimeInterval(60)
                )
            }
            let exchanged = try await repository.exchangeFlowCode(hash: "hash-a", now: Self.now.addingTimeInterval(10))
            #expect(exchanged?.userID == user.id && exchanged?.isNewUser == true && exchanged?.id == "a")
            #expect(try await repository.exchangeFlowCode(hash: "hash-a", now: Self.now.addingTimeInterval(11)) == nil)
            #expect(try await repository.exchangeFlowCode(hash: "hash-b", now: Self.now.addingTimeInterval(61)) == nil)
            #expect(try await repository.purgeFlows(before: Self.now.addingTimeInterval(120)) == 2)
        }
    }

    @Test(arguments: Engine.available)
    func anIdentityBelongsToOneAccountAndCanBeRemoved(_ engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine) { repositories in
            let repository = repositories[0]
            let (ann, annIdentities) = RepositoryContractTests.user("ann@example.com")
            let (bob, bobIdentities) = RepositoryContractTests.user("bob@example.com")
            try await repository.createUser(ann, identities: annIdentities, passwordHash: "hash")
            try await repository.createUser(bob, identities: bobIdentities, passwordHash: "hash")
            let google = IdentityRecord(userID: ann.id, provider: .google, subject: "sub-1", verifiedAt: Self.now, createdAt: Self.now)
            try await repository.addIdentity(google)
            var stolen = google
            stolen.userID = bob.id
            await #expect(throws: RepositoryError.duplicateIdentity) { try await repository.addIdentity(stolen) }
            #expect(try await repository.user(provider: .google, subject: "sub-1")?.id == ann.id)
            #expect(try await repository.removeIdentity(userID: ann.id, provider: .google))
            #expect(try await !repository.removeIdentity(userID: ann.id, provider: .google))
            #expect(try await repository.user(provider: .google, subject: "sub-1") == nil)
        }
    }

    @Test(arguments: Engine.available)
    func claimingAnUnverifiedAccountVerifiesItsEmailRemovesThePasswordAndEndsItsSessions(_ engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine) { repositories in
            let repository = repositories[0]
            let user = UserRecord(email: "squat@example.com", name: PersonName(full: "Squatter"), createdAt: Self.now)
            let email = IdentityRecord(userID: user.id, provider: .email, subject: "squat@example.com", verifiedAt: nil, createdAt: Self.now)
            try await repository.createUser(user, identities: [email], passwordHash: "hash")
            let at = Self.now.addingTimeInterval(100)
            let google = IdentityRecord(userID: user.id, provider: .google, subject: "sub-2", verifiedAt: at, createdAt: at)
            try await repository.claimUnverifiedAccount(userID: user.id, adding: google, emailSubject: "squat@example.com", at: at)
            #expect(try await repository.passwordHash(userID: user.id) == nil)
            let identities = try await repository.identities(userID: user.id)
            #expect(identities.first { $0.provider == .email }?.verifiedAt == at)
            #expect(identities.contains(google))
            #expect(try await repository.user(id: user.id)?.passwordChangedAt == at)
        }
    }
}
