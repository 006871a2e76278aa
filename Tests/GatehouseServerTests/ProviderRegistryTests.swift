import Foundation
import JWTKit
import GatehouseCore
import GatehouseOIDC
import GatehouseServer
import GatehouseTestSupport
import LoginCore
import SupabaseSurface
import Logging
import Testing

/// Issue 38's registry: what an app file's `providers` block accepts, Microsoft's issuer rule,
/// ES256 ID tokens, Apple's string `email_verified`, and every refusal naming its check.
@Suite(.serialized) struct ProviderRegistryTests {
    static let now = Date()

    static func withMicrosoft(
        tenant: String, _ body: (IDTokenVerifier, LocalKeyProvider) async throws -> Void
    ) async throws {
        let provider = try await LocalKeyProvider.start()
        defer { provider.stop() }
        let settings = try ExternalProviderSettings.microsoft(tenant: tenant, authority: provider.issuer, clientIDs: ["ms-web"])
        try await body(IDTokenVerifier(provider: OIDCProviderClient(settings: settings, logger: Logger(label: "t")), settings: settings), provider)
    }

    @Test func I38_microsoftsMultiTenantIssuerMustNameTheTokensOwnTenant() async throws {
        try await Self.withMicrosoft(tenant: "common") { verifier, provider in
            let tenant = "72f988bf-86f1-41af-91ab-2d7cd011db47"
            let own = try await provider.token(LocalIDToken(iss: "\(provider.issuer)/\(tenant)/v2.0", sub: "ms-1", aud: ["ms-web"], now: Self.now).with { $0.tid = tenant })
            let identity = try await verifier.verify(own, nonce: .unchecked, now: Self.now)
            #expect(identity.provider == .microsoft && identity.subject == "ms-1")
            let other = try await provider.token(LocalIDToken(iss: "\(provider.issuer)/\(tenant)/v2.0", sub: "ms-1", aud: ["ms-web"], now: Self.now).with {
                $0.tid = "00000000-0000-0000-0000-000000000001"
            })
            await #expect(throws: ProviderFailure.invalidToken("iss is not the tenant's")) { try await verifier.verify(other, nonce: .unchecked, now: Self.now) }
            let noTenant = try await provider.token(LocalIDToken(iss: "\(provider.issuer)/\(tenant)/v2.0", sub: "ms-1", aud: ["ms-web"], now: Self.now))
            await #expect(throws: ProviderFailure.invalidToken("iss is not the tenant's")) { try await verifier.verify(noTenant, nonce: .unchecked, now: Self.now) }
        }
    }

    @Test func I38_consumersTakesOnlyPersonalAccountsAndOrganizationsNone() throws {
        let template = "https://login.microsoftonline.com/{tenantid}/v2.0"
        let personal = ExternalProviderSettings.microsoftConsumersTenant
        let work = "72f988bf-86f1-41af-91ab-2d7cd011db47"
        let consumers = try ExternalProviderSettings.microsoft(tenant: "consumers", clientIDs: ["a"])
        #expect(consumers.acceptsMicrosoftIssuer("https://login.microsoftonline.com/\(personal)/v2.0", tenantID: personal, discoveredIssuer: template))
        #expect(!consumers.acceptsMicrosoftIssuer("https://login.microsoftonline.com/\(work)/v2.0", tenantID: work, discoveredIssuer: template))
        let organizations = try ExternalProviderSettings.microsoft(tenant: "organizations", clientIDs: ["a"])
        #expect(organizations.acceptsMicrosoftIssuer("https://login.microsoftonline.com/\(work)/v2.0", tenantID: work, discoveredIssuer: template))
        #expect(!organizations.acceptsMicrosoftIssuer("https://login.microsoftonline.com/\(personal)/v2.0", tenantID: personal, discoveredIssuer: template))
        // A single tenant's discovery names its own issuer: exactly that, whatever tid says.
        let single = try ExternalProviderSettings.microsoft(tenant: work, clientIDs: ["a"])
        let exact = "https://login.microsoftonline.com/\(work)/v2.0"
        #expect(single.acceptsMicrosoftIssuer(exact, tenantID: work, discoveredIssuer: exact))
        #expect(!single.acceptsMicrosoftIssuer("https://login.microsoftonline.com/\(personal)/v2.0", tenantID: personal, discoveredIssuer: exact))
        #expect(!single.acceptsMicrosoftIssuer(exact.replacingOccurrences(of: "{", with: ""), tenantID: "{tenantid}", discoveredIssuer: template))
        #expect(throws: ExternalProviderError.self) { try ExternalProviderSettings.microsoft(tenant: "a/b", clientIDs: ["a"]) }
    }

