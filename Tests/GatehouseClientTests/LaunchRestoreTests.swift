import Foundation
import GatehouseClient
import GatehouseTestSupport
import LoginCore
import Testing

/// Launch restore (seed 003, seed 001 US1.4/US3.3), sign-out and the kill-during-refresh case.
@Suite struct LaunchRestoreTests {
    @Test func US1_4_aNewClientWithTheSameStoreRestoresTheSession() async throws {
        let fixture = try await ClientFixture()
        let store = InMemorySessionStore()
        let session = try await fixture.client(store: store).signIn(email: ClientFixture.email, password: ClientFixture.password)
        let relaunched = try fixture.client(store: store)
        #expect(await relaunched.restore() == .signedIn(session))
        #expect(try await relaunched.authorizedData(for: fixture.meRequest).1.statusCode == 200)
    }

    @Test func S003_expiredStoredSessionEndsWithTheExpiredMessage() async throws {
        let fixture = try await ClientFixture()
        let store = InMemorySessionStore()
        try await fixture.client(store: store).signIn(email: ClientFixture.email, password: ClientFixture.password)
        fixture.clock.advance(by: 8 * 24 * 3600)
        let result = await (try fixture.client(store: store)).restore()
        #expect(result == .ended(.expired))
        #expect(try await store.load() == nil)
        let form = LoginForm(configuration: try LoginConfiguration.load(from: URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("examples/003-peer-mentor/gatehouse.json")))
        var state = form.initialState()
        _ = form.send(.sessionEnded(AuthError.sessionEnded(.expired).loginFailure), to: &state)
        #expect(state.banner == "Your session has expired. Please sign in again.")
    }

    @Test func SC008_unreachableAtLaunchIsOfflineThenValidatedWhenBack() async throws {
        let fixture = try await ClientFixture()
        let store = InMemorySessionStore()
        let session = try await fixture.client(store: store).signIn(email: ClientFixture.email, password: ClientFixture.password)
        await fixture.server.stop()
        let client = try fixture.client(store: store)
        let changes = await client.sessionChanges
        #expect(await client.restore() == .offline(session))
        #expect(try await store.load() == session)

        let clock = fixture.clock
        let restarted = try await LoopbackServer.start(port: fixture.server.port, databasePath: fixture.server.databasePath) {
            $0.clock = { clock.now }
        }
        defer { Task { await restarted.stop() } }
        #expect(try await client.session() == session)
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == .initialSession(nil))
        #expect(await iterator.next() == .validated(session))
    }

    @Test func killedBetweenRefreshAndStoreRecoversThroughTheGraceWindow() async throws {
        let fixture = try await ClientFixture()
        let store = InMemorySessionStore()
        let session = try await fixture.client(store: store).signIn(email: ClientFixture.email, password: ClientFixture.password)
        fixture.clock.advance(by: 16 * 60)
        // The app sent the refresh, the server rotated the token, and the app died before storing.
        _ = try await RESTTransport(baseURL: fixture.server.url).token(.refreshToken(session.refreshToken))
        fixture.clock.advance(by: 3)
        let relaunched = try fixture.client(store: store)
        guard case .signedIn(let restored) = await relaunched.restore() else {
            Issue.record("the session did not survive")
            return
        }
        #expect(restored.refreshToken != session.refreshToken)
        #expect(try await store.load() == restored)
    }

    @Test func FR015_signOutClearsTheStoreAndEndsTheServerSession() async throws {
        let fixture = try await ClientFixture()
        let store = InMemorySessionStore()
        let client = try fixture.client(store: store)
        let session = try await client.signIn(email: ClientFixture.email, password: ClientFixture.password)
        let changes = await client.sessionChanges
        try await client.signOut()
        #expect(try await store.load() == nil)
        let transport = try RESTTransport(baseURL: fixture.server.url)
        await #expect(throws: AuthError.self) { try await transport.user(accessToken: session.accessToken, timeout: nil) }
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == .initialSession(session))
        #expect(await iterator.next() == .signedOut(.user))
    }

    @Test func signOutWorksOfflineAndStillClearsTheStore() async throws {
        let fixture = try await ClientFixture()
        let store = InMemorySessionStore()
        let client = try fixture.client(store: store)
        try await client.signIn(email: ClientFixture.email, password: ClientFixture.password)
        await fixture.server.stop()
        try await client.signOut()
        #expect(try await store.load() == nil)
    }

    @Test func FR010_signingInAgainReplacesThePreviousSession() async throws {
        let fixture = try await ClientFixture()
        let store = InMemorySessionStore()
        let client = try fixture.client(store: store)
        let first = try await client.signIn(email: ClientFixture.email, password: ClientFixture.password)
        let second = try await client.signIn(email: ClientFixture.email, password: ClientFixture.password)
        #expect(first.refreshToken != second.refreshToken)
        #expect(try await store.load() == second)
    }

    @Test func US3_4_signOutOthersEndsTheOtherDevicesAndKeepsThisOne() async throws {
        let fixture = try await ClientFixture()
        let phone = try fixture.client()
        let laptop = try fixture.client()
        try await phone.signIn(email: ClientFixture.email, password: ClientFixture.password)
        try await laptop.signIn(email: ClientFixture.email, password: ClientFixture.password)
        try await phone.signOut(scope: .others)
        #expect(try await phone.authorizedData(for: fixture.meRequest).1.statusCode == 200)
        fixture.clock.advance(by: 16 * 60)
        await #expect(throws: AuthError.sessionEnded(.revoked)) { try await laptop.session() }
    }

    @Test func offlineRequestsShareOneValidationAndRespectTheBackoff() async throws {
        let fixture = try await ClientFixture()
        let store = InMemorySessionStore()
        let session = try await fixture.client(store: store).signIn(email: ClientFixture.email, password: ClientFixture.password)
        await fixture.server.stop()
        let transport = CountingTransport(try RESTTransport(baseURL: fixture.server.url))
        let client = try fixture.client(store: store, transport: transport)
        #expect(await client.restore() == .offline(session))
        let sessions = try await withThrowingTaskGroup(of: Session.self) { group in
            for _ in 0..<20 { group.addTask { try await client.session() } }
            return try await group.reduce(into: [Session]()) { $0.append($1) }
        }
        #expect(sessions == Array(repeating: session, count: 20), "offline, the stored session is used as it is")
        #expect(transport.userRequests == 2, "one at launch, one shared by all 20 callers")
        _ = try await client.session()
        #expect(transport.userRequests == 2, "inside the backoff nothing is sent")
    }
}
