import Crypto
import Foundation
import GatehouseClient
import GatehouseCore
import GatehouseTestSupport
import LoginCore
import Testing

/// The SDK's Sign in with Google against the real server and a real OpenID provider
/// (oidc-provider-mock 0.4.8): seed 002's code over REST and GraphQL, an ID token over
/// Supabase's id_token grant, and refusals as LoginCore's provider outcomes.
@Suite(.enabled(if: OIDCMockProvider.python != nil, "needs OIDC_MOCK_PYTHON (scripts/oidc-provider.sh)"), .serialized)
struct GoogleSignInClientTests {
    static let web = "gatehouse-web.apps.example", ios = "gatehouse-ios.apps.example"
    static let redirect = "http://127.0.0.1:9/callback"

    static func withProvider(_ body: (OIDCMockProvider, LoopbackServer) async throws -> Void) async throws {
        let provider = try await OIDCMockProvider(python: try #require(OIDCMockProvider.python))
        let issuer = provider.url
        do {
            // The app's redirect is on the allow-list: codes for any other redirect_uri are refused (issue 21).
            let settings = try ExternalProviderSettings(issuer: issuer, clientIDs: [web, ios], clientSecret: "secret", redirectAllowList: [redirect])
            let server = try await LoopbackServer.start {
                $0.google = settings
                $0.supabaseAnonKey = ClientFixture.anonKey
            }
            do {
                try await body(provider, server)
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
        } catch {
            await provider.stop()
            throw error
        }
        await provider.stop()
    }

    static func client(_ server: LoopbackServer, _ api: BackendConfiguration.API, store: any SessionStore = InMemorySessionStore()) throws -> AuthClient {
        let backend = BackendConfiguration(api: api, anonKey: api == .supabase ? ClientFixture.anonKey : nil)
        return AuthClient(transport: try AuthTransports.make(backend, server: server.url), store: store)
    }

    @Test(arguments: [BackendConfiguration.API.rest, .graphql])
    func G002_signInWithGoogleCodeStoresTheSessionAndSaysWhetherTheAccountIsNew(api: BackendConfiguration.API) async throws {
        try await Self.withProvider { provider, server in
            let sub = "sdk-\(UUID().uuidString.prefix(8).lowercased())"
            try await provider.putUser(sub: sub, email: "\(sub)@example.com", name: "Sam Dee")
            let store = InMemorySessionStore()
            let client = try Self.client(server, api, store: store)
            let code = try await provider.code(sub: sub, clientID: Self.web, nonce: "n-1", redirectURI: Self.redirect)
            let signIn = try await client.signInWithGoogle(code: code, redirectURI: Self.redirect)
            #expect(signIn.session.user.email == "\(sub)@example.com")
            #expect(signIn.session.user.name == "Sam Dee")
            #expect(signIn.isNewUser == (api == .rest))
            #expect(await client.currentSession == signIn.session)
            let restored = try Self.client(server, api, store: store)
            guard case .signedIn(let session) = await restored.restore() else {
                Issue.record("the stored Google session was not restored")
                return
            }
            #expect(session.user.email == "\(sub)@example.com")
            let again = try await client.signInWithGoogle(
                code: try await provider.code(sub: sub, clientID: Self.web, nonce: "n-2", redirectURI: Self.redirect), redirectURI: Self.redirect
            )
            #expect(!again.isNewUser)
            #expect(again.session.user.id == signIn.session.user.id)
        }
    }

    @Test func G004_signInWithGoogleIDTokenOverSupabaseUsesGoTruesHashedNonce() async throws {
        try await Self.withProvider { provider, server in
            let sub = "sdk-\(UUID().uuidString.prefix(8).lowercased())"
            try await provider.putUser(sub: sub, email: "\(sub)@example.com", name: "Ida Token")
            let client = try Self.client(server, .supabase)
            let raw = "raw-nonce-\(sub)"
            let token = try await provider.idToken(sub: sub, clientID: Self.ios, nonce: Self.sha256Hex(raw))
            let signIn = try await client.signInWithGoogle(idToken: token, nonce: raw)
            #expect(signIn.session.user.email == "\(sub)@example.com")
            let replayedWithAnotherNonce = try await provider.idToken(sub: sub, clientID: Self.ios, nonce: Self.sha256Hex(raw))
            let refused: Result<GoogleSignIn, any Error>
            do {
                refused = .success(try await client.signInWithGoogle(idToken: replayedWithAnotherNonce, nonce: "other"))
            } catch {
                refused = .failure(error)
            }
            #expect(AuthClient.providerOutcome(refused) == .failed(.providerCodeRejected))
        }
    }

    @Test(arguments: [BackendConfiguration.API.rest, .graphql])
    func G002_aCodeTheProviderRefusesIsAuthenticationFailedForTheButton(api: BackendConfiguration.API) async throws {
        try await Self.withProvider { _, server in
            let client = try Self.client(server, api)
            let result: Result<GoogleSignIn, any Error>
            do {
                result = .success(try await client.signInWithGoogle(code: "garbage-code", redirectURI: Self.redirect))
            } catch {
                result = .failure(error)
            }
            #expect(AuthClient.providerOutcome(result) == .failed(.providerCodeRejected))
            var state = ProviderButtonState()
            let peated = try LoginConfiguration.load(from: Self.examples.appendingPathComponent("002-peated/gatehouse.json"))
            _ = ProviderButton(configuration: peated).send(.finished(AuthClient.providerOutcome(result)), to: &state)
            #expect(state.error == "Authentication failed. Please try again.")
            #expect(await client.currentSession == nil)
        }
    }

    @Test func G002_supabaseCannotCarryAnAppsCodeAndSaysSo() async throws {
        try await Self.withProvider { _, server in
            let client = try Self.client(server, .supabase)
            await #expect(throws: AuthError.server(status: 0, code: "unsupported", message: "Supabase Auth cannot carry AuthGrant.googleCode(<redacted>)")) {
                try await client.signInWithGoogle(code: "any")
            }
        }
    }

    static func sha256Hex(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples")
}
