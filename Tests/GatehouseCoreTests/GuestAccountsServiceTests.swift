import Foundation
import GatehouseCore
import GatehouseModel
import LoginCore
import Testing

/// Issue 39's guest accounts in the core, on real SQLite: made with no identity, marked in
/// their tokens, kept by adding a way in, limited per address, and removed when unused.
@Suite struct GuestAccountsServiceTests {
    static func offeringGuests(_ options: inout CoreHarness.Options) {
        options.settings.signInMethods = SignInMethods(methods: [.email, .anonymous])
    }

    @Test func aGuestSignsInWithNoIdentityAndItsTokensSayIsAnonymousUntilAWayInIsAdded() async throws {
        try await CoreHarness.with(Self.offeringGuests) { core in
            let guest = try await core.pipeline.signIn(.anonymous, from: CoreHarness.client)
            #expect(guest.isNewUser)
            let account = try #require(guest.grant.account)
            #expect(account.isAnonymous && account.email == nil)
            #expect(try await core.repository.identities(userID: account.id).isEmpty)
            let claims = try await core.pipeline.tokens.verify(guest.grant.accessToken, now: core.clock.now)
            #expect(claims.isAnonymous == true && claims.amr?.map(\.method) == [.anonymous])
            // Adding a way in keeps the account, with its id; the next tokens no longer say guest.
            try await core.repository.addIdentity(IdentityRecord(
                userID: account.id, provider: .email, subject: "kept@example.com", verifiedAt: core.clock.now, createdAt: core.clock.now
            ))
            core.clock.advance(11)
            let refreshed = try await core.pipeline.refresh(guest.grant.refreshToken)
            #expect(refreshed.user.id == account.id && refreshed.account?.isAnonymous == false)
            #expect(try await core.pipeline.tokens.verify(refreshed.accessToken, now: core.clock.now).isAnonymous == nil)
        }
    }

    @Test func signingInToAnotherAccountFromAGuestNeverMergesThem() async throws {
        try await CoreHarness.with(Self.offeringGuests) { core in
            let guest = try await core.pipeline.signIn(.anonymous, from: CoreHarness.client)
            let owner = try await core.signIn()
            #expect(owner.grant.user.id == core.user.id && owner.grant.user.id != guest.grant.user.id)
            #expect(try await core.repository.user(id: guest.grant.user.id)?.isAnonymous == true, "the guest stays as it was")
        }
    }

    @Test func oneAddressMakesAtMostItsLimitOfGuestsAnHour() async throws {
        try await CoreHarness.with({ options in
            Self.offeringGuests(&options)
            options.guestsPerHour = 2
        }) { core in
            for _ in 0..<2 { _ = try await core.pipeline.signIn(.anonymous, from: CoreHarness.client) }
            await #expect(throws: GatehouseError.rateLimited(retryAfter: 3600)) {
                try await core.pipeline.signIn(.anonymous, from: CoreHarness.client)
            }
            _ = try await core.pipeline.signIn(.anonymous, from: ClientInfo(address: "192.0.2.99"))
            #expect(core.events.all.contains(.requestThrottled(account: nil, limit: .anonymousAddress)))
        }
    }

    @Test func guestsUnusedForTheRetentionPeriodAreRemovedAndNothingElse() async throws {
        try await CoreHarness.with(Self.offeringGuests) { core in
            let old = try await core.pipeline.signIn(.anonymous, from: CoreHarness.client).grant.user.id
            core.clock.advance(31 * 86400)
            let recent = try await core.pipeline.signIn(.anonymous, from: CoreHarness.client).grant.user.id
            #expect(try await core.guests.removeUnusedGuests() == 1)
            #expect(try await core.repository.user(id: old) == nil)
            #expect(try await core.repository.user(id: recent) != nil)
            #expect(try await core.repository.user(id: core.user.id) != nil, "an account with a way in is never a guest")
        }
    }

    @Test func anAppThatDoesNotListAnonymousRefusesGuests() async throws {
        try await CoreHarness.with { core in
            await #expect(throws: GatehouseError.methodNotOffered(.anonymous)) {
                try await core.pipeline.signIn(.anonymous, from: CoreHarness.client)
            }
        }
    }
}
