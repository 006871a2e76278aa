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
}