    @Test func I38_es256TokensVerifyAndApplesStringEmailVerifiedIsRead() async throws {
        let provider = try await LocalKeyProvider.start()
        defer { provider.stop() }
        let settings = try ExternalProviderSettings(
            id: SignInMethods.Method(rawValue: "acme-sso"), kind: .oidc, issuer: provider.issuer, clientIDs: ["web"]
        )
        let verifier = IDTokenVerifier(provider: OIDCProviderClient(settings: settings, logger: Logger(label: "t")), settings: settings)
        var claims = LocalIDToken(iss: provider.issuer, sub: "ec-1", aud: ["web"], now: Self.now)
        claims.emailVerifiedText = "true"
        let identity = try await verifier.verify(try await provider.token(claims, kid: LocalKeyProvider.ecKid), nonce: .unchecked, now: Self.now)
        #expect(identity.provider == IdentityProvider(rawValue: "oidc:acme-sso") && identity.emailVerified)
        claims.emailVerifiedText = "false"
        #expect(try await verifier.verify(try await provider.token(claims), nonce: .unchecked, now: Self.now).emailVerified == false)
        claims.aud = ["someone-else"]
        await #expect(throws: ProviderFailure.invalidToken("aud or sub is not acceptable")) {
            try await verifier.verify(try await provider.token(claims, kid: LocalKeyProvider.ecKid), nonce: .unchecked, now: Self.now)
        }
    }

    static func app(_ json: String) throws -> AppConfiguration {
        try JSONDecoder().decode(AppConfiguration.self, from: Data(json.utf8))
    }

    @Test func I38_theAppFilesProvidersBecomeTheRegistryInTheScreensOrderWithSecretsFromTheEnvironment() throws {
        let app = try Self.app("""
            {"signIn": {"methods": ["acme-sso", "email", "github", "microsoft"]},
             "providers": {"github": {"clientId": "gh", "baseURL": "https://github.example.com"},
                           "microsoft": {"clientId": "ms", "tenant": "organizations"},
                           "acme-sso": {"type": "oidc", "issuer": "https://sso.acme.example", "clientIds": ["web", "ios"], "label": "Acme SSO"}}}
            """)
        let secrets = ["GATEHOUSE_PROVIDER_GITHUB_CLIENT_SECRET": "g", "GATEHOUSE_PROVIDER_MICROSOFT_CLIENT_SECRET": "m",
                       "GATEHOUSE_PROVIDER_ACME_SSO_CLIENT_SECRET": "a"]
        let settings = try AppProviders.settings(app, redirectAllowList: [], environment: secrets)
        #expect(settings.map(\.id.rawValue) == ["acme-sso", "github", "microsoft"])
        #expect(settings.map(\.kind) == [.oidc, .github, .microsoft])
        #expect(settings.map(\.clientSecret) == ["a", "g", "m"])
        #expect(settings[0].label == "Acme SSO" && settings[0].clientIDs == ["web", "ios"] && !settings[0].trustEmailVerified)
        #expect(settings[1].issuer == "https://github.example.com" && settings[1].trustEmailVerified)
        #expect(settings[2].issuer == "https://login.microsoftonline.com/organizations/v2.0" && !settings[2].trustEmailVerified)
        #expect(settings[0].identityProvider == IdentityProvider(rawValue: "oidc:acme-sso"))
    }

    @Test func I38_aProviderThatCannotWorkIsRefusedAtStartInOneLine() throws {
        let github = #"{"signIn": {"methods": ["github"]}, "providers": {"github": {"clientId": "gh"}}}"#
        #expect(throws: (any Error).self) { try AppProviders.settings(try Self.app(github), redirectAllowList: [], environment: [:]) }
        do {
            _ = try AppProviders.settings(try Self.app(github), redirectAllowList: [], environment: [:])
        } catch {
            #expect("\(error)".contains("GATEHOUSE_PROVIDER_GITHUB_CLIENT_SECRET"))
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)")
        try "from-a-file\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let fromFile = try AppProviders.settings(
            try Self.app(github), redirectAllowList: [], environment: ["GATEHOUSE_PROVIDER_GITHUB_CLIENT_SECRET_FILE": file.path]
        )
        #expect(fromFile.first?.clientSecret == "from-a-file")
        let unlisted = #"{"signIn": {"methods": ["email"]}, "providers": {"github": {"clientId": "gh"}}}"#
        #expect(throws: (any Error).self) { try AppProviders.settings(try Self.app(unlisted), redirectAllowList: [], environment: [:]) }
        let untyped = #"{"signIn": {"methods": ["acme"]}, "providers": {"acme": {"clientId": "a", "issuer": "https://a.example"}}}"#
        #expect(throws: (any Error).self) { try AppProviders.settings(try Self.app(untyped), redirectAllowList: [], environment: [:]) }
        let retyped = #"{"signIn": {"methods": ["github"]}, "providers": {"github": {"type": "oidc", "clientId": "a"}}}"#
        #expect(throws: (any Error).self) { try AppProviders.settings(try Self.app(retyped), redirectAllowList: [], environment: [:]) }
        let plainHTTP = #"{"signIn": {"methods": ["acme"]}, "providers": {"acme": {"type": "oidc", "clientId": "a", "issuer": "http://sso.example"}}}"#
        #expect(throws: (any Error).self) {
            try AppProviders.settings(try Self.app(plainHTTP), redirectAllowList: [], environment: ["GATEHOUSE_PROVIDER_ACME_CLIENT_SECRET": "s"])
        }
        // Decoding itself refuses a listed provider without settings, an unknown key, and a bad id.
        #expect(throws: (any Error).self) { try Self.app(#"{"signIn": {"methods": ["acme"]}}"#) }
        #expect(try Self.app(#"{"signIn": {"methods": ["apple", "email"]}}"#).providers.isEmpty, "a built-in may wait for its settings")
        #expect(throws: (any Error).self) { try Self.app(#"{"signIn": {"methods": ["github"]}, "providers": {"github": {"clientId": "a", "secret": "x"}}}"#) }
        #expect(throws: (any Error).self) { try Self.app(#"{"signIn": {"methods": ["Git Hub"]}}"#) }
    }
}

