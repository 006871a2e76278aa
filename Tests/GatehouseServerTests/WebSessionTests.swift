import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 10, finding 4: the web session is its own opaque, hashed id with an idle timeout,
/// rotated at sign-in, and never interchangeable with a refresh token.
@Suite struct WebSessionTests {
    static let cookieName = "__Host-gatehouse-session"

    /// Signs in through the form, presenting `previous` as the browser's session cookie.
    static func webSignIn(_ client: some TestClientProtocol, previous: String? = nil) async throws -> String {
        var cookie = "__Host-gatehouse-csrf=t0k3n"
        if let previous { cookie += "; \(cookieName)=\(previous)" }
        let headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .cookie: cookie]
        let body = "email=user%40example.com&password=password123&csrf=t0k3n"
        let response = try await client.execute(uri: "/login", method: .post, headers: headers, body: ByteBuffer(string: body))
        try #require(response.status == .seeOther)
        let setCookie = try #require(response.headers[values: .setCookie].first { $0.hasPrefix(cookieName + "=") })
        return String(setCookie.dropFirst(cookieName.count + 1).prefix { $0 != ";" })
    }

    /// Whether `/home` shows the signed-in page for this cookie (rather than redirecting to sign in).
    static func isSignedIn(_ client: some TestClientProtocol, _ cookie: String) async throws -> Bool {
        let response = try await client.execute(uri: "/home", method: .get, headers: [.cookie: "\(cookieName)=\(cookie)"])
        return response.status == .ok
    }

    @Test func F4_theWebCookieIsNotARefreshTokenAndARefreshTokenIsNotAWebCookie() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let cookie = try await Self.webSignIn(client)
            #expect(cookie.hasPrefix("ghw_") && cookie.count >= 4 + 43, "256 random bits")
            let refresh = try await client.refresh(cookie)
            #expect(refresh.status == .unauthorized)
            #expect(refresh.errorBody?.error == "invalid_refresh_token")
            #expect(try await Self.isSignedIn(client, cookie), "presenting it to the API did not end the web session")
            let apiToken = try await client.grant().refreshToken
            #expect(try await Self.isSignedIn(client, apiToken) == false)
            #expect(try await client.refresh(apiToken).status == .ok, "…and the API session is untouched")
        }
    }

    @Test func F4_theIdIsStoredOnlyAsAHash() async throws {
        let fixture = try await Fixture()
        let cookie = try await fixture.test { client in try await Self.webSignIn(client) }
        let stored = try await fixture.storedText()
        #expect(stored.contains(Fixture.email), "the dump reads real rows")
        #expect(!stored.contains(cookie))
        #expect(!stored.contains(cookie.dropFirst(4)), "not even without the prefix")
    }

    @Test func F4_anUnusedWebSessionEndsAfterTheIdleTimeoutAndUseKeepsItAlive() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let cookie = try await Self.webSignIn(client)
            for _ in 0..<3 {
                fixture.clock.advance(by: 29 * 60)
                #expect(try await Self.isSignedIn(client, cookie), "used within 30 minutes")
            }
            fixture.clock.advance(by: 30 * 60 + 1)
            #expect(try await Self.isSignedIn(client, cookie) == false, "30 minutes unused")
            let page = try await client.execute(uri: "/home", method: .get, headers: [.cookie: "\(Self.cookieName)=\(cookie)"])
            #expect(page.headers[.location] == "/login?reason=expired", "the screen can say the session expired")
        }
    }

    @Test func F4_theWebSessionHasAnAbsoluteLifetimeAndBothAreConfigurable() async throws {
        let fixture = try await Fixture()
        try await fixture.test({ $0.webSessionLifetime = 3600; $0.webSessionIdleTimeout = 600 }) { client in
            let cookie = try await Self.webSignIn(client)
            for _ in 0..<5 {
                fixture.clock.advance(by: 9 * 60)
                #expect(try await Self.isSignedIn(client, cookie))
            }
            fixture.clock.advance(by: 11 * 60)
            #expect(try await Self.isSignedIn(client, cookie) == false, "idle 11 minutes against a 10-minute timeout")
            let second = try await Self.webSignIn(client)
            for _ in 0..<6 { fixture.clock.advance(by: 9 * 60); _ = try await Self.isSignedIn(client, second) }
            fixture.clock.advance(by: 7 * 60)
            #expect(try await Self.isSignedIn(client, second) == false, "past one hour, however busy")
        }
    }

    @Test func F4_signingInAgainIssuesANewIdAndEndsTheOldOne() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let first = try await Self.webSignIn(client)
            let second = try await Self.webSignIn(client, previous: first)
            #expect(second != first)
            #expect(try await Self.isSignedIn(client, second))
            #expect(try await Self.isSignedIn(client, first) == false, "a planted or stale id is worth nothing after sign-in")
        }
    }
}
