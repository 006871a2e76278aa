import Foundation
import GatehouseCore
import GatehouseServer
import GatehouseTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 37 on the web pages, through the real router with the fixture's clock: an `aal1`
/// session of an enrolled account sees `/login/mfa` instead of Home, the right code opens Home,
/// and ten minutes later a sensitive action on Home sends the browser to answer it again.
@Suite struct SecondFactorWebTests {
    static let cookieName = WebSessionTests.cookieName

    static func get(_ client: some TestClientProtocol, _ uri: String, session: String) async throws -> TestResponse {
        try await client.execute(uri: uri, method: .get, headers: [.cookie: "\(cookieName)=\(session)"])
    }

    static func post(_ client: some TestClientProtocol, _ uri: String, _ body: String, session: String) async throws -> TestResponse {
        let headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .cookie: "__Host-gatehouse-csrf=t0k3n; \(cookieName)=\(session)"]
        return try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body + "&csrf=t0k3n"))
    }

    @Test func homeWaitsForTheSecondFactorAndAStaleSessionIsAskedAgainBeforeASensitiveAction() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test({ $0.mfa = MFAPolicy() }) { client in
            let enrolled = try await StepUpRouteTests.enrol(client, clock: fixture.clock)
            let aal1 = try await WebSessionTests.webSignIn(client)
            let home = try await Self.get(client, "/home", session: aal1)
            #expect(home.status == .seeOther && home.headers[.location] == "/login/mfa")

            let page = String(buffer: try await Self.get(client, "/login/mfa", session: aal1).body)
            let challenge = try #require(page.firstMatch(of: /name="challenge" value="([^"]+)"/)?.1)
            let code = enrolled.totp.code(forStep: enrolled.totp.step(at: fixture.clock.now) + 1)
            let answered = try await Self.post(client, "/login/mfa", "challenge=\(challenge)&method=totp&code=\(code)", session: aal1)
            #expect(answered.status == .seeOther && answered.headers[.location] == "/home")
            let cookie = try #require(answered.headers[values: .setCookie].first { $0.hasPrefix(Self.cookieName + "=") })
            let aal2 = String(cookie.dropFirst(Self.cookieName.count + 1).prefix { $0 != ";" })
            #expect(try await Self.get(client, "/home", session: aal2).status == .ok)
            #expect(try await Self.get(client, "/home", session: aal1).headers[.location]?.hasPrefix("/login") == true, "the aal1 session was replaced")

            let other = try await client.grant()
            let sessions = try JSONSerialization.jsonObject(
                with: Data(buffer: try await client.execute(uri: "/api/sessions", method: .get, headers: [.authorization: "Bearer \(other.accessToken)"]).body)
            ) as? [String: Any]
            let otherID = try #require(((sessions?["sessions"] as? [[String: Any]])?.first { $0["current"] as? Bool == true })?["id"] as? String)
            fixture.clock.advance(by: 11 * 60)
            let signOut = try await Self.post(client, "/home/devices/\(otherID)/sign-out", "", session: aal2)
            #expect(signOut.status == .seeOther && signOut.headers[.location] == "/login/mfa?confirm=1")
            let regenerate = try await Self.post(client, "/home/mfa/recovery-codes", "", session: aal2)
            #expect(regenerate.status == .seeOther && regenerate.headers[.location] == "/login/mfa?confirm=1")
            #expect(try await Self.get(client, "/login/mfa?confirm=1", session: aal2).status == .ok)
        }
    }
}
