import Foundation
import GatehouseDelivery
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// The Supabase Auth (GoTrue) subset under `/auth/v1` (seed 003), through the real router.
@Suite struct SupabaseRouteTests {
    static let anonKey = "test-anon-key"
    static let key: HTTPFields = [HTTPField.Name("apikey")!: anonKey]

    static func token(_ client: some TestClientProtocol, grant: String, _ json: String, key: HTTPFields = key) async throws -> TestResponse {
        try await client.postJSON("/auth/v1/token?grant_type=\(grant)", json, headers: key)
    }

    static func signIn(_ client: some TestClientProtocol) async throws -> [String: Any] {
        let response = try await token(client, grant: "password", #"{"email":"user@example.com","password":"password123"}"#)
        return try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    static func bearer(_ token: Any?) -> HTTPFields {
        var fields = key
        fields[.authorization] = "Bearer \(token as? String ?? "")"
        return fields
    }

    func withServer(_ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await Fixture().test({ $0.supabaseAnonKey = Self.anonKey }, test)
    }

    @Test func seed003_passwordGrantReturnsGoTruesSessionShape() async throws {
        try await withServer { client in
            let response = try await Self.token(client, grant: "password", #"{"email":" User@Example.com","password":"password123","gotrue_meta_security":{}}"#)
            #expect(response.status == .ok && response.headers[.cacheControl] == "no-store")
            let session = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            #expect(Set(session.keys) == ["access_token", "token_type", "expires_in", "expires_at", "refresh_token", "user"])
            #expect(session["token_type"] as? String == "bearer" && session["expires_in"] as? Int == 900)
            let user = try #require(session["user"] as? [String: Any])
            #expect(user["aud"] as? String == "authenticated" && user["email"] as? String == Fixture.email)
            #expect(user["user_metadata"] as? [String: String] == ["first_name": "Demo", "last_name": "User", "full_name": "Demo User"])
        }
    }

    @Test func wrongCredentialsUseGoTruesErrorShapeForKnownAndUnknownEmails() async throws {
        try await withServer { client in
            for email in [Fixture.email, "nobody@example.com"] {
                let response = try await Self.token(client, grant: "password", #"{"email":"\#(email)","password":"wrong-password"}"#)
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body) == #"{"code":400,"error_code":"invalid_credentials","msg":"Invalid login credentials"}"#)
            }
        }
    }

    @Test func theAnonKeyIsRequired() async throws {
        try await withServer { client in
            for key: HTTPFields in [[:], [HTTPField.Name("apikey")!: "wrong"]] {
                let response = try await Self.token(client, grant: "password", #"{"email":"user@example.com","password":"password123"}"#, key: key)
                #expect(response.status == .unauthorized)
                #expect(String(buffer: response.body).contains(#""error_code":"invalid_api_key""#))
            }
        }
    }

    @Test func refreshRotatesAndReportsGoTruesRefreshErrors() async throws {
        try await withServer { client in
            let session = try await Self.signIn(client)
            let refresh = #"{"refresh_token":"\#(session["refresh_token"] as? String ?? "")"}"#
            let rotated = try await Self.token(client, grant: "refresh_token", refresh)
            #expect(rotated.status == .ok)
            let unknown = try await Self.token(client, grant: "refresh_token", #"{"refresh_token":"ghr_nope"}"#)
            #expect(String(buffer: unknown.body).contains(#""error_code":"refresh_token_not_found""#))
            let badGrant = try await Self.token(client, grant: "magic", "{}")
            #expect(badGrant.status == .badRequest && String(buffer: badGrant.body).contains("validation_failed"))
        }
    }

    @Test func userAndLogoutScopes() async throws {
        try await withServer { client in
            let this = try await Self.signIn(client), other = try await Self.signIn(client)
            let user = try await client.execute(uri: "/auth/v1/user", method: .get, headers: Self.bearer(this["access_token"]))
            #expect(user.status == .ok && String(buffer: user.body).contains(#""email":"user@example.com""#))
            let noToken = try await client.execute(uri: "/auth/v1/user", method: .get, headers: Self.key)
            #expect(noToken.status == .unauthorized && String(buffer: noToken.body).contains("no_authorization"))
            let others = try await client.execute(uri: "/auth/v1/logout?scope=others", method: .post, headers: Self.bearer(this["access_token"]))
            #expect(others.status == .noContent)
            let ended = try await client.execute(uri: "/auth/v1/user", method: .get, headers: Self.bearer(other["access_token"]))
            #expect(ended.status == .forbidden && String(buffer: ended.body).contains(#""error_code":"session_not_found""#))
            let global = try await client.execute(uri: "/auth/v1/logout", method: .post, headers: Self.bearer(this["access_token"]))
            #expect(global.status == .noContent)
            let after = try await client.execute(uri: "/auth/v1/user", method: .get, headers: Self.bearer(this["access_token"]))
            #expect(after.status == .forbidden, "Supabase's default logout scope is global")
        }
    }

    @Test func withoutAnAnonKeyTheSupabaseRoutesAreNotServed() async throws {
        try await Fixture().test { client in
            let response = try await Self.token(client, grant: "password", #"{"email":"user@example.com","password":"password123"}"#)
            #expect(response.status == .notFound)
        }
    }
}
