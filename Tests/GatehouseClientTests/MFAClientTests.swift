import Foundation
import GatehouseClient
import GatehouseCore
import GatehouseModel
import GatehouseTestSupport
import Testing

/// The SDK's `auth.mfa` (issue 37) against the real server over REST: enrol and verify, a
/// sign-in that reports the second factor due, a challenge answered, a refresh keeping the
/// level, and a recovery code.
@Suite struct MFAClientTests {
    static func code(_ secret: String, offset: TimeInterval = 0) throws -> String {
        let totp = TOTP(secret: try #require(Base32.decode(secret)))
        return totp.code(forStep: totp.step(at: Date().addingTimeInterval(offset)))
    }

    @Test func enrolVerifyThenASignInReportsTheSecondFactorAndAChallengeStepsUp() async throws {
        let server = try await LoopbackServer.start(users: [(PasskeyClientTests.email, "Mentor", PasskeyClientTests.password)]) {
            $0.mfa = MFAPolicy()
        }
        do {
            let client = AuthClient(transport: try RESTTransport(baseURL: server.url), store: InMemorySessionStore())
            guard case .signedIn(let first) = try await client.signInReportingSecondFactor(
                email: PasskeyClientTests.email, password: PasskeyClientTests.password
            ) else { Issue.record("no factor yet: signed in"); return }
            #expect(first.assuranceLevel == .aal1 && !first.needsSecondFactor)
            let enrolment = try await client.mfa.enrol(friendlyName: "Phone")
            #expect(enrolment.factor.status == "unverified" && enrolment.uri.hasPrefix("otpauth://totp/"))
            let codes = try await client.mfa.verifyEnrolment(factorID: enrolment.factor.id, code: try Self.code(enrolment.secret))
            #expect(codes.count == 10)
            #expect(await client.currentSession?.assuranceLevel == .aal2)
            #expect(try await client.mfa.factors() == MFAFactorList(
                factors: [FactorSummary(id: enrolment.factor.id, type: "totp", friendlyName: "Phone", status: "verified")], recoveryCodesLeft: 10
            ))

            let other = AuthClient(transport: try RESTTransport(baseURL: server.url), store: InMemorySessionStore())
            let outcome = try await other.signInReportingSecondFactor(email: PasskeyClientTests.email, password: PasskeyClientTests.password)
            #expect(outcome == .needsSecondFactor([FactorSummary(id: enrolment.factor.id, type: "totp", friendlyName: "Phone", status: "verified")]))
            await #expect(throws: AuthError.self, "a sensitive action waits for the step up") { try await other.mfa.regenerateRecoveryCodes() }
            let challenge = try await other.mfa.challenge(factorID: enrolment.factor.id)
            let stepped = try await other.mfa.verify(challengeID: challenge.challengeID, answer: .code(try Self.code(enrolment.secret, offset: 30)))
            #expect(stepped.assuranceLevel == .aal2 && !stepped.needsSecondFactor)

            let third = AuthClient(transport: try RESTTransport(baseURL: server.url), store: InMemorySessionStore())
            _ = try await third.signIn(email: PasskeyClientTests.email, password: PasskeyClientTests.password)
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
}
