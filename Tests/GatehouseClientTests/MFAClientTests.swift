import Foundation
import GatehouseClient
import GatehouseCore
import GatehouseModel
import GatehouseTestSupport
import LoginCore
import Testing

/// The SDK's `auth.mfa` (issue 37) against the real server, over REST, GraphQL and Supabase
/// Auth: enrol and verify, a sign-in that reports the second factor due, a challenge answered,
/// and (where the API has them) a recovery code.
@Suite struct MFAClientTests {
    static func code(_ secret: String, offset: TimeInterval = 0) throws -> String {
        let totp = TOTP(secret: try #require(Base32.decode(secret)))
        return totp.code(forStep: totp.step(at: Date().addingTimeInterval(offset)))
    }

    static func client(_ server: LoopbackServer, _ api: BackendConfiguration.API) throws -> AuthClient {
        let backend = BackendConfiguration(api: api, anonKey: api == .supabase ? ClientFixture.anonKey : nil)
        return AuthClient(transport: try AuthTransports.make(backend, server: server.url), store: InMemorySessionStore())
    }

    @Test(arguments: [BackendConfiguration.API.rest, .graphql, .supabase])
    func enrolVerifyThenASignInReportsTheSecondFactorAndAChallengeStepsUp(api: BackendConfiguration.API) async throws {
        let (email, password) = (PasskeyClientTests.email, PasskeyClientTests.password)
        let server = try await LoopbackServer.start(users: [(email, "Mentor", password)]) {
            $0.mfa = MFAPolicy()
            $0.supabaseAnonKey = ClientFixture.anonKey
        }
        do {
            let client = try Self.client(server, api)
            guard case .signedIn(let first) = try await client.signInReportingSecondFactor(email: email, password: password) else {
                Issue.record("no factor yet: signed in")
                return
            }
            #expect(first.assuranceLevel == .aal1 && !first.needsSecondFactor)
            let enrolment = try await client.mfa.enrol(friendlyName: "Phone")
            #expect(enrolment.factor.status == "unverified" && enrolment.uri.hasPrefix("otpauth://totp/"))
            let codes = try await client.mfa.verifyEnrolment(factorID: enrolment.factor.id, code: try Self.code(enrolment.secret))
            #expect(codes.count == (api == .supabase ? 0 : 10), "GoTrue's answer has no recovery codes")
            #expect(await client.currentSession?.assuranceLevel == .aal2)
            let verified = FactorSummary(id: enrolment.factor.id, type: "totp", friendlyName: "Phone", status: "verified")
            #expect(try await client.mfa.factors().factors == [verified])

            let other = try Self.client(server, api)
            #expect(try await other.signInReportingSecondFactor(email: email, password: password) == .needsSecondFactor([verified]))
            await #expect(throws: AuthError.self, "a sensitive action waits for the step up") { try await other.mfa.unenrol(factorID: verified.id) }
            let challenge = try await other.mfa.challenge(factorID: verified.id)
            let stepped = try await other.mfa.verify(
                factorID: verified.id, challengeID: challenge.challengeID, answer: .code(try Self.code(enrolment.secret, offset: 30))
            )
            #expect(stepped.assuranceLevel == .aal2 && !stepped.needsSecondFactor)
            guard api != .supabase else { return await server.stop() }

            let third = try Self.client(server, api)
            _ = try await third.signIn(email: email, password: password)
            let recovery = try await third.mfa.challenge(factorID: nil)
            let viaCode = try await third.mfa.verify(challengeID: recovery.challengeID, answer: .recoveryCode(codes[0]))
            #expect(viaCode.assuranceLevel == .aal2)
            #expect(try await third.mfa.factors().recoveryCodesLeft == 9)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test func aPasskeySignInIsAAL2AtOnceAndAPasskeyOfTheAccountStepsAPasswordSessionUp() async throws {
        try await PasskeyClientTests.withServer { server in
            let client = AuthClient(transport: try RESTTransport(baseURL: server.url), store: InMemorySessionStore())
            let authenticator = SoftwareAuthenticator(origin: "http://127.0.0.1:0")
            _ = try await client.signIn(email: PasskeyClientTests.email, password: PasskeyClientTests.password)
            #expect(await client.currentSession?.assuranceLevel == .aal1)
            _ = try await client.registerPasskey(using: authenticator, name: "Test phone")
            let viaPasskey = try await client.signInWithPasskey(using: authenticator)
            #expect(viaPasskey.assuranceLevel == .aal2, "user verification makes a passkey two factors")
        }
    }

    /// Runs the machine's effects through the client until none are left.
    static func drive(
        _ form: SecondFactorForm, _ event: SecondFactorEvent, _ state: inout SecondFactorState, client: AuthClient,
        authenticator: SoftwareAuthenticator
    ) async {
        var effects = form.send(event, to: &state)
        while !effects.isEmpty {
            let effect = effects.removeFirst()
            if let next = await client.perform(effect, authenticator: authenticator) { effects += form.send(next, to: &state) }
        }
    }

    @Test func theSDKDrivesSecondFactorFormWithACodeAndWithAPasskey() async throws {
        let (email, password) = (PasskeyClientTests.email, PasskeyClientTests.password)
        let server = try await LoopbackServer.start(users: [(email, "Mentor", password)]) { $0.mfa = MFAPolicy() }
        do {
            let authenticator = SoftwareAuthenticator(origin: "http://127.0.0.1:0")
            let owner = AuthClient(transport: try RESTTransport(baseURL: server.url), store: InMemorySessionStore())
            _ = try await owner.signIn(email: email, password: password)
            _ = try await owner.registerPasskey(using: authenticator, name: "Test phone")
            let enrolment = try await owner.mfa.enrol(friendlyName: "Phone")
            try await owner.mfa.verifyEnrolment(factorID: enrolment.factor.id, code: try Self.code(enrolment.secret))

            let form = SecondFactorForm()
            let withCode = AuthClient(transport: try RESTTransport(baseURL: server.url), store: InMemorySessionStore())
            _ = try await withCode.signIn(email: email, password: password)
            var state = SecondFactorState(offersRecoveryCodes: true, offersPasskey: true)
            await Self.drive(form, .codeChanged(try Self.code(enrolment.secret, offset: 30)), &state, client: withCode, authenticator: authenticator)
            #expect(!state.isVerifying && state.codeError == nil && state.banner == nil)
            #expect(await withCode.currentSession?.assuranceLevel == .aal2)

            let withPasskey = AuthClient(transport: try RESTTransport(baseURL: server.url), store: InMemorySessionStore())
            _ = try await withPasskey.signIn(email: email, password: password)
            var other = SecondFactorState(offersRecoveryCodes: true, offersPasskey: true)
            await Self.drive(form, .usePasskey, &other, client: withPasskey, authenticator: authenticator)
            #expect(!other.isVerifying && other.banner == nil)
            let session = try #require(await withPasskey.currentSession)
            #expect(session.assuranceLevel == .aal2 && !session.needsSecondFactor)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}

