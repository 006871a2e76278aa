import Foundation
import GatehouseClient
import GatehouseCore
import GatehouseServer
import GatehouseTestSupport
import GatehouseModel
import LoginCore
import Testing

/// Issue 39 in the SDK against the real server: the mailed sign-in code driven through
/// LoginCore's ``EmailCodeForm`` on every transport, and deleting the account.
@Suite struct SelfServiceClientTests {
    /// A server with the demo account that offers the mailed code and guests.
    static func withServer(_ body: (LoopbackServer, String) async throws -> Void) async throws {
        try await AccountClientTests.withServer(users: [(ClientFixture.email, "Demo User", ClientFixture.password)], configure: {
            $0.signInMethods = SignInMethods(methods: [.email, .emailCode, .anonymous])
        }, body)
    }

    @Test(arguments: [BackendConfiguration.API.rest, .graphql, .supabase])
    func SS1_theEmailCodeMachineSignsInWithTheMailedCode(api: BackendConfiguration.API) async throws {
        try await Self.withServer { server, outbox in
            let client = try AccountClientTests.client(server, api)
            let form = EmailCodeForm(options: AccountOptions(signUp: true))
            var state = EmailCodeState()
            var pending = form.send(.emailChanged(ClientFixture.email), to: &state) + form.send(.requestCode, to: &state)
            while let effect = pending.first {
                pending.removeFirst()
                if let event = await client.perform(effect) { pending += form.send(event, to: &state) }
            }
            #expect(state.sentTo == ClientFixture.email, "\(state)")
            let code = try await AccountClientTests.mail(outbox, count: 1).code
            pending = form.send(.codeChanged(code), to: &state)
            var stored = false
            while let effect = pending.first {
                pending.removeFirst()
                if case .storeSession = effect { stored = true }
                if let event = await client.perform(effect) { pending += form.send(event, to: &state) }
            }
            #expect(stored)
            #expect(await client.currentSession?.user.email == ClientFixture.email)
        }
    }

    @Test(arguments: [BackendConfiguration.API.rest, .graphql])
    func SS2_deleteAccountEndsTheSessionHereAndTheAccountOnTheServer(api: BackendConfiguration.API) async throws {
        try await Self.withServer { server, _ in
            let client = try AccountClientTests.client(server, api)
            _ = try await client.signIn(email: ClientFixture.email, password: ClientFixture.password)
            await #expect(throws: AuthError.self) { try await client.deleteAccount(password: "not the password") }
            #expect(await client.currentSession != nil)
            try await client.deleteAccount(password: ClientFixture.password)
            #expect(await client.currentSession == nil)
            await #expect(throws: AuthError.self) { try await client.signIn(email: ClientFixture.email, password: ClientFixture.password) }
        }
    }

    @Test(arguments: [BackendConfiguration.API.rest, .graphql, .supabase])
    func SS4_signInAnonymouslyMakesAGuestWhoseSessionIsStored(api: BackendConfiguration.API) async throws {
        try await Self.withServer { server, _ in
            let client = try AccountClientTests.client(server, api)
            let guest = try await client.signInAnonymously()
            #expect(guest.user.email.isEmpty && !guest.user.id.isEmpty)
            #expect(await client.currentSession?.user.id == guest.user.id)
            let other = try await client.signInAnonymously()
            #expect(other.user.id != guest.user.id, "each call is a new guest")
        }
    }

    @Test(arguments: [BackendConfiguration.API.rest, .graphql, .supabase])
    func SS5_changeEmailFinishesOnceBothAddressesConfirm(api: BackendConfiguration.API) async throws {
        try await Self.withServer { server, outbox in
            let client = try AccountClientTests.client(server, api)
            _ = try await client.signIn(email: ClientFixture.email, password: ClientFixture.password)
            #expect(try await client.changeEmail(to: "SDK.New@example.com") == "sdk.new@example.com")
            _ = try await AccountClientTests.mail(outbox, count: 2)
            let mails = try OutboxFile.lines(outbox)
                .map { try JSONDecoder().decode(AccountClientTests.Mail.self, from: Data($0.utf8)) }
            let toNew = try #require(mails.first { $0.to == "sdk.new@example.com" })
            let toOld = try #require(mails.first { $0.to == ClientFixture.email })
            #expect(try await client.confirmEmailChange(.code(email: "sdk.new@example.com", code: toNew.code)) == .awaitingOther)
            #expect(try await client.confirmEmailChange(.token(toOld.token)) == .done)
            #expect(try await client.signIn(email: "sdk.new@example.com", password: ClientFixture.password).user.email == "sdk.new@example.com")
        }
    }

    @Test func SS6_withAGracePeriodDeleteAccountSaysWhenTheAccountGoes() async throws {
        try await AccountClientTests.withServer(users: [(ClientFixture.email, "Demo User", ClientFixture.password)], configure: {
            $0.accounts.deletionGraceDays = 30
        }) { server, _ in
            let client = try AccountClientTests.client(server, .rest)
            _ = try await client.signIn(email: ClientFixture.email, password: ClientFixture.password)
            let due = try #require(try await client.deleteAccount(password: ClientFixture.password))
            #expect(abs(due.timeIntervalSinceNow - 30 * 86400) < 120)
            #expect(await client.currentSession == nil)
            _ = try await client.signIn(email: ClientFixture.email, password: ClientFixture.password)
        }
    }

    @Test(arguments: [BackendConfiguration.API.rest, .graphql, .supabase])
    func SS7_aGuestAddsAPhoneAndItsNumberSignsInToTheSameAccount(api: BackendConfiguration.API) async throws {
        let (server, outbox) = try await PhoneSignInClientTests.server {
            $0.signInMethods = SignInMethods(methods: [.email, .phone, .anonymous])
        }
        do {
            let client = try PhoneSignInClientTests.client(server, api)
            let guest = try await client.signInAnonymously()
            let number = PhoneCodeRequest(phone: "+919123456789", country: "IN")
            let adding = try await client.addPhone(number)
            try await client.confirmAddedPhone(code: try PhoneSignInClientTests.latestCode(outbox), for: adding)
            let verification = try await client.sendPhoneCode(number)
            let signedIn = try await client.signIn(code: try PhoneSignInClientTests.latestCode(outbox), for: verification)
            #expect(signedIn.user.id == guest.user.id)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test func SS3_supabaseSaysItCannotDeleteAnAccount() async throws {
        try await Self.withServer { server, _ in
            let client = try AccountClientTests.client(server, .supabase)
            _ = try await client.signIn(email: ClientFixture.email, password: ClientFixture.password)
            await #expect(throws: AuthError.server(status: 0, code: "unsupported", message: "This backend cannot delete accounts")) {
                try await client.deleteAccount(password: ClientFixture.password)
            }
        }
    }
}
