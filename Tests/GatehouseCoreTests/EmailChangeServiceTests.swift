import Foundation
import GatehouseCore
import GatehouseModel
import LoginCore
import Testing

/// Issue 39's email change in the core: both addresses confirm, a taken address answers alike,
/// the current address cancels, and the old address's "This wasn't me" puts it back.
@Suite struct EmailChangeServiceTests {
    static let newEmail = "new@example.com"

    @Test func bothAddressesConfirmInEitherOrderThenTheEmailMovesOtherSessionsEndAndTheOldAddressIsTold() async throws {
        try await CoreHarness.with { core in
            let change = try #require(core.emailChange)
            let other = try await core.signIn().grant
            let requesting = try await core.signIn()
            let principal = try await core.principal(of: requesting)
            #expect(try await change.request(principal, newEmail: " New@Example.com ", password: nil, from: CoreHarness.client) == Self.newEmail)
            #expect(try await change.pendingAddress(userID: core.user.id) == Self.newEmail)
            let toNew = try #require(try await core.outbox.mails(to: Self.newEmail).first)
            let toOld = try #require(try await core.outbox.mails(to: CoreHarness.email).first)
            #expect(toNew.action == .emailChangeNew && toNew.code?.count == 6 && toNew.link?.contains("/email-change?token=") == true)
            #expect(toOld.action == .emailChangeCurrent && toOld.body.contains(Self.newEmail))

            #expect(try await change.confirm(.code(email: Self.newEmail, code: try #require(toNew.code)), from: CoreHarness.client) == .awaitingOther(newEmail: Self.newEmail))
            #expect(try await core.repository.user(id: core.user.id)?.email == CoreHarness.email, "one confirmation changes nothing")
            #expect(try await change.confirm(.token(try #require(toOld.token)), from: CoreHarness.client) == .done(userID: core.user.id, newEmail: Self.newEmail))

            #expect(try await core.repository.user(email: Self.newEmail)?.id == core.user.id)
            #expect(try await core.repository.user(email: CoreHarness.email) == nil)
            #expect(try await core.repository.identities(userID: core.user.id).first { $0.provider == .email }?.verifiedAt != nil)
            await #expect(throws: GatehouseError.sessionEnded) { try await core.pipeline.authenticate(accessToken: other.accessToken) }
            _ = try await core.pipeline.authenticate(accessToken: requesting.grant.accessToken)
            _ = try await core.signIn(Self.newEmail)
            #expect(try await change.pendingAddress(userID: core.user.id) == nil)
            let notice = try #require(try await core.outbox.mails(to: CoreHarness.email, count: 2).last)
            #expect(notice.action == .emailChangedNotice && notice.code == nil && notice.link?.contains("/email-change/revert?token=") == true)
            #expect(notice.body.contains(Self.newEmail) && notice.actionLabel == "This wasn't me")
            #expect(core.events.all.contains(.emailChangeRequested(userID: core.user.id)) && core.events.all.contains(.emailChanged(userID: core.user.id)))
        }
    }

