import Foundation
import GatehouseCore
import GatehouseModel
import GatehouseSQL
import Testing

/// The storage contract of what providers gave with identities (issue 38), on SQLite and
/// PostgreSQL alike: a later sign-in without a token keeps the stored one, a removal returns
/// each grant to one caller only, and the grants go with their account.
@Suite struct ProviderGrantContractTests {
    typealias Engine = RepositoryContractTests.Engine
    static let now = RepositoryContractTests.now

    static func user(_ repository: SQLRepository, _ email: String) async throws -> UserRecord {
        let user = UserRecord(email: email, name: PersonName(full: "Ann Apple"), createdAt: now)
        try await repository.createUser(user, identities: [], passwordHash: "h")
        return user
    }

    static func grant(_ user: UserRecord, _ provider: IdentityProvider, token: String?, private privateEmail: Bool = false) -> ProviderGrantRecord {
        ProviderGrantRecord(userID: user.id, provider: provider, subject: "sub-\(user.id)", privateEmail: privateEmail, sealedToken: token, updatedAt: now)
    }

    @Test(arguments: Engine.available)
    func aSignInWithoutATokenKeepsTheStoredOneAndRacingRemovalsTakeEachGrantOnce(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine, instances: 2) { repositories in
            let user = try await Self.user(repositories[0], "ann@example.com")
            try await repositories[0].saveProviderGrant(Self.grant(user, .apple, token: "sealed-1", private: true))
            try await repositories[1].saveProviderGrant(Self.grant(user, .apple, token: nil, private: false))
            try await repositories[0].saveProviderGrant(Self.grant(user, .github, token: "sealed-2"))
            let stored = try await repositories[1].providerGrants(userID: user.id)
            #expect(stored.map(\.provider) == [.apple, .github])
            #expect(stored[0].sealedToken == "sealed-1" && !stored[0].privateEmail, "the token stays; the flag is the latest")
            let taken = await withTaskGroup(of: [ProviderGrantRecord].self) { group in
                for index in 0..<6 {
                    group.addTask { (try? await repositories[index % 2].takeProviderGrants(userID: user.id, provider: .apple)) ?? [] }
                }
                return await group.reduce(into: []) { $0 += $1 }
            }
            #expect(taken.map(\.sealedToken) == ["sealed-1"], "one caller revokes")
            #expect(try await repositories[0].providerGrants(userID: user.id).map(\.provider) == [.github])
            #expect(try await repositories[0].deleteUser(id: user.id))
            #expect(try await repositories[1].providerGrants(userID: user.id).isEmpty, "gone with the account")
        }
    }
}
