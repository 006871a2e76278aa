import Foundation
import GatehouseCore
import GatehouseModel
import LoginCore
import Testing

/// The email-accounts service and its two grants, through the one pipeline on real SQLite.
@Suite struct EmailAccountsServiceTests {
    @Test func aSignUpMailsACodeThatVerifiesTheAddressAndSignsIn() async throws {
        try await CoreHarness.with { core in
            let address = try await core.accounts.signUp(email: "New@Example.com", password: "correct horse battery", name: "Ada Lovelace", from: CoreHarness.client).address
            #expect(address == "new@example.com")
            let mail = try #require(try await core.outbox.mails(to: address).first)
            #expect(mail.action == .signUp)
            let code = try #require(mail.code)
            let signIn = try await core.pipeline.signIn(.emailLink(.code(email: address, code: code)), from: CoreHarness.client)
            #expect(signIn.grant.user.email == address)
            #expect(core.events.all.contains { if case .emailVerified = $0 { true } else { false } })
            #expect(try await core.eventually {
                core.events.all.contains { $0 == .messageSent(account: $0.account ?? "", channel: .email, purpose: .signUp, result: .sent) }
            })
        }
    }

    @Test func aWrongMailCodeSaysTheTriesLeftAndTheLastOneBurnsIt() async throws {
        try await CoreHarness.with { core in
            let address = try await core.accounts.signUp(email: "new@example.com", password: "correct horse battery", name: "Ada", from: CoreHarness.client).address
            let code = try #require(try await core.outbox.mails(to: address).first?.code)
            let wrong = code == "000000" ? "111111" : "000000"
            for left in [4, 3, 2, 1] {
                await #expect(throws: GatehouseError.codeRejected(.incorrect(attemptsLeft: left))) {
                    try await core.pipeline.signIn(.emailLink(.code(email: address, code: wrong)), from: CoreHarness.client)
                }
            }
            await #expect(throws: GatehouseError.codeRejected(.exhausted)) {
                try await core.pipeline.signIn(.emailLink(.code(email: address, code: wrong)), from: CoreHarness.client)
            }
            // Five wrong codes are a failure streak like five wrong passwords: the next try waits.
            await #expect(throws: GatehouseError.rateLimited(retryAfter: 1)) {
                try await core.pipeline.signIn(.emailLink(.code(email: address, code: code)), from: CoreHarness.client)
            }
            core.clock.advance(1)
            // Burned: even the right code no longer works.
            await #expect(throws: GatehouseError.codeRejected(.exhausted)) {
                try await core.pipeline.signIn(.emailLink(.code(email: address, code: code)), from: CoreHarness.client)
            }
        }
    }

    @Test func aSignUpOfATakenAddressAnswersTheSameAndMailsItsOwnerInstead() async throws {
        try await CoreHarness.with { core in
            let address = try await core.accounts.signUp(email: CoreHarness.email, password: "correct horse battery", name: "Eve", from: CoreHarness.client).address
            #expect(address == CoreHarness.email)
            let mail = try #require(try await core.outbox.mails(to: address).first)
            #expect(mail.action == .existingAccount && mail.code == nil)
            _ = try await core.signIn()
        }
    }

    @Test func aResetForAnAddressWithoutAnAccountWritesWhatAMailedOneDoesAndSendsNothing() async throws {
        try await CoreHarness.with { core in
            _ = try await core.accounts.requestPasswordReset(email: "nobody@example.com", from: CoreHarness.client)
            _ = try await core.accounts.requestPasswordReset(email: CoreHarness.email, from: CoreHarness.client)
            _ = try await core.outbox.mails(to: CoreHarness.email)
            // Both requests stored a secret and an outbox row; the decoy's row is settled, without
            // content, and the mailed one is once its send is recorded (after the mail arrives).
            #expect(try await core.eventually { try await core.repository.messages(in: .sent, limit: 10).count == 2 })
            let settled = try await core.repository.messages(in: .sent, limit: 10)
            #expect(settled.count == 2 && settled.allSatisfy { $0.sealedPayload == nil && $0.purpose == .recovery })
            #expect(try await core.repository.messages(in: .pending, limit: 10).isEmpty)
            #expect(try await core.repository.secret(.passwordReset, target: "nobody@example.com") != nil)
            #expect(core.outbox.all.count == 1, "only the account's address was mailed")
            await #expect(throws: GatehouseError.codeRejected(.incorrect(attemptsLeft: 4)), "the decoy answers a code like a mailed secret") {
                try await core.pipeline.signIn(
                    .passwordReset(.code(email: "nobody@example.com", code: "000000"), newPassword: "a brand new passphrase"), from: CoreHarness.client
                )
            }
        }
    }

    @Test func aResetCodeSetsTheNewPasswordAndEndsEverySession() async throws {
        try await CoreHarness.with { core in
            let before = try await core.signIn().grant
            _ = try await core.accounts.requestPasswordReset(email: CoreHarness.email, from: CoreHarness.client)
            let code = try #require(try await core.outbox.mails(to: CoreHarness.email).first?.code)
            core.clock.advance(1)
            let proof = MailProof.code(email: CoreHarness.email, code: code)
            _ = try await core.pipeline.signIn(.passwordReset(proof, newPassword: "a brand new passphrase"), from: CoreHarness.client)
            await #expect(throws: GatehouseError.sessionEnded) { try await core.pipeline.authenticate(accessToken: before.accessToken) }
            await #expect(throws: GatehouseError.invalidCredentials) { try await core.signIn() }
            _ = try await core.signIn(CoreHarness.email, "a brand new passphrase")
            #expect(core.events.all.contains(.passwordChanged(userID: core.user.id, method: .reset)))
        }
    }

    @Test func changingThePasswordNeedsTheCurrentOneAndKeepsOnlyThisSession() async throws {
        try await CoreHarness.with { core in
            let other = try await core.signIn().grant
            let this = try await core.pipeline.authenticate(accessToken: try await core.signIn().grant.accessToken)
            await #expect(throws: GatehouseError.invalidCredentials) {
                try await core.accounts.changePassword(this, current: "not it", new: "another fine passphrase", from: CoreHarness.client)
            }
            try await core.accounts.changePassword(this, current: CoreHarness.password, new: "another fine passphrase", from: CoreHarness.client)
            await #expect(throws: GatehouseError.sessionEnded) { try await core.pipeline.authenticate(accessToken: other.accessToken) }
            #expect(core.events.all.contains(.passwordChanged(userID: core.user.id, method: .change)))
        }
    }

    @Test func withoutMailSignUpAndResetAreNotOffered() async throws {
        try await CoreHarness.with({ $0.mail = false }) { core in
            await #expect(throws: GatehouseError.featureNotOffered(.passwordReset)) {
                try await core.accounts.requestPasswordReset(email: CoreHarness.email, from: CoreHarness.client)
            }
            await #expect(throws: GatehouseError.featureNotOffered(.passwordReset)) {
                try await core.pipeline.signIn(.emailLink(.token("ghm_x")), from: CoreHarness.client)
            }
        }
    }

    /// Issue 35, point 17: one recipient domain may take only its share of the hourly mail
    /// budget, so a flood of requests for one domain's addresses leaves the rest for others.
    @Test func S17_oneRecipientDomainTakesOnlyItsShareOfTheMailBudget() async throws {
        try await CoreHarness.with({ $0.settings.mail.mailsPerDomainPerHour = 2 }) { core in
            for name in ["a", "b", "c"] {
                _ = try await core.accounts.signUp(
                    email: "\(name)@flood.example", password: "correct horse battery", name: "Flood", from: CoreHarness.client
                )
            }
            _ = try await core.accounts.signUp(email: "d@other.example", password: "correct horse battery", name: "Other", from: CoreHarness.client)
            let results = { core.events.all.compactMap { if case .messageSent(_, _, _, let result) = $0 { result } else { nil } } }
            for _ in 0..<500 where results().count < 4 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(results().sorted { $0.rawValue < $1.rawValue } == [.dropped, .sent, .sent, .sent])
            #expect(try await core.outbox.mails(to: "d@other.example").count == 1, "another domain's mail still goes")
            let flood = core.outbox.all.filter { if case .email(let mail) = $0 { mail.to.hasSuffix("@flood.example") } else { false } }
            #expect(flood.count == 2)
        }
    }
}

extension SecurityEvent {
    /// The keyed account a message event names, for comparing the rest of it.
    fileprivate var account: String? {
        if case .messageSent(let account, _, _, _) = self { account } else { nil }
    }
}