    @Test func theRequestingSessionStaysSignedInWhenTheChangeFinishes() async throws {
        try await CoreHarness.with { core in
            let change = try #require(core.emailChange)
            let signIn = try await core.signIn()
            let principal = try await core.principal(of: signIn)
            _ = try await change.request(principal, newEmail: Self.newEmail, password: nil, from: CoreHarness.client)
            let old = try #require(try await core.outbox.mails(to: CoreHarness.email).first?.token)
            let new = try #require(try await core.outbox.mails(to: Self.newEmail).first?.token)
            _ = try await change.confirm(.token(old), from: CoreHarness.client)
            #expect(try await change.confirm(.token(new), from: CoreHarness.client) == .done(userID: core.user.id, newEmail: Self.newEmail))
            #expect(try await core.pipeline.authenticate(accessToken: signIn.grant.accessToken).user.email == Self.newEmail)
            await #expect(throws: GatehouseError.linkExpired, "each link works once") {
                try await change.confirm(.token(new), from: CoreHarness.client)
            }
        }
    }

    @Test func aTakenAddressAnswersAlikeItsOwnerIsToldAndTheChangeNeverFinishes() async throws {
        try await CoreHarness.with { core in
            let change = try #require(core.emailChange)
            _ = try await core.accounts.signUp(email: "taken@example.com", password: "another long passphrase", name: "Taken", from: CoreHarness.client)
            let principal = try await core.principal()
            #expect(try await change.request(principal, newEmail: "taken@example.com", password: nil, from: CoreHarness.client) == "taken@example.com")
            let notice = try #require(try await core.outbox.mails(to: "taken@example.com", count: 2).last)
            #expect(notice.action == .emailInUseNotice && notice.code == nil && notice.token == nil)
            let toOld = try #require(try await core.outbox.mails(to: CoreHarness.email).first)
            #expect(toOld.action == .emailChangeCurrent, "the requester's side is mailed as for a free address")
            #expect(try await change.confirm(.token(try #require(toOld.token)), from: CoreHarness.client) == .awaitingOther(newEmail: "taken@example.com"))
            await #expect(throws: GatehouseError.codeRejected(.incorrect(attemptsLeft: 4)), "the taken side has a decoy that answers like a code") {
                try await change.confirm(.code(email: "taken@example.com", code: "000000"), from: CoreHarness.client)
            }
            #expect(try await core.repository.user(id: core.user.id)?.email == CoreHarness.email)
        }
    }

    @Test func theCurrentAddressCancelsAndANewRequestReplacesAPendingOne() async throws {
        try await CoreHarness.with { core in
            let change = try #require(core.emailChange)
            let principal = try await core.principal()
            _ = try await change.request(principal, newEmail: Self.newEmail, password: nil, from: CoreHarness.client)
            let old = try #require(try await core.outbox.mails(to: CoreHarness.email).first?.token)
            let preview = try await change.preview(token: old)
            #expect(preview.newEmail == Self.newEmail && preview.fromCurrentAddress)
            try await change.cancel(token: old, from: CoreHarness.client)
            let code = try #require(try await core.outbox.mails(to: Self.newEmail).first?.code)
            await #expect(throws: GatehouseError.linkExpired) { try await change.confirm(.code(email: Self.newEmail, code: code), from: CoreHarness.client) }
            #expect(try await change.pendingAddress(userID: core.user.id) == nil)

            core.clock.advance(61)
            _ = try await change.request(principal, newEmail: "first@example.com", password: CoreHarness.password, from: CoreHarness.client)
            _ = try await change.request(principal, newEmail: "second@example.com", password: CoreHarness.password, from: CoreHarness.client)
            let first = try #require(try await core.outbox.mails(to: "first@example.com").first?.token)
            await #expect(throws: GatehouseError.linkExpired, "the newer request replaced it") {
                try await change.confirm(.token(first), from: CoreHarness.client)
            }
            #expect(try await change.pendingAddress(userID: core.user.id) == "second@example.com")
        }
    }

    @Test func aStaleSessionNeedsThePasswordAndAGuestConfirmsOnlyItsNewAddress() async throws {
        try await CoreHarness.with({ $0.settings.signInMethods = SignInMethods(methods: [.email, .anonymous]) }) { core in
            let change = try #require(core.emailChange)
            let old = try await core.principal()
            core.clock.advance(ServiceContext.recentSignIn + 1)
            await #expect(throws: GatehouseError.reauthenticationRequired) {
                try await change.request(old, newEmail: Self.newEmail, password: nil, from: CoreHarness.client)
            }
            await #expect(throws: GatehouseError.invalidCredentials) {
                try await change.request(old, newEmail: Self.newEmail, password: "not the password", from: CoreHarness.client)
            }
            await #expect(throws: GatehouseError.invalidRequest("email is already this account's address")) {
                try await change.request(old, newEmail: CoreHarness.email, password: CoreHarness.password, from: CoreHarness.client)
            }
            #expect(try await core.outbox.all.isEmpty, "nothing was mailed")

            // A guest has only its session to prove it, however old.
            let guest = try await core.principal(of: try await core.pipeline.signIn(.anonymous, from: CoreHarness.client))
            core.clock.advance(3600)
            _ = try await change.request(guest, newEmail: "guest@example.com", password: nil, from: CoreHarness.client)
            let code = try #require(try await core.outbox.mails(to: "guest@example.com").first?.code)
            #expect(core.outbox.all.count == 1, "no current address to confirm")
            #expect(try await change.confirm(.code(email: "guest@example.com", code: code), from: CoreHarness.client) == .done(userID: guest.user.id, newEmail: "guest@example.com"))
            let kept = try #require(try await core.repository.user(id: guest.user.id))
            #expect(kept.email == "guest@example.com" && !kept.isAnonymous, "the same account, no longer a guest")
        }
    }

    @Test func thisWasntMePutsTheOldAddressBackEndsEverySessionAndOpensAReset() async throws {
        try await CoreHarness.with { core in
            let change = try #require(core.emailChange)
            let signIn = try await core.signIn()
            _ = try await change.request(try await core.principal(of: signIn), newEmail: Self.newEmail, password: nil, from: CoreHarness.client)
            _ = try await change.confirm(.token(try #require(try await core.outbox.mails(to: CoreHarness.email).first?.token)), from: CoreHarness.client)
            _ = try await change.confirm(.token(try #require(try await core.outbox.mails(to: Self.newEmail).first?.token)), from: CoreHarness.client)
            let revert = try #require(try await core.outbox.mails(to: CoreHarness.email, count: 2).last?.token)

            let reset = try await change.revert(token: revert, from: CoreHarness.client)
            #expect(try await core.repository.user(id: core.user.id)?.email == CoreHarness.email)
            await #expect(throws: GatehouseError.sessionEnded) { try await core.pipeline.authenticate(accessToken: signIn.grant.accessToken) }
            let restored = try await core.pipeline.signIn(.passwordReset(.token(reset.token), newPassword: "the owner's new passphrase"), from: CoreHarness.client)
            #expect(restored.grant.user.email == CoreHarness.email)
            await #expect(throws: GatehouseError.linkExpired) { try await change.revert(token: revert, from: CoreHarness.client) }
            #expect(core.events.all.contains(.emailChangeReverted(userID: core.user.id)))
        }
    }
}
