import Foundation
import GatehouseCore
import GatehouseModel
import LoginCore
import Testing

/// Issue 39's self-service deletion in the core: the proof it needs, what goes, and what stays.
@Suite struct AccountDeletionServiceTests {
    @Test func thePasswordDeletesTheAccountItsSessionsAndPendingMailsAndTheOwnerIsMailed() async throws {
        try await CoreHarness.with { core in
            let other = try await core.signIn().grant
            let principal = try await core.principal()
            _ = try await core.accounts.requestPasswordReset(email: CoreHarness.email, from: CoreHarness.client)
            let reset = try #require(try await core.outbox.mails(to: CoreHarness.email).first?.code)
            try await core.deletion.deleteAccount(principal, password: CoreHarness.password, from: CoreHarness.client)
            #expect(try await core.repository.user(id: core.user.id) == nil)
            #expect(try await core.repository.identities(userID: core.user.id).isEmpty)
            for token in [other.accessToken] {
                await #expect(throws: GatehouseError.sessionEnded) { try await core.pipeline.authenticate(accessToken: token) }
            }
            await #expect(throws: GatehouseError.invalidCredentials) { try await core.signIn() }
            await #expect(throws: GatehouseError.codeRejected(.expired), "the pending reset went with the account") {
                try await core.pipeline.signIn(.passwordReset(.code(email: CoreHarness.email, code: reset), newPassword: "a brand new passphrase"), from: CoreHarness.client)
            }
            let mails = try await core.outbox.mails(to: CoreHarness.email, count: 2)
            let confirmation = try #require(mails.last)
            #expect(confirmation.action == .accountDeleted && confirmation.subject == "Your Gatehouse account was deleted")
            #expect(confirmation.code == nil && confirmation.token == nil)
            #expect(core.events.all.contains(.accountDeleted(userID: core.user.id)))
        }
    }

    @Test func aWrongPasswordDeletesNothingAndCountsLikeAWrongSignIn() async throws {
        try await CoreHarness.with { core in
            let principal = try await core.principal()
            await #expect(throws: GatehouseError.invalidCredentials) {
                try await core.deletion.deleteAccount(principal, password: "not the password", from: CoreHarness.client)
            }
            #expect(try await core.repository.user(id: core.user.id) != nil)
            _ = try await core.pipeline.authenticate(accessToken: try await core.signIn().grant.accessToken)
        }
    }

    @Test func withoutAPasswordOnlyASignInOfTheLastFiveMinutesProvesIt() async throws {
        try await CoreHarness.with({ $0.settings.signInMethods = SignInMethods(methods: [.email, .emailCode]) }) { core in
            _ = try await core.accounts.sendSignInCode(email: "coded@example.com", createUser: true, from: CoreHarness.client)
            let code = try #require(try await core.outbox.mails(to: "coded@example.com").first?.code)
            let signIn = try await core.pipeline.signIn(.emailCode(.code(email: "coded@example.com", code: code)), from: CoreHarness.client)
            let principal = try await core.principal(of: signIn)
            core.clock.advance(AccountDeletion.recentSignIn + 1)
            let stale = try await core.principal(of: signIn)
            await #expect(throws: GatehouseError.reauthenticationRequired) {
                try await core.deletion.deleteAccount(stale, password: nil, from: CoreHarness.client)
            }
            #expect(try await core.deletion.needsPassword(principal) == false)
            core.clock.advance(61)
            _ = try await core.accounts.sendSignInCode(email: "coded@example.com", createUser: false, from: CoreHarness.client)
            let again = try #require(try await core.outbox.mails(to: "coded@example.com", count: 2).last?.code)
            let fresh = try await core.principal(of: try await core.pipeline.signIn(.emailCode(.code(email: "coded@example.com", code: again)), from: CoreHarness.client))
            try await core.deletion.deleteAccount(fresh, password: nil, from: CoreHarness.client)
            #expect(try await core.repository.user(email: "coded@example.com") == nil)
        }
    }

    @Test func anAccountWithASecondFactorNeedsARecentStepUpFirst() async throws {
        try await CoreHarness.with { core in
            let principal = try await core.principal()
            let enrolment = try await core.factors.enrol(principal, friendlyName: "Phone")
            _ = try await core.answer(enrolment, code: try SecondFactorsServiceTests.code(enrolment, at: core.clock.now), as: principal)
            let aal1 = try await core.principal()
            await #expect(throws: GatehouseError.stepUpRequired) {
                try await core.deletion.deleteAccount(aal1, password: CoreHarness.password, from: CoreHarness.client)
            }
            #expect(try await core.repository.user(id: core.user.id) != nil)
        }
    }

    @Test func withAGracePeriodTheAccountWaitsASignInKeepsItAndThePurgeRemovesItOnceDue() async throws {
        try await CoreHarness.with({ $0.settings.accounts.deletionGraceDays = 7 }) { core in
            let other = try await core.signIn().grant
            let due = try #require(try await core.deletion.deleteAccount(try await core.principal(), password: CoreHarness.password, from: CoreHarness.client))
            #expect(due == core.clock.now.addingTimeInterval(7 * 86400))
            #expect(try await core.repository.user(id: core.user.id)?.deletionDueAt == due)
            await #expect(throws: GatehouseError.sessionEnded) { try await core.pipeline.authenticate(accessToken: other.accessToken) }
            let scheduled = try #require(try await core.outbox.mails(to: CoreHarness.email).first)
            #expect(scheduled.action == .deletionScheduled && scheduled.subject.hasPrefix("Your Gatehouse account will be deleted on "))

            _ = try await core.signIn()
            #expect(try await core.repository.user(id: core.user.id)?.deletionDueAt == nil, "a sign-in kept it")
            #expect(core.events.all.contains(.accountDeletionCancelled(userID: core.user.id)))
            core.clock.advance(8 * 86400)
            #expect(try await core.deletion.purgeDue() == 0, "kept accounts are not purged")

            try await core.deletion.deleteAccount(try await core.principal(), password: CoreHarness.password, from: CoreHarness.client)
            core.clock.advance(7 * 86400)
            await #expect(throws: GatehouseError.invalidCredentials, "once due, it signs in no more") { try await core.signIn() }
            #expect(try await core.deletion.purgeDue() == 1)
            #expect(try await core.repository.user(id: core.user.id) == nil)
            #expect(try await core.outbox.mails(to: CoreHarness.email, count: 3).last?.action == .accountDeleted)
        }
    }
}
