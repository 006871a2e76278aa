import Foundation
import GatehouseCore
import GatehouseOIDC
import Testing

/// What a provider configuration accepts: issuers, client ids, leeway and redirect targets
/// (exact, except loopback on any port, RFC 8252 §7.3).
@Suite struct ExternalProviderSettingsTests {
    @Test func issuerMustBeHTTPSExceptOnLoopback() throws {
        #expect(try ExternalProviderSettings(issuer: "https://accounts.google.com", clientIDs: ["web"]).issuer == "https://accounts.google.com")
        #expect(try ExternalProviderSettings(issuer: "http://127.0.0.1:9400/", clientIDs: ["web"]).issuer == "http://127.0.0.1:9400")
        #expect(throws: ExternalProviderError.self) { try ExternalProviderSettings(issuer: "http://accounts.google.com", clientIDs: ["web"]) }
        #expect(throws: ExternalProviderError.self) { try ExternalProviderSettings(issuer: "accounts.google.com", clientIDs: ["web"]) }
        #expect(throws: ExternalProviderError.self) { try ExternalProviderSettings(clientIDs: []) }
        #expect(throws: ExternalProviderError.self) { try ExternalProviderSettings(clientIDs: [""]) }
        #expect(throws: ExternalProviderError.self) { try ExternalProviderSettings(clientIDs: ["web"], leeway: 61) }
    }

    @Test func googleIsAcceptedUnderBothOfItsIssuerSpellingsAndOthersUnderOne() throws {
        #expect(try ExternalProviderSettings(clientIDs: ["web"]).acceptedIssuers == ["https://accounts.google.com", "accounts.google.com"])
        #expect(try ExternalProviderSettings(issuer: "https://id.example.com", clientIDs: ["web"]).acceptedIssuers == ["https://id.example.com"])
    }

    @Test func redirectTargetsMatchExactlyAndLoopbackMatchesAnyPort() throws {
        let settings = try ExternalProviderSettings(
            clientIDs: ["web"], redirectAllowList: ["https://app.example.com/auth/done", "http://127.0.0.1/callback"]
        )
        #expect(settings.allowsRedirect(to: "https://app.example.com/auth/done"))
        #expect(!settings.allowsRedirect(to: "https://app.example.com/auth/done/"))
        #expect(!settings.allowsRedirect(to: "https://app.example.com/auth/done#x"))
        #expect(!settings.allowsRedirect(to: "https://evil.example.com/auth/done"))
        #expect(!settings.allowsRedirect(to: "https://app.example.com.evil.com/auth/done"))
        #expect(settings.allowsRedirect(to: "http://127.0.0.1:49152/callback"))
        #expect(settings.allowsRedirect(to: "http://127.0.0.1/callback"))
        #expect(!settings.allowsRedirect(to: "http://127.0.0.1:49152/other"))
        #expect(!settings.allowsRedirect(to: "https://127.0.0.1:49152/callback"))
        #expect(!settings.allowsRedirect(to: "http://127.0.0.1:49152/callback?next=https://evil.example.com"))
    }

    @Test func theCallbackIsThePublicURLsAndFlowSecretsAreDerivedPerState() throws {
        let settings = try ExternalProviderSettings(issuer: "http://127.0.0.1:9400", clientIDs: ["web", "ios"])
        let google = ConfiguredProvider(
            settings: settings, provider: OpenIDConnectProvider(settings: settings, logger: .init(label: "t")), flowKey: .init(size: .bits256),
            publicURL: "https://auth.example.com/"
        )
        #expect(google.callbackURL == "https://auth.example.com/auth/google/callback")
        #expect(google.webClientID == "web")
        #expect(google.nonce(forState: "a") != google.nonce(forState: "b"))
        #expect(google.nonce(forState: "a") != google.codeVerifier(forState: "a"))
        #expect(google.codeVerifier(forState: "a").count == 43)
        let url = try #require(URLComponents(string: google.authorizationURL(endpoint: "http://127.0.0.1:9400/authorize", state: "a")))
        let query = Dictionary(uniqueKeysWithValues: (url.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(query["code_challenge"] == ConfiguredProvider.challenge(for: google.codeVerifier(forState: "a")))
        #expect(query["code_challenge_method"] == "S256" && query["nonce"] == google.nonce(forState: "a") && query["state"] == "a")
        #expect(query["redirect_uri"] == "https://auth.example.com/auth/google/callback" && query["client_id"] == "web")
    }
}
