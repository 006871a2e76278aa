import Foundation
import GatehouseClient
import GatehouseCore
import GatehouseServer
import GatehouseTestSupport
import LoginCore
import Testing

/// The SDK's account lifecycle (issue 22) over each transport against the real server: sign up,
/// verify with the mailed code or link, ask for a reset and set a new password, each driving
/// LoginCore's machines where a screen would.
@Suite struct AccountClientTests {
    /// Peated's accounts with mail to an outbox, `users` made first, and `configure`'s changes.
    static func server(
        users: [(email: String, name: String, password: String)] = [], configure: @escaping @Sendable (inout GatehouseConfiguration) -> Void = { _ in }
    ) async throws -> (LoopbackServer, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-sdk-accounts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let outbox = folder.appendingPathComponent("mail.jsonl").path
        let server = try await LoopbackServer.start(users: users, databasePath: folder.appendingPathComponent("db.sqlite").path) {
            $0.accounts = AccountOptions(signUp: true, passwordReset: true, requireVerifiedEmail: true)
            $0.email = .outbox(path: outbox)
            $0.supabaseAnonKey = ClientFixture.anonKey
            configure(&$0)
        }
        return (server, outbox)
    }

    /// Runs `body` against a fresh server and stops it, whatever the body does.
    static func withServer(
        users: [(email: String, name: String, password: String)] = [], configure: @escaping @Sendable (inout GatehouseConfiguration) -> Void = { _ in },
        _ body: (LoopbackServer, String) async throws -> Void
    ) async throws {
        let (server, outbox) = try await Self.server(users: users, configure: configure)
        do {
            try await body(server, outbox)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    struct Mail: Decodable {
        let to: String
        let code: String
        let link: String
        var token: String { URLComponents(string: link)?.queryItems?.first { $0.name == "token" }?.value ?? "" }
    }

    static func mail(_ outbox: String, count: Int) async throws -> Mail {
        let lines = try await OutboxFile.lines(outbox, atLeast: count)
        return try JSONDecoder().decode(Mail.self, from: Data(try #require(lines.last).utf8))
    }

    static func client(_ server: LoopbackServer, _ api: BackendConfiguration.API) throws -> AuthClient {
        let backend = BackendConfiguration(api: api, anonKey: api == .supabase ? ClientFixture.anonKey : nil)
        return AuthClient(transport: try AuthTransports.make(backend, server: server.url), store: InMemorySessionStore())
    }

    @Test(arguments: [BackendConfiguration.API.rest, .graphql, .supabase])
    func I22_signUpThroughTheMachineThenTheMailedCodeSignsIn(api: BackendConfiguration.API) async throws {
        try await Self.withServer { server, outbox in
            let client = try Self.client(server, api)
            let form = SignUpForm(options: AccountOptions(signUp: true))
            var state = SignUpState()
            _ = form.send(.nameChanged("Ada Lovelace"), to: &state)
            _ = form.send(.emailChanged("Ada@Example.com"), to: &state)
            _ = form.send(.passwordChanged("a long and quiet river"), to: &state)
            for effect in form.send(.submit, to: &state) {
                if let event = await client.perform(effect) { _ = form.send(event, to: &state) }
            }
            #expect(state.sentTo == "ada@example.com" && state.banner == nil)
            let mail = try await Self.mail(outbox, count: 1)
            do {
                _ = try await client.signIn(email: "ada@example.com", password: "a long and quiet river")
                Issue.record("an unverified account signed in")
            } catch let error as AuthError {
                #expect(error.loginFailure == .emailNotVerified)
            }
            let session = try await client.verifyEmail(.code(email: "ada@example.com", code: mail.code))
            #expect(session.user.email == "ada@example.com")
            #expect(await client.currentSession?.user.email == "ada@example.com", "the session is stored")
        }
    }

    @Test(arguments: [BackendConfiguration.API.rest, .graphql, .supabase])
    func I22_aResetByLinkThroughTheMachineSetsThePasswordAndSignsIn(api: BackendConfiguration.API) async throws {
        try await Self.withServer { server, outbox in
            let client = try Self.client(server, api)
            _ = try await client.signUp(email: "bo@example.com", password: "first good passphrase", name: "Bo")
            let signup = try await Self.mail(outbox, count: 1)
            try await client.verifyEmail(.token(signup.token))
            let form = PasswordResetForm(options: AccountOptions(passwordReset: true))
            var state = PasswordResetForm.State()
            _ = form.send(.emailChanged("bo@example.com"), to: &state)
            for effect in form.send(.requestReset, to: &state) {
                if let event = await client.perform(effect, proof: nil) { _ = form.send(event, to: &state) }
            }
            #expect(state.notice == "If an account exists for bo@example.com, we sent it a link to reset the password.")
            let reset = try await Self.mail(outbox, count: 2)
            _ = form.send(.passwordChanged("second good passphrase"), to: &state)
            var effects = form.send(.submitPassword, to: &state)
            while !effects.isEmpty {
                let effect = effects.removeFirst()
                if let event = await client.perform(effect, proof: .token(reset.token)) { effects += form.send(event, to: &state) }
            }
            #expect(state.isDone && state.banner == nil, "\(state)")
            let again = try Self.client(server, api)
            let session = try await again.signIn(email: "bo@example.com", password: "second good passphrase")
            #expect(session.user.email == "bo@example.com")
        }
    }
}
