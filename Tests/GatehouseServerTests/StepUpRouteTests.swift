import Foundation
import GatehouseCore
import GatehouseModel
import GatehouseServer
import GatehouseTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 37's step-up rule on every surface: once the account has a verified factor, each
/// sensitive action from an `aal1` session is refused with the one error (REST and GoTrue
/// `insufficient_aal`, GraphQL `MFA_REQUIRED`), and allowed after the session answers a challenge.
@Suite struct StepUpRouteTests {
    static let anonKey = "step-up-anon-key"

    struct Enrolled {
        let factorID: String
        let totp: TOTP
    }

    static func bearer(_ token: String, supabase: Bool = false) -> HTTPFields {
        var fields: HTTPFields = [.authorization: "Bearer \(token)"]
        if supabase { fields[HTTPField.Name("apikey")!] = anonKey }
        return fields
    }

    static func object(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    /// Enrols and verifies an authenticator app for the demo account over REST.
    static func enrol(_ client: some TestClientProtocol, clock: TestClock) async throws -> Enrolled {
        let token = try await client.grant().accessToken
        let enrolment = try object(try await client.postJSON("/api/auth/mfa/factors", #"{"friendly_name":"Phone"}"#, headers: bearer(token)))
        let secret = try #require(enrolment["secret"] as? String)
        let factorID = try #require((enrolment["factor"] as? [String: Any])?["id"] as? String)
        let totp = TOTP(secret: try #require(Base32.decode(secret)))
        let code = totp.code(forStep: totp.step(at: clock.now))
        let verified = try await client.postJSON("/api/auth/mfa/factors/\(factorID)/verify", #"{"code":"\#(code)"}"#, headers: bearer(token))
        #expect(verified.status == .ok)
        return Enrolled(factorID: factorID, totp: totp)
    }

    /// Each sensitive action as one request, with the code its refusal carries.
    static func actions(factorID: String) -> [(name: String, method: HTTPRequest.Method, uri: String, body: String, supabase: Bool, graphQL: Bool)] {
        [
            ("REST password change", .post, "/api/auth/password", #"{"current_password":"password123","password":"a new passphrase"}"#, false, false),
            ("REST new factor", .post, "/api/auth/mfa/factors", "{}", false, false),
            ("REST remove factor", .delete, "/api/auth/mfa/factors/\(factorID)", "", false, false),
            ("REST new recovery codes", .post, "/api/auth/mfa/recovery-codes", "{}", false, false),
            ("REST sign out the others", .post, "/api/auth/logout?scope=others", "{}", false, false),
            ("GoTrue update_user", .put, "/auth/v1/user", #"{"password":"a new passphrase","current_password":"password123"}"#, true, false),
            ("GoTrue enroll", .post, "/auth/v1/factors", #"{"factor_type":"totp"}"#, true, false),
            ("GoTrue unenroll", .delete, "/auth/v1/factors/\(factorID)", "", true, false),
            ("GoTrue sign out the others", .post, "/auth/v1/logout?scope=others", "", true, false),
            ("GraphQL regenerateRecoveryCodes", .post, "/graphql", #"{"query":"mutation { regenerateRecoveryCodes }"}"#, false, true),
            ("GraphQL enrolFactor", .post, "/graphql", #"{"query":"mutation { enrolFactor { secret } }"}"#, false, true),
            ("GraphQL logout others", .post, "/graphql", #"{"query":"mutation { logout(scope: \"others\") }"}"#, false, true),
        ]
    }

    @Test func everySensitiveActionAtAAL1IsRefusedOnEverySurfaceAndAllowedAfterAStepUp() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test({ $0.mfa = MFAPolicy(); $0.supabaseAnonKey = Self.anonKey }) { client in
            let enrolled = try await Self.enrol(client, clock: fixture.clock)
            let aal1 = try await client.grant()
            for action in Self.actions(factorID: enrolled.factorID) {
                var headers = Self.bearer(aal1.accessToken, supabase: action.supabase)
                headers[.contentType] = "application/json"
                let response = try await client.execute(uri: action.uri, method: action.method, headers: headers, body: ByteBuffer(string: action.body))
                let body = String(buffer: response.body)
                if action.graphQL {
                    #expect(body.contains(#""code":"MFA_REQUIRED""#), "\(action.name): \(body)")
                } else {
                    #expect(response.status == .forbidden && body.contains(#""insufficient_aal""#), "\(action.name): \(response.status) \(body)")
                }
            }
            // The session answers its factor; the same actions now pass the rule.
            let challenge = try Self.object(try await client.postJSON(
                "/api/auth/mfa/challenge", #"{"factor_id":"\#(enrolled.factorID)"}"#, headers: Self.bearer(aal1.accessToken)
            ))
            let code = enrolled.totp.code(forStep: enrolled.totp.step(at: fixture.clock.now) + 1)
            let stepped = try await client.postJSON(
                "/api/auth/mfa/verify", #"{"challenge_id":"\#(challenge["challenge_id"] as? String ?? "")","code":"\#(code)"}"#,
                headers: Self.bearer(aal1.accessToken)
            )
            #expect(stepped.status == .ok)
            let aal2 = try stepped.decoded(TokenGrant.self).accessToken
            let codes = try await client.postJSON("/api/auth/mfa/recovery-codes", "{}", headers: Self.bearer(aal2))
            #expect(codes.status == .ok)
            let change = try await client.postJSON(
                "/api/auth/password", #"{"current_password":"password123","password":"a new passphrase"}"#, headers: Self.bearer(aal2)
            )
            #expect(change.status == .noContent)
        }
    }
}
