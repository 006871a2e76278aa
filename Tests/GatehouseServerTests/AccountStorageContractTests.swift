import Foundation
import GatehouseCore
import GatehouseModel
import GatehouseSQL
import Testing

/// The storage contract of issue 22's operations, on SQLite and PostgreSQL alike: verifying an
/// identity happens once, and a reset forgets every failure streak of one account (and only its).
@Suite struct AccountStorageContractTests {
    typealias Engine = RepositoryContractTests.Engine
    static let now = RepositoryContractTests.now

    @Test(arguments: Engine.available)
    func anIdentityIsVerifiedOnceAndOnlyTheNamedOne(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine, instances: 2) { repositories in
            let user = UserRecord(email: "ann@example.com", name: PersonName(full: "Ann Example"), createdAt: Self.now)
            let identities = [
                IdentityRecord(userID: user.id, provider: .email, subject: "ann@example.com", verifiedAt: nil, createdAt: Self.now),
                IdentityRecord(userID: user.id, provider: .phone, subject: "+919876543210", verifiedAt: nil, createdAt: Self.now),
            ]
            try await repositories[0].createUser(user, identities: identities, passwordHash: "h")
            // Five instances race to verify: one changes the row, the others find it done.
            let changed = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<5 {
                    group.addTask {
                        (try? await repositories[index % 2].verifyIdentity(
                            userID: user.id, provider: .email, subject: "ann@example.com", at: Self.now.addingTimeInterval(Double(index))
                        )) ?? false
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(changed == 1)
            let stored = try await repositories[1].identities(userID: user.id)
            #expect(stored.first { $0.provider == .email }?.verifiedAt != nil)
            #expect(stored.first { $0.provider == .phone }?.verifiedAt == nil, "only the named identity")
            let other = try await repositories[0].verifyIdentity(userID: "someone-else", provider: .email, subject: "ann@example.com", at: Self.now)
            #expect(!other, "another account cannot verify this address")
        }
    }

    @Test(arguments: Engine.available)
    func clearingByPrefixForgetsOneAccountsCountersAndKeepsTheRest(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine) { repositories in
            let repository = repositories[0]
            // Keys with LIKE's wildcards: a prefix match must not read them as patterns.
            let keys = ["fail:a_b:ip:1", "fail:a_b:dev:x", "fail:aXb:ip:1", "fail:a_bc:ip:1", "acct:a_b", "fail:%:ip:1"]
            for key in keys { _ = try await repository.hit(key, window: 3600, at: Self.now) }
            let cleared = try await repository.clear(prefix: "fail:a_b:")
            #expect(cleared == 2)
            let left = try await repository.counters(keys)
            #expect(Set(left.keys) == ["fail:aXb:ip:1", "fail:a_bc:ip:1", "acct:a_b", "fail:%:ip:1"])
        }
    }

    /// Issue 39: a guest is an account with no identity; adding one makes it permanent at once,
    /// and only guests unused since the cutoff are removed, in one statement.
    @Test(arguments: Engine.available)
    func aGuestIsAnAccountWithNoIdentityAndOnlyUnusedGuestsAreRemoved(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine, instances: 2) { repositories in
            let old = UserRecord(email: nil, name: PersonName(full: ""), createdAt: Self.now)
            let kept = UserRecord(email: nil, name: PersonName(full: ""), createdAt: Self.now)
            let recent = UserRecord(email: nil, name: PersonName(full: ""), createdAt: Self.now.addingTimeInterval(86400))
            for user in [old, kept, recent] { try await repositories[0].createUser(user, identities: [], passwordHash: nil) }
            #expect(try await repositories[1].user(id: old.id)?.isAnonymous == true)
            try await repositories[1].addIdentity(IdentityRecord(
                userID: kept.id, provider: .phone, subject: "+919876500000", verifiedAt: Self.now, createdAt: Self.now
            ))
            #expect(try await repositories[0].user(id: kept.id)?.isAnonymous == false)
            #expect(try await repositories[0].removeGuests(unusedSince: Self.now.addingTimeInterval(3600)) == 1)
            #expect(try await repositories[1].user(id: old.id) == nil)
            #expect(try await repositories[1].user(id: kept.id) != nil)
            #expect(try await repositories[1].user(id: recent.id) != nil)
        }
    }

    @Test(arguments: Engine.available)
    func aScheduledDeletionIsFoundWhenDueAndRemovedOnlyWhileStillScheduled(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine, instances: 2) { repositories in
            var due = UserRecord(email: "due@example.com", name: PersonName(full: "Due"), createdAt: Self.now)
            var kept = UserRecord(email: "kept@example.com", name: PersonName(full: "Kept"), createdAt: Self.now)
            var later = UserRecord(email: "later@example.com", name: PersonName(full: "Later"), createdAt: Self.now)
            for user in [due, kept, later] {
                try await repositories[0].createUser(
                    user, identities: [IdentityRecord(userID: user.id, provider: .email, subject: user.email ?? "", verifiedAt: Self.now, createdAt: Self.now)],
                    passwordHash: "hash"
                )
            }
            due.deletionDueAt = Self.now.addingTimeInterval(60)
            kept.deletionDueAt = Self.now.addingTimeInterval(30)
            later.deletionDueAt = Self.now.addingTimeInterval(86400)
            for user in [due, kept, later] { try await repositories[0].updateUser(user) }
            #expect(try await repositories[1].user(id: due.id)?.deletionDueAt == due.deletionDueAt)
            let found = try await repositories[1].usersDueForDeletion(at: Self.now.addingTimeInterval(3600), limit: 10)
            #expect(found.map(\.id) == [kept.id, due.id], "due ones only, soonest first")
            #expect(found.last?.email == "due@example.com")
            // A sign-in keeps `kept` on one instance while the other purges.
            kept.deletionDueAt = nil
            try await repositories[0].updateUser(kept)
            #expect(try await repositories[1].deleteUserIfDue(id: kept.id, at: Self.now.addingTimeInterval(3600)) == false)
            #expect(try await repositories[1].deleteUserIfDue(id: later.id, at: Self.now.addingTimeInterval(3600)) == false, "not due yet")
            #expect(try await repositories[1].deleteUserIfDue(id: due.id, at: Self.now.addingTimeInterval(3600)))
            #expect(try await repositories[0].user(id: due.id) == nil)
            #expect(try await repositories[0].identities(userID: due.id).isEmpty)
            #expect(try await repositories[0].user(id: kept.id) != nil)
            #expect(try await repositories[0].user(id: later.id) != nil)
        }
    }
}
