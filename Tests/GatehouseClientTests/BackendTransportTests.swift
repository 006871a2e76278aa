import Foundation
import GatehouseClient
import GatehouseCore
import GatehouseDelivery
import LoginCore
import Testing

/// The SDK over each backend an app file can name: seed 000's REST, seed 001's GraphQL and
/// seed 003's Supabase Auth, each against those routes of the real server on loopback.
@Suite struct BackendTransportTests {
    static let apis = BackendConfiguration.API.allCases

    @Test(arguments: apis) func FR004_FR006_signInReturnsTheUserWithFirstAndLastName(api: BackendConfiguration.API) async throws {
        let fixture = try await ClientFixture()
        let session = try await fixture.client(transport: try fixture.transport(api))
            .signIn(email: " User@Example.com", password: ClientFixture.password)
        #expect(session.user.email == ClientFixture.email)
        #expect(session.user.firstName == "Demo" && session.user.lastName == "User" && session.user.name == "Demo User")
        #expect(session.accessToken.split(separator: ".").count == 3)
        #expect(session.expiresAt == fixture.clock.now.addingTimeInterval(15 * 60))
    }

    @Test(arguments: apis) func aThrottledSignInIsRateLimitedWithTheServersWait(api: BackendConfiguration.API) async throws {
        var abuse = AbusePolicy()
        abuse.backoffThreshold = 1
        let fixture = try await ClientFixture(abuse: abuse)
        let client = try fixture.client(transport: try fixture.transport(api))
        await #expect(throws: AuthError.invalidCredentials) { try await client.signIn(email: ClientFixture.email, password: "wrong-password") }
        await #expect(throws: AuthError.rateLimited(retryAfter: 1)) {
            try await client.signIn(email: ClientFixture.email, password: ClientFixture.password)
        }
        let event = await client.perform(.authenticate(Credentials(email: ClientFixture.email, password: ClientFixture.password)))
        #expect(event == .loginResponse(.failure(.rateLimited(retryAfter: 1))), "LoginCore gets the wait for its countdown")
        #expect(await client.currentSession == nil)
    }

    @Test(arguments: apis) func wrongPasswordIsInvalidCredentialsWithTheScreensCopy(api: BackendConfiguration.API) async throws {
        let fixture = try await ClientFixture()
        let client = try fixture.client(transport: try fixture.transport(api))
        for email in [ClientFixture.email, "nobody@example.com"] {
            await #expect(throws: AuthError.invalidCredentials) { try await client.signIn(email: email, password: "wrong-password") }
        }
        #expect(AuthError.invalidCredentials.loginFailure == .invalidCredentials)
        #expect(await client.currentSession == nil)
    }

    @Test(arguments: apis) func seed003_restoreValidatesTheStoredSessionWithTheServer(api: BackendConfiguration.API) async throws {
        let fixture = try await ClientFixture()
        let stored = try await fixture.client(transport: try fixture.transport(api))
            .signIn(email: ClientFixture.email, password: ClientFixture.password)
        let transport = CountingTransport(try fixture.transport(api))
        let relaunched = try fixture.client(store: InMemorySessionStore(stored), transport: transport)
        #expect(await relaunched.restore() == .signedIn(stored))
        #expect(transport.userRequests == 1)
    }

    @Test(arguments: apis) func US3_1_anExpiredAccessTokenIsRefreshedOnceAndRotates(api: BackendConfiguration.API) async throws {
        let fixture = try await ClientFixture()
        let transport = CountingTransport(try fixture.transport(api))
        let client = try fixture.client(transport: transport)
        let first = try await client.signIn(email: ClientFixture.email, password: ClientFixture.password)
        fixture.clock.advance(by: 16 * 60)
        async let a = client.session()
        async let b = client.session()
        let (one, two) = try await (a, b)
        #expect(transport.refreshes == 1)
        #expect(one == two && one.refreshToken != first.refreshToken)
        #expect(try await transport.user(accessToken: one.accessToken, timeout: nil) == first.user)
    }

    @Test(arguments: apis) func reusedRefreshTokenEndsTheSessionAsRevoked(api: BackendConfiguration.API) async throws {
        let fixture = try await ClientFixture(grace: 0)
        let transport = try fixture.transport(api)
        let client = try fixture.client(transport: transport)
        let stolen = try await client.signIn(email: ClientFixture.email, password: ClientFixture.password).refreshToken
        fixture.clock.advance(by: 16 * 60)
        _ = try await client.session()
        fixture.clock.advance(by: 1)
        do {
            _ = try await transport.token(.refreshToken(stolen))
            Issue.record("a reused refresh token was accepted")
        } catch AuthError.server(_, let code, _) {
            #expect(code == .refreshTokenReused)
        }
        fixture.clock.advance(by: 16 * 60)
        await #expect(throws: AuthError.sessionEnded(.revoked)) { try await client.session() }
        #expect(await client.currentSession == nil)
    }

    @Test(arguments: apis) func US3_4_signOutOthersKeepsThisDeviceAndEndsTheOther(api: BackendConfiguration.API) async throws {
        let fixture = try await ClientFixture()
        let transport = try fixture.transport(api)
        let phone = try fixture.client(transport: transport)
        let tablet = try fixture.client(transport: transport)
        let kept = try await phone.signIn(email: ClientFixture.email, password: ClientFixture.password)
        let ended = try await tablet.signIn(email: ClientFixture.email, password: ClientFixture.password)
        try await phone.signOut(scope: .others)
        #expect(try await transport.user(accessToken: kept.accessToken, timeout: nil).email == ClientFixture.email)
        await #expect(throws: AuthError.server(status: 401, code: .invalidToken, message: "")) {
            do {
                _ = try await transport.user(accessToken: ended.accessToken, timeout: nil)
            } catch AuthError.server(let status, let code, _) {
                throw AuthError.server(status: status, code: code, message: "")
            }
        }
        try await phone.signOut(scope: .local)
        #expect(await phone.currentSession == nil)
        await #expect(throws: AuthError.self) { try await transport.user(accessToken: kept.accessToken, timeout: nil) }
    }

    @Test func examplesSelectTheirBackends() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let server = URL(string: "http://127.0.0.1:8080")!
        let expected: [(String, String)] = [
            ("000-generic", "RESTTransport"), ("001-projects", "GraphQLTransport"), ("003-peer-mentor", "SupabaseTransport"),
        ]
        for (example, transport) in expected {
            let app = try AppConfiguration.load(from: root.appendingPathComponent("examples/\(example)/gatehouse.json"))
            #expect("\(type(of: try AuthTransports.make(app.backend, server: server)))" == transport, "\(example)")
        }
        let supabase = try #require(try AuthTransports.make(
            try AppConfiguration.load(from: root.appendingPathComponent("examples/003-peer-mentor/gatehouse.json")).backend, server: server
        ) as? SupabaseTransport)
        #expect(supabase.authURL.absoluteString == "http://127.0.0.1:8080/auth/v1")
    }
}
