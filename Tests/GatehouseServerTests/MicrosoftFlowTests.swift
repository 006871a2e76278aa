import Foundation
import GatehouseCore
import GatehouseTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LoginCore
import Testing

/// Microsoft's browser flow through the router, against a local issuer shaped as Entra ID's
/// `common` endpoint (discovery names `{tenantid}`; tokens carry `tid`): a token whose issuer
/// is its own tenant's signs in; one whose `iss` names another tenant is refused.
@Suite(.serialized) struct MicrosoftFlowTests {
    static let tenant = "72f988bf-86f1-41af-91ab-2d7cd011db47"

    /// Starts a flow, has the issuer answer it with `claims` (given the flow's nonce), and
    /// returns the callback's landing page.
    static func flow(
        _ client: any TestClientProtocol, _ issuer: LocalKeyProvider, now: Date, _ change: (inout LocalIDToken) -> Void
    ) async throws -> String {
        let start = try await client.execute(uri: "/auth/microsoft/start", method: .get)
        #expect(start.status == .found)
        let location = try #require(start.headers[.location].flatMap(URLComponents.init(string:)))
        let query = Dictionary(uniqueKeysWithValues: (location.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(location.path == "/authorize" && query["scope"] == "openid email profile" && query["code_challenge_method"] == "S256")
        let cookie = try #require(start.headers[values: .setCookie].first { $0.hasPrefix("__Host-gatehouse-oidc=") })
        var claims = LocalIDToken(iss: "\(issuer.issuer)/\(tenant)/v2.0", sub: "ms-\(UUID().uuidString.prefix(8))", aud: ["ms-web"], now: now)
        claims.nonce = query["nonce"]
        claims.tid = tenant
        change(&claims)
        let code = "code-\(UUID().uuidString)"
        issuer.issue(code: code, token: try await issuer.token(claims))
        let callback = try await client.execute(
            uri: "/auth/microsoft/callback?state=\(query["state"] ?? "")&code=\(code)", method: .get,
            headers: [.cookie: String(cookie.prefix { $0 != ";" })]
        )
        #expect(callback.status == .ok)
        return String(buffer: callback.body)
    }

    @Test func I38_microsoftSignsInWithItsTenantsIssuerAndRefusesAnotherTenants() async throws {
        let issuer = try await LocalKeyProvider.start()
        defer { issuer.stop() }
        let fixture = try await Fixture()
        let settings = try ExternalProviderSettings.microsoft(tenant: "common", authority: issuer.issuer, clientIDs: ["ms-web"], clientSecret: "s")
        try await fixture.test({
            $0.providers = [settings]
            $0.signInMethods = SignInMethods(methods: [.email, .microsoft])
            $0.publicURL = "http://localhost:8080"
        }) { client in
            let now = fixture.clock.now
            let signedIn = try await Self.flow(client, issuer, now: now) { _ in }
            #expect(signedIn.contains("url=/welcome"), "a new account goes to the profile step")
            let otherTenant = try await Self.flow(client, issuer, now: now) { $0.tid = "00000000-0000-0000-0000-000000000001" }
            #expect(otherTenant.contains("/login?signin=rejected&amp;provider=microsoft"))
            // Microsoft is not trusted for emails by default: a verified one never links to an existing account.
            let existing = try await Self.flow(client, issuer, now: now) { $0.email = Fixture.email }
            #expect(existing.contains("/login?signin=link_required&amp;provider=microsoft"))
        }
    }
}
