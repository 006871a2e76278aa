import Crypto
import Foundation
import GatehouseCore
import GatehouseOIDC
import GatehouseTestSupport
import Logging
import Testing

/// The ID-token checks a real provider cannot be made to fail (the browser suite covers the
/// rest against oidc-provider-mock): `azp`, extra audiences, `iat` in the future, the leeway on
/// `exp`, the hosted domain, GoTrue's hashed nonce, the exact issuer and the size limit.
/// Tokens are signed by ``LocalKeyProvider``, an RS256 issuer on loopback.
@Suite(.serialized) struct IDTokenVerifierTests {
    static func withVerifier(hostedDomain: String? = nil, _ body: (IDTokenVerifier, LocalKeyProvider) async throws -> Void) async throws {
        let provider = try await LocalKeyProvider.start()
        defer { provider.stop() }
        let settings = try ExternalProviderSettings(issuer: provider.issuer, clientIDs: ["web", "ios"], hostedDomain: hostedDomain)
        try await body(IDTokenVerifier(provider: OIDCProviderClient(settings: settings, logger: Logger(label: "t")), settings: settings), provider)
    }

    static let now = Date()

    static func claims(_ provider: LocalKeyProvider, _ change: (inout LocalIDToken) -> Void = { _ in }) -> LocalIDToken {
        var claims = LocalIDToken(iss: provider.issuer, sub: "sub-1", aud: ["web"], now: now)
        change(&claims)
        return claims
    }

    @Test func aValidTokenGivesItsSubjectAndANormalisedVerifiedEmail() async throws {
        try await Self.withVerifier { verifier, provider in
            let token = try await provider.token(Self.claims(provider) { $0.email = "Ada.Lovelace@EXAMPLE.com"; $0.azp = "ios" })
            let identity = try await verifier.verify(token, nonce: .unchecked, now: Self.now)
            #expect(identity == ExternalIdentity(
                provider: .google, subject: "sub-1", email: "ada.lovelace@example.com", emailVerified: true, name: "Local sub-1", picture: nil
            ))
        }
    }

    @Test func azpOfAnotherClientOrAnExtraAudienceIsRefused() async throws {
        try await Self.withVerifier { verifier, provider in
            let foreignPresenter = try await provider.token(Self.claims(provider) { $0.azp = "someone-else" })
            await #expect(throws: ProviderFailure.invalidToken("azp is not one of our clients")) {
                try await verifier.verify(foreignPresenter, nonce: .unchecked, now: Self.now)
            }
            let extraAudience = try await provider.token(Self.claims(provider) { $0.aud = ["web", "someone-else"] })
            await #expect(throws: ProviderFailure.invalidToken("aud or sub is not acceptable")) {
                try await verifier.verify(extraAudience, nonce: .unchecked, now: Self.now)
            }
        }
    }

    @Test func timesAreCheckedWithSixtySecondsOfLeewayAndNoMore() async throws {
        try await Self.withVerifier { verifier, provider in
            let justExpired = try await provider.token(Self.claims(provider) { $0.exp = Self.now.addingTimeInterval(-30) })
            #expect(try await verifier.verify(justExpired, nonce: .unchecked, now: Self.now).subject == "sub-1")
            let expired = try await provider.token(Self.claims(provider) { $0.exp = Self.now.addingTimeInterval(-61) })
            await #expect(throws: ProviderFailure.invalidToken("token expired")) { try await verifier.verify(expired, nonce: .unchecked, now: Self.now) }
            let future = try await provider.token(Self.claims(provider) { $0.iat = Self.now.addingTimeInterval(120) })
            await #expect(throws: ProviderFailure.invalidToken("token issued in the future")) {
                try await verifier.verify(future, nonce: .unchecked, now: Self.now)
            }
        }
    }

    @Test func aHostedDomainRestrictionRefusesOtherAccounts() async throws {
        try await Self.withVerifier(hostedDomain: "corp.example") { verifier, provider in
            let personal = try await provider.token(Self.claims(provider))
            await #expect(throws: ProviderFailure.invalidToken("hd is not the allowed domain")) {
                try await verifier.verify(personal, nonce: .unchecked, now: Self.now)
            }
            let corporate = try await provider.token(Self.claims(provider) { $0.hd = "corp.example" })
            #expect(try await verifier.verify(corporate, nonce: .unchecked, now: Self.now).subject == "sub-1")
        }
    }

    @Test func goTruesNonceRuleWantsTheHashOfWhatTheAppSentOrNoNonceAtAll() async throws {
        try await Self.withVerifier { verifier, provider in
            let hashed = SHA256.hash(data: Data("raw".utf8)).map { String(format: "%02x", $0) }.joined()
            let token = try await provider.token(Self.claims(provider) { $0.nonce = hashed })
            #expect(try await verifier.verify(token, nonce: .hashed("raw"), now: Self.now).subject == "sub-1")
            await #expect(throws: ProviderFailure.invalidToken("nonce mismatch")) { try await verifier.verify(token, nonce: .hashed("other"), now: Self.now) }
            await #expect(throws: ProviderFailure.invalidToken("the token has a nonce but none was sent")) {
                try await verifier.verify(token, nonce: .hashed(nil), now: Self.now)
            }
            let raw = try await provider.token(Self.claims(provider) { $0.nonce = "raw" })
            await #expect(throws: ProviderFailure.invalidToken("nonce mismatch")) { try await verifier.verify(raw, nonce: .hashed("raw"), now: Self.now) }
            await #expect(throws: ProviderFailure.invalidToken("nonce mismatch")) { try await verifier.verify(raw, nonce: .exact("Raw"), now: Self.now) }
        }
    }

    @Test func theIssuerMustMatchExactlyAndHugeTokensAreRefusedUnread() async throws {
        try await Self.withVerifier { verifier, provider in
            let slashed = try await provider.token(Self.claims(provider) { $0.iss = provider.issuer + "/" })
            await #expect(throws: ProviderFailure.invalidToken("iss is not the provider")) {
                try await verifier.verify(slashed, nonce: .unchecked, now: Self.now)
            }
            let huge = String(repeating: "a", count: IDTokenVerifier.maximumBytes + 1)
            await #expect(throws: ProviderFailure.invalidToken("token too large")) { try await verifier.verify(huge, nonce: .unchecked, now: Self.now) }
            await #expect(throws: ProviderFailure.invalidToken("malformed token")) { try await verifier.verify("a.b", nonce: .unchecked, now: Self.now) }
        }
    }
}