/// Apple's client secret: ES256 with the team's key, the claims Apple checks, made once and
/// reused until a day before it expires, then renewed.
@Suite struct AppleClientSecretTests {
    static let key = AppleSigningKey(teamID: "TEAMID1234", keyID: "KEYID12345", privateKeyPEM: ES256PrivateKey().pemRepresentation)

    @Test func I38_theSecretIsSignedWithTheTeamKeyForAppleAndRenewedOnlyNearItsEnd() async throws {
        let maker = try await AppleClientSecret(key: Self.key, servicesID: "com.example.web", audience: "https://appleid.apple.com")
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let first = try await maker.current(now: start)
        let verifier = JWTKeyCollection()
        await verifier.add(ecdsa: try ES256PrivateKey(pem: Self.key.privateKeyPEM).publicKey, kid: JWKIdentifier(string: "KEYID12345"))
        let claims = try await verifier.verify(first, as: AppleClientSecretClaims.self)
        #expect(claims.iss.value == "TEAMID1234" && claims.sub.value == "com.example.web")
        #expect(claims.aud.value == ["https://appleid.apple.com"])
        #expect(claims.exp.value.timeIntervalSince(claims.iat.value) == AppleClientSecret.lifetime)
        #expect(AppleClientSecret.lifetime <= 182 * 24 * 3600, "Apple's limit is six months")
        let header = try JSONDecoder().decode([String: String].self, from: Data(base64URLEncoded: String(first.split(separator: ".")[0]))!)
        #expect(header["alg"] == "ES256" && header["kid"] == "KEYID12345")
        let later = start.addingTimeInterval(AppleClientSecret.lifetime - AppleClientSecret.renewal - 60)
        #expect(try await maker.current(now: later) == first, "reused while more than a day is left")
        let renewed = try await maker.current(now: start.addingTimeInterval(AppleClientSecret.lifetime - AppleClientSecret.renewal + 60))
        #expect(renewed != first)
    }

    @Test func I38_appleSettingsRefuseABadKeyOrIDs() async throws {
        await #expect(throws: ExternalProviderError.self) {
            try await AppleClientSecret(
                key: AppleSigningKey(teamID: "TEAMID1234", keyID: "KEYID12345", privateKeyPEM: "not a key"), servicesID: "a", audience: "b"
            )
        }
        #expect(throws: ExternalProviderError.self) {
            try ExternalProviderSettings.apple(
                servicesID: "web", key: AppleSigningKey(teamID: "short", keyID: "KEYID12345", privateKeyPEM: Self.key.privateKeyPEM)
            )
        }
        let settings = try ExternalProviderSettings.apple(servicesID: "web", bundleIDs: ["app"], key: Self.key)
        #expect(settings.clientIDs == ["web", "app"] && settings.issuer == "https://appleid.apple.com" && settings.trustEmailVerified)
        #expect(settings.label == "Apple" && settings.identityProvider == .apple)
    }
}

extension LocalIDToken {
    func with(_ change: (inout LocalIDToken) -> Void) -> LocalIDToken {
        var copy = self
        change(&copy)
        return copy
    }
}

/// GoTrue's names for providers: Microsoft is `azure`; the others are their ids; nothing else
/// reaches the registry.
@Suite struct GoTrueProviderNameTests {
    @Test func I38_azureIsMicrosoftAndOtherNamesAreTheirIds() throws {
        #expect(try GoTrueController.provider(named: "azure") == .microsoft)
        #expect(try GoTrueController.provider(named: "github") == .github)
        #expect(try GoTrueController.provider(named: "keycloak") == SignInMethods.Method(rawValue: "keycloak"))
        for bad in [nil, "", "email", "phone", "Git Hub", String(repeating: "a", count: 33)] {
            #expect(throws: GoTrueError.self) { try GoTrueController.provider(named: bad) }
        }
    }
}
