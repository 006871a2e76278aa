import Foundation
import GatehouseCore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 21, finding 1: `return_to` after a Google sign-in is a same-origin path or a 400,
/// and a refused one starts no flow. The attacker's exact inputs first.
@Suite struct ReturnPathTests {
    static let attacks = [
        "%2F%09%2Fevil.example%2Fx", "%2F%0A%2Fevil.example%2Fx", "%2F%0D%0A%2Fevil.example%2Fx", "%2F%2Fevil.example",
        "%2F%5Cevil.example", "https%3A%2F%2Fevil.example%2F", "%2F%7F%2Fevil.example", "%2F%20%2Fevil.example",
        "%2F%E2%80%AE%2Fevil.example", "evil.example", "%2F%00%2Fevil.example",
    ]

    @Test(arguments: [
        ("/\t/evil.example/x", false), ("/\n/evil.example/x", false), ("/\r\n/evil.example/x", false), ("//evil.example", false),
        ("/\\evil.example", false), ("https://evil.example/", false), ("/\u{7F}/x", false), ("/ /x", false), ("/\u{202E}x", false),
        ("", false), ("home", false), ("/home", true), ("/home?tab=security#devices", true), ("/a/b%2Fc", true),
    ])
    func H21_onlySameOriginPathsAreAccepted(path: String, accepted: Bool) {
        #expect((ReturnPath.validated(path, publicURL: "https://auth.example.com") != nil) == accepted)
    }

    @Test(arguments: attacks)
    func H21_refusedReturnToIs400WithJSONAndStartsNoFlow(encoded: String) async throws {
        let fixture = try await Fixture()
        try await fixture.test({
            // The provider is never reached: the path is refused before anything is fetched.
            $0.google = try? ExternalProviderSettings(issuer: "http://127.0.0.1:9", clientIDs: ["web"])
            $0.publicURL = "http://localhost:8080"
        }) { client in
            let response = try await client.execute(uri: "/auth/google/start?return_to=\(encoded)", method: .get)
            #expect(response.status == .badRequest)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(String(buffer: response.body).contains("redirect_not_allowed"))
            #expect(response.headers[values: .setCookie].allSatisfy { !$0.contains("gatehouse-oidc") }, "no flow cookie")
        }
        #expect(try await fixture.storedText(["one_time_secrets"]).isEmpty, "no flow stored")
    }

    @Test func H21_aSameOriginPathGoesOnToTheProvider() async throws {
        let fixture = try await Fixture()
        try await fixture.test({
            $0.google = try? ExternalProviderSettings(issuer: "http://127.0.0.1:9", clientIDs: ["web"])
            $0.publicURL = "http://localhost:8080"
        }) { client in
            // Accepted, so the server asks the provider, which is down: the login page says so.
            let response = try await client.execute(uri: "/auth/google/start?return_to=%2Fhome", method: .get)
            #expect(response.status == .ok)
            #expect(String(buffer: response.body).contains("/login?signin=failed&amp;provider=google"))
        }
    }
}
