import Crypto
import Foundation
import GatehouseCore
import GatehouseTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 21, findings 5 to 7 on `POST /auth/google`, against a local RS256 issuer on loopback:
/// an ID token works once, a provider's malformed email signs nobody in, and a code is only
/// exchanged for our own callback or an allowed redirect.
@Suite struct IDTokenReplayTests {
    static let client = "web-client"

    static func withServer(_ body: @escaping @Sendable (any TestClientProtocol, LocalKeyProvider, Date) async throws -> Void) async throws {
        let provider = try await LocalKeyProvider.start()
        defer { provider.stop() }
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test({
            $0.google = try? ExternalProviderSettings(issuer: provider.issuer, clientIDs: [client], redirectAllowList: ["https://app.example.com/cb"])
            $0.publicURL = "http://localhost:8080"
        }, mode: .live) { [now = fixture.clock.now] client in try await body(client, provider, now) }
    }

    static func token(_ provider: LocalKeyProvider, sub: String, email: String, nonce raw: String, now: Date) async throws -> String {
        var claims = LocalIDToken(iss: provider.issuer, sub: sub, aud: [client], now: now, nonce: SHA256.hash(data: Data(raw.utf8)).hexEncoded)
        claims.email = email
        claims.email_verified = true
        return try await provider.token(claims)
    }

    static func post(_ client: any TestClientProtocol, _ body: [String: String]) async throws -> TestResponse {
        try await client.postJSON("/auth/google", String(decoding: try JSONEncoder().encode(body), as: UTF8.self))
    }

    @Test func H21_anIDTokenAndItsNonceWorkOnce() async throws {
        try await Self.withServer { client, provider, now in
            let token = try await Self.token(provider, sub: "replay-1", email: "replay@example.com", nonce: "raw-nonce", now: now)
            let first = try await Self.post(client, ["id_token": token, "nonce": "raw-nonce"])
            #expect(first.status == .ok)
            let again = try await Self.post(client, ["id_token": token, "nonce": "raw-nonce"])
            #expect(again.status == .unauthorized)
            #expect(String(buffer: again.body).contains("token already used"))
            // A new token for the same person still signs in.
            let fresh = try await Self.token(provider, sub: "replay-1", email: "replay@example.com", nonce: "another-nonce", now: now)
            #expect(try await Self.post(client, ["id_token": fresh, "nonce": "another-nonce"]).status == .ok)
        }
    }

    @Test(arguments: ["user@example.com\u{0}", "user@exa mple.com", "not-an-email", "üser@example.com"])
    func H21_aProviderEmailThatIsNotAnEmailSignsNobodyIn(email: String) async throws {
        try await Self.withServer { client, provider, now in
            let token = try await Self.token(provider, sub: "bad-email-\(UUID().uuidString)", email: email, nonce: "n1", now: now)
            let response = try await Self.post(client, ["id_token": token, "nonce": "n1"])
            #expect(response.status == .unauthorized)
            #expect(String(buffer: response.body).contains("email is malformed"))
        }
    }

    @Test(arguments: ["https://evil.example/cb", "https://app.example.com/cb/x", "http://localhost:8080/elsewhere"])
    func H21_aCodeForAnotherRedirectURIIsRefusedBeforeTheProviderIsAsked(redirect: String) async throws {
        try await Self.withServer { client, _, _ in
            let response = try await Self.post(client, ["code": "a-code-issued-elsewhere", "redirect_uri": redirect])
            #expect(response.status == .badRequest)
            #expect(String(buffer: response.body).contains("redirect_not_allowed"))
        }
    }
}
