import Foundation
import GatehouseServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// A throttled sign-in on every surface: 429, a whole-second `Retry-After`, and each
/// surface's own shape (REST, GraphQL, Supabase Auth, the web form with and without script).
@Suite struct SurfaceRateLimitTests {
    /// After one failure the account's next attempt must wait a second.
    static func quick(_ configuration: inout GatehouseConfiguration) {
        configuration.abuse.backoffThreshold = 1
        configuration.supabaseAnonKey = SupabaseRouteTests.anonKey
    }

    static func formPost(_ client: some TestClientProtocol, password: String, json: Bool) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .cookie: "__Host-gatehouse-csrf=t0k3n"]
        if json { headers[.accept] = "application/json" }
        let body = "email=user%40example.com&password=\(password)&csrf=t0k3n"
        return try await client.execute(uri: "/login", method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    @Test func REST_throttledLoginIs429WithRetryAfter() async throws {
        try await Fixture(argon2: Fixture.cheap).test(Self.quick) { client in
            _ = try await client.login(Fixture.email, "wrong-password")
            let response = try await client.login()
            #expect(response.status == .tooManyRequests)
            #expect(response.headers[.retryAfter] == "1")
            #expect(try response.decoded(ThrottledBody.self).error == "rate_limited")
        }
    }

    @Test func GraphQL_throttledLoginIsRateLimitedWithRetryAfter() async throws {
        try await Fixture(argon2: Fixture.cheap).test(Self.quick) { client in
            let wrong = try GraphQLRouteTests.body(GraphQLRouteTests.loginMutation, ["email": Fixture.email, "password": "wrong-password"])
            #expect(try GraphQLRouteTests.firstError(try await client.postJSON("/graphql", wrong)).code == "INVALID_CREDENTIALS")
            let right = try GraphQLRouteTests.body(GraphQLRouteTests.loginMutation, ["email": Fixture.email, "password": Fixture.password])
            let response = try await client.postJSON("/graphql", right)
            #expect(response.status == .tooManyRequests)
            #expect(response.headers[.retryAfter] == "1")
            let errors = try #require(try GraphQLRouteTests.json(response)["errors"] as? [[String: Any]])
            let extensions = try #require(errors.first?["extensions"] as? [String: Any])
            #expect(extensions["code"] as? String == "RATE_LIMITED")
            #expect(extensions["retryAfter"] as? Int == 1)
        }
    }

    @Test func GoTrue_throttledPasswordGrantIsOverRequestRateLimit() async throws {
        try await Fixture(argon2: Fixture.cheap).test(Self.quick) { client in
            _ = try await SupabaseRouteTests.token(client, grant: "password", #"{"email":"user@example.com","password":"wrong-password"}"#)
            let response = try await SupabaseRouteTests.token(client, grant: "password", #"{"email":"user@example.com","password":"password123"}"#)
            #expect(response.status == .tooManyRequests)
            #expect(response.headers[.retryAfter] == "1")
            let body = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            #expect(body["code"] as? Int == 429)
            #expect(body["error_code"] as? String == "over_request_rate_limit")
        }
    }

    @Test func Web_throttledFormAnswersTheBannerAndTheWait() async throws {
        try await Fixture(argon2: Fixture.cheap).test(Self.quick) { client in
            #expect(try await Self.formPost(client, password: "wrong-password", json: true).status == .unauthorized)
            let script = try await Self.formPost(client, password: "password123", json: true)
            #expect(script.status == .tooManyRequests)
            #expect(script.headers[.retryAfter] == "1")
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(buffer: script.body)) as? [String: Any])
            #expect(answer["banner"] as? String == "Too many attempts. Please try again in 1 second.")
            #expect(answer["retryAfter"] as? Int == 1)
            let page = try await Self.formPost(client, password: "password123", json: false)
            #expect(page.status == .tooManyRequests)
            #expect(page.text.contains(#"data-retry-after="1""#))
            #expect(page.text.contains("Too many attempts. Please try again in 1 second."))
        }
    }

    @Test func Web_successfulSignInSetsAnHttpOnlyDeviceCookie() async throws {
        try await Fixture(argon2: Fixture.cheap).test(Self.quick) { client in
            let response = try await Self.formPost(client, password: "password123", json: true)
            #expect(response.status == .ok)
            let cookies = response.headers[values: .setCookie]
            let device = try #require(cookies.first { $0.hasPrefix("__Host-gatehouse-device=") })
            #expect(device.contains("HttpOnly") && device.contains("Secure") && device.contains("SameSite=Strict"))
        }
    }

    @Test func GraphQL_aStaleBearerTokenDoesNotStopALogin() async throws {
        try await Fixture(argon2: Fixture.cheap).test { client in
            let body = try GraphQLRouteTests.body(GraphQLRouteTests.loginMutation, ["email": Fixture.email, "password": Fixture.password])
            let response = try await client.postJSON("/graphql", body, headers: [.authorization: "Bearer not.a.token"])
            #expect(response.status == .ok)
            #expect((try GraphQLRouteTests.json(response)["data"] as? [String: Any])?["login"] != nil)
        }
    }
}
