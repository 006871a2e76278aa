import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LoginCore
import Testing

/// Issue 20's web seam: CSRF is one middleware on every web form POST. Each of the eight forms
/// refuses a missing, an empty and a forged token with the same 403 `csrf`, before its handler
/// runs, and passes a matching one on to its handler.
@Suite struct CSRFMiddlewareTests {
    static let forms = ["/login", "/logout", "/login/phone", "/register", "/login/code", "/login/code/resend", "/welcome", "/home/google/unlink"]

    static func everyForm(_ configuration: inout GatehouseConfiguration) {
        configuration.signInMethods = SignInMethods(methods: [.email, .phone, .google])
        configuration.phone = PhonePolicy()
        configuration.google = try? ExternalProviderSettings(issuer: "http://127.0.0.1:9", clientIDs: ["web"])
        configuration.publicURL = "http://localhost:8080"
    }

    static func post(_ client: some TestClientProtocol, _ path: String, cookie: String?, body: String) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if let cookie { headers[.cookie] = "__Host-gatehouse-csrf=\(cookie)" }
        return try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    @Test(arguments: forms)
    func I20_aFormWithoutAMatchingTokenIsRefusedBeforeItsHandler(path: String) async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.everyForm) { client in
            for (cookie, body) in [(nil, "email=a%40b.co"), ("t0k3n", "email=a%40b.co"), ("t0k3n", "csrf="), ("t0k3n", "csrf=forged"), (nil, "csrf=t0k3n")] {
                let response = try await Self.post(client, path, cookie: cookie, body: body)
                #expect(response.status == .forbidden, "\(path) with cookie \(cookie ?? "none") and \(body)")
                #expect(try response.decoded(ErrorBody.self).error == "csrf")
            }
            let passed = try await Self.post(client, path, cookie: "t0k3n", body: "csrf=t0k3n")
            #expect(passed.status != .forbidden, "\(path): a matching token reaches the handler")
        }
    }
}
