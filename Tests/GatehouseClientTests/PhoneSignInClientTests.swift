import Foundation
import GatehouseClient
import GatehouseCore
import GatehousePhoneNumbers
import GatehouseSQL
import GatehouseServer
import GatehouseTestSupport
import Logging
import LoginCore
import Testing

/// The SDK's phone sign-in (seed 004) over each transport against the real server: send a code,
/// read it from the server's outbox, verify it, and drive LoginCore's code-entry machine.
@Suite struct PhoneSignInClientTests {
    static let phone = "+919876543210"

    /// A server with phone sign-in on, its outbox in the database's folder, and a phone account.
    static func withServer(_ body: (LoopbackServer, String) async throws -> Void) async throws {
        let (server, outbox) = try await Self.server()
        do {
            try await body(server, outbox)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    static func server(_ configure: @escaping @Sendable (inout GatehouseConfiguration) -> Void = { _ in }) async throws -> (LoopbackServer, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-sdk-phone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let outbox = folder.appendingPathComponent("outbox.jsonl").path
        let server = try await LoopbackServer.start(databasePath: folder.appendingPathComponent("db.sqlite").path) {
            $0.phone = PhonePolicy()
            $0.phone?.resendAfter = 0
            $0.sms = .outbox(path: outbox)
            $0.supabaseAnonKey = ClientFixture.anonKey
            configure(&$0)
        }
        let database = try await SQLiteDatabase(path: server.databasePath, logger: Logger(label: "admin"))
        let admin = UserAdministration(repository: SQLRepository(database: database.sql), numbers: LibPhoneNumber(), hasher: PasswordHasher(limits: .tests), clock: { Date() })
        _ = try await admin.create(phone: phone, name: "Asha Rao")
        try await database.close()
        return (server, outbox)
    }

    static func latestCode(_ outbox: String) throws -> String {
        struct Line: Decodable { let code: String }
        let lines = OutboxFile.lines(outbox)
        return try JSONDecoder().decode(Line.self, from: Data(try #require(lines.last).utf8)).code
    }

    static func client(_ server: LoopbackServer, _ api: BackendConfiguration.API) throws -> AuthClient {
        let backend = BackendConfiguration(api: api, anonKey: api == .supabase ? ClientFixture.anonKey : nil)
        return AuthClient(transport: try AuthTransports.make(backend, server: server.url), store: InMemorySessionStore())
    }

    @Test(arguments: [BackendConfiguration.API.rest, .graphql, .supabase])
    func S004_sendAndVerifyAPhoneCodeStoresASession(api: BackendConfiguration.API) async throws {
        try await Self.withServer { server, outbox in
            let client = try Self.client(server, api)
            let verification = try await client.sendPhoneCode(PhoneCodeRequest(phone: Self.phone, country: "IN"))
            #expect(verification.sent.codeLength == 6)
            let code = try Self.latestCode(outbox)
            let wrong = code == "000000" ? "111111" : "000000"
            await #expect(throws: AuthError.self) { try await client.signIn(code: wrong, for: verification) }
            let session = try await client.signIn(code: code, for: verification)
            #expect(session.user.name == "Asha Rao")
            #expect(await client.currentSession == session)
        }
    }

    @Test(arguments: [BackendConfiguration.API.rest, .graphql, .supabase])
    func I26_resendWindowIsItsOwnOutcomeOnEveryBackend(api: BackendConfiguration.API) async throws {
        let request = PhoneCodeRequest(phone: Self.phone, country: "IN")
        let (server, _) = try await Self.server { $0.phone?.resendAfter = 60 }
        let client = try Self.client(server, api)
        _ = try await client.sendPhoneCode(request)
        do {
            _ = try await client.sendPhoneCode(request)
            Issue.record("a second code inside the resend window was sent")
        } catch let error as AuthError {
            guard case .resendTooSoon(let wait) = error else { Issue.record("got \(error)"); await server.stop(); return }
            #expect((55...60).contains(wait), "the window's real wait")
            #expect(error.loginFailure == .resendTooSoon(retryAfter: wait))
        }
        await server.stop()
        let (limited, _) = try await Self.server { $0.phone?.sendsPerPhone = 1 }
        let other = try Self.client(limited, api)
        _ = try await other.sendPhoneCode(request)
        do {
            _ = try await other.sendPhoneCode(request)
            Issue.record("a second code past the per-phone limit was sent")
        } catch AuthError.rateLimited(let wait?) {
            #expect((890...900).contains(wait), "a real limit stays a limit, with the window's real wait")
        }
        await limited.stop()
    }

    @Test func S004_codeEntryMachineDrivenThroughTheSDK() async throws {
        try await Self.withServer { server, outbox in
            let client = try Self.client(server, .rest)
            let verification = try await client.sendPhoneCode(PhoneCodeRequest(phone: Self.phone, country: "IN"))
            let form = CodeEntryForm()
            var (state, _) = form.begin(verification.sent)
            let code = try Self.latestCode(outbox)
            let wrong = code == "000000" ? "111111" : "000000"
            var effects = form.send(.codeChanged(wrong), to: &state)
            for effect in effects { if let event = await client.perform(effect, for: verification) { _ = form.send(event, to: &state) } }
            #expect(state.codeError == "Incorrect code. Tries left: 4" && state.attemptsLeft == 4)
            effects = form.send(.codeChanged(code), to: &state)
            var followUps: [CodeEntryEffect] = []
            for effect in effects { if let event = await client.perform(effect, for: verification) { followUps += form.send(event, to: &state) } }
            #expect(followUps.contains(.navigateHome))
            #expect(await client.currentSession?.user.name == "Asha Rao")
        }
    }

    @Test func S004_unknownNumberIsAccountNotFoundForLoginCore() async throws {
        try await Self.withServer { server, _ in
            for api in [BackendConfiguration.API.rest, .graphql, .supabase] {
                let client = try Self.client(server, api)
                do {
                    _ = try await client.sendPhoneCode(PhoneCodeRequest(phone: "+919123456789", country: "IN"))
                    Issue.record("\(api): an unknown number got a code")
                } catch let error as AuthError {
                    #expect(error.loginFailure == .accountNotFound, "\(api)")
                }
            }
        }
    }
}
