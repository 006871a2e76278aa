import Crypto
import Foundation
import GatehouseClient
import GatehouseCore
import GatehouseTestSupport
import JWTKit
import LoginCore
import Testing

/// The SDK's Sign in with Apple over every transport, against the real server with a local
/// issuer standing in for Apple (its keys sign the identity tokens): the nonce goes hashed into
/// the sheet's request and raw to the server, the first name is kept, a dismissed sheet is
/// LoginCore's cancelled outcome, and a token for another nonce is refused.
@Suite(.serialized) struct AppleSignInClientTests {
    static let bundleID = "com.example.gatehouse"

    /// A stand-in for AuthenticationServices: the token the sheet would give for `sub`.
    struct SheetDouble: AppleIDProvider {
        let issuer: LocalKeyProvider
        let sub: String
        var name: String?
        var cancelled = false
        /// Signs a token for this nonce instead of the one asked for (a replayed token).
        var nonceOverride: String?

        func credential(nonce: String) async throws -> AppleIDCredential {
            if cancelled { throw AuthError.providerCancelled }
            let hashed = SHA256.hash(data: Data((nonceOverride ?? nonce).utf8)).map { String(format: "%02x", $0) }.joined()
            var claims = LocalIDToken(iss: issuer.issuer, sub: sub, aud: [AppleSignInClientTests.bundleID], nonce: hashed)
            claims.name = nil
            claims.emailVerifiedText = "true"
            return AppleIDCredential(identityToken: try await issuer.token(claims), name: name)
        }
    }

    static func withServer(_ body: (LocalKeyProvider, LoopbackServer) async throws -> Void) async throws {
        let issuer = try await LocalKeyProvider.start()
        defer { issuer.stop() }
        let key = AppleSigningKey(teamID: "TEAMID1234", keyID: "KEYID12345", privateKeyPEM: ES256PrivateKey().pemRepresentation)
        let apple = try ExternalProviderSettings.apple(servicesID: "com.example.web", bundleIDs: [bundleID], key: key, issuer: issuer.issuer)
        let server = try await LoopbackServer.start {
            $0.providers = [apple]
            $0.supabaseAnonKey = ClientFixture.anonKey
        }
        do {
            try await body(issuer, server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    static func client(_ server: LoopbackServer, _ api: BackendConfiguration.API) throws -> AuthClient {
        let backend = BackendConfiguration(api: api, anonKey: api == .supabase ? ClientFixture.anonKey : nil)
        return AuthClient(transport: try AuthTransports.make(backend, server: server.url), store: InMemorySessionStore())
    }

    @Test(arguments: [BackendConfiguration.API.rest, .graphql, .supabase])
    func I38_theSheetsTokenSignsInWithItsNonceAndTheFirstNameIsKept(api: BackendConfiguration.API) async throws {
        try await Self.withServer { issuer, server in
            let sub = "001234.\(UUID().uuidString.prefix(8).lowercased())"
            let client = try Self.client(server, api)
            let first = try await client.signInWithApple(using: SheetDouble(issuer: issuer, sub: sub, name: "Jane Appleseed"))
            #expect(first.session.user.email == "\(sub)@example.com")
            // REST says the account is new (the profile step); GraphQL's and GoTrue's answers do not carry it.
            if api == .rest { #expect(first.isNewUser) }
            // Supabase's id_token grant takes no name; REST and GraphQL keep the first one.
            #expect(first.session.user.name == (api == .supabase ? "" : "Jane Appleseed"))
            let again = try await Self.client(server, api).signInWithApple(using: SheetDouble(issuer: issuer, sub: sub))
            #expect(again.session.user.id == first.session.user.id && !again.isNewUser)
        }
    }

    @Test func I38_aDismissedSheetIsCancelledAndATokenForAnotherNonceIsRefused() async throws {
        try await Self.withServer { issuer, server in
            let client = try Self.client(server, .rest)
            await #expect(throws: AuthError.providerCancelled) {
                try await client.signInWithApple(using: SheetDouble(issuer: issuer, sub: "x", cancelled: true))
            }
            #expect(AuthClient.providerOutcome(.failure(AuthError.providerCancelled)) == .cancelled)
            do {
                try await client.signInWithApple(using: SheetDouble(issuer: issuer, sub: "y", nonceOverride: "someone else's"))
                Issue.record("a token for another nonce signed in")
            } catch {
                #expect(AuthClient.providerOutcome(.failure(error)) == .failed(.providerCodeRejected))
            }
            #expect(await client.currentSession == nil)
        }
    }
}
