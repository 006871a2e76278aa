import Foundation
import GatehouseCore
import GatehouseModel
import LoginCore
import Testing

/// The mailed sign-in code (issue 39) through the one pipeline on real SQLite.
@Suite struct EmailCodeServiceTests {
    static func offeringCodes(_ options: inout CoreHarness.Options) {
        options.settings.signInMethods = SignInMethods(methods: [.email, .emailCode])
    }

    @Test func anAccountsCodeSignsItInOnceAndANewRequestsLinkSignsInOnceToo() async throws {
        try await CoreHarness.with(Self.offeringCodes) { core in
            let address = try await core.accounts.sendSignInCode(email: "User@Example.com", createUser: false, from: CoreHarness.client)
            #expect(address == CoreHarness.email)
            let mail = try #require(try await core.outbox.mails(to: address).first)
            #expect(mail.action == .signInCode)
            #expect(mail.link?.hasPrefix("http://127.0.0.1:8080/sign-in-link?token=") == true)
            let code = try #require(mail.code)
            let signIn = try await core.pipeline.signIn(.emailCode(.code(email: address, code: code)), from: CoreHarness.client)
            #expect(signIn.grant.user.id == core.user.id && !signIn.isNewUser)
            await #expect(throws: GatehouseError.codeRejected(.expired)) {
                try await core.pipeline.signIn(.emailCode(.code(email: address, code: code)), from: CoreHarness.client)
            }
            core.clock.advance(61)
            _ = try await core.accounts.sendSignInCode(email: address, createUser: false, from: CoreHarness.client)
            let token = try #require(try await core.outbox.mails(to: address, count: 2).last?.token)
            let byLink = try await core.pipeline.signIn(.emailCode(.token(token)), from: CoreHarness.client)
            #expect(byLink.grant.user.id == core.user.id)
            await #expect(throws: GatehouseError.linkExpired) {
                try await core.pipeline.signIn(.emailCode(.token(token)), from: CoreHarness.client)
            }
            #expect(core.events.all.contains(.signInSucceeded(userID: core.user.id, sessionID: byLink.sessionID, method: .emailCode)))
        }
    }

    @Test func aCodeExpiresAfterTenMinutesAndANewOneReplacesTheOld() async throws {
        try await CoreHarness.with(Self.offeringCodes) { core in
            _ = try await core.accounts.sendSignInCode(email: CoreHarness.email, createUser: false, from: CoreHarness.client)
            let first = try #require(try await core.outbox.mails(to: CoreHarness.email).first?.code)
            core.clock.advance(61)
            _ = try await core.accounts.sendSignInCode(email: CoreHarness.email, createUser: false, from: CoreHarness.client)
            let second = try #require(try await core.outbox.mails(to: CoreHarness.email, count: 2).last?.code)
            if first != second {
                await #expect(throws: GatehouseError.codeRejected(.incorrect(attemptsLeft: 4))) {
                    try await core.pipeline.signIn(.emailCode(.code(email: CoreHarness.email, code: first)), from: CoreHarness.client)
                }
            }
            core.clock.advance(600)
            await #expect(throws: GatehouseError.codeRejected(.expired)) {
                try await core.pipeline.signIn(.emailCode(.code(email: CoreHarness.email, code: second)), from: CoreHarness.client)
            }
        }
    }

    @Test func anUnknownAddressGetsNoMailAndWrongCodesAnswerAsForAnAccount() async throws {
        try await CoreHarness.with(Self.offeringCodes) { core in
            let unknown = try await core.accounts.sendSignInCode(email: "nobody@example.com", createUser: false, from: CoreHarness.client)
            _ = try await core.accounts.sendSignInCode(email: CoreHarness.email, createUser: false, from: CoreHarness.client)
            let real = try #require(try await core.outbox.mails(to: CoreHarness.email).first?.code)
            let wrong = real == "000000" ? "111111" : "000000"
            for address in [unknown, CoreHarness.email] {
                await #expect(throws: GatehouseError.codeRejected(.incorrect(attemptsLeft: 4))) {
                    try await core.pipeline.signIn(.emailCode(.code(email: address, code: wrong)), from: CoreHarness.client)
                }
            }
            #expect(!core.outbox.all.contains { if case .email(let mail) = $0 { mail.to == unknown } else { false } })
        }
    }

    @Test func anUnknownAddressAskingToBeCreatedGetsAVerifiedAccountWhenItUsesTheCode() async throws {
        try await CoreHarness.with(Self.offeringCodes) { core in
            let address = try await core.accounts.sendSignInCode(email: "new@example.com", createUser: true, name: "Ada", from: CoreHarness.client)
            #expect(try await core.repository.user(email: address) == nil)
            let code = try #require(try await core.outbox.mails(to: address).first?.code)
            let signIn = try await core.pipeline.signIn(.emailCode(.code(email: address, code: code)), from: CoreHarness.client)
            #expect(signIn.isNewUser && signIn.grant.user.email == address && signIn.grant.user.name == "Ada")
            let identities = try await core.repository.identities(userID: signIn.grant.user.id)
            #expect(identities.map(\.provider) == [.email] && identities.allSatisfy { $0.verifiedAt != nil })
            #expect(try await core.repository.passwordHash(userID: signIn.grant.user.id) == nil)
        }
    }

    @Test func creatingByCodeIsRefusedQuietlyWhereTheAppAllowsNoSignUp() async throws {
        try await CoreHarness.with({ options in
            Self.offeringCodes(&options)
            options.settings.accounts.signUp = false
        }) { core in
            _ = try await core.accounts.sendSignInCode(email: "new@example.com", createUser: true, from: CoreHarness.client)
            try await Task.sleep(for: .milliseconds(200))
            #expect(!core.outbox.all.contains { if case .email(let mail) = $0 { mail.to == "new@example.com" } else { false } })
        }
    }

    @Test func aCodeToAnAddressNobodyHadProvedGivesTheOwnerTheAccountWithoutTheSignUpsPassword() async throws {
        try await CoreHarness.with({ options in
            Self.offeringCodes(&options)
            options.settings.accounts.requireVerifiedEmail = false
        }) { core in
            // Someone signs the owner's address up first, and is signed in with their password.
            _ = try await core.accounts.signUp(email: "owner@example.com", password: "attacker's passphrase", name: "Mallory", from: CoreHarness.client)
            let squatter = try await core.signIn("owner@example.com", "attacker's passphrase").grant
            core.clock.advance(1)
            _ = try await core.accounts.sendSignInCode(email: "owner@example.com", createUser: false, from: CoreHarness.client)
            let code = try #require(try await core.outbox.mails(to: "owner@example.com", count: 2).last?.code)
            let owner = try await core.pipeline.signIn(.emailCode(.code(email: "owner@example.com", code: code)), from: CoreHarness.client)
            #expect(owner.grant.user.email == "owner@example.com")
            await #expect(throws: GatehouseError.sessionEnded) { try await core.pipeline.authenticate(accessToken: squatter.accessToken) }
            await #expect(throws: GatehouseError.invalidCredentials) { try await core.signIn("owner@example.com", "attacker's passphrase") }
        }
    }

    @Test func anAppThatDoesNotListEmailCodeRefusesTheRequestAndTheGrant() async throws {
        try await CoreHarness.with { core in
            await #expect(throws: GatehouseError.methodNotOffered(.emailCode)) {
                try await core.accounts.sendSignInCode(email: CoreHarness.email, createUser: false, from: CoreHarness.client)
            }
            await #expect(throws: GatehouseError.methodNotOffered(.emailCode)) {
                try await core.pipeline.signIn(.emailCode(.code(email: CoreHarness.email, code: "123456")), from: CoreHarness.client)
            }
        }
    }
}
