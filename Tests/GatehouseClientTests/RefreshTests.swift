import Foundation
import GatehouseClient
import Testing

/// Proactive, single-flight refresh against the real server (seed 001 US3.1).
@Suite struct ClientRefreshTests {
    @Test func US3_1_tenConcurrentCallersShareOneRefresh() async throws {
        let fixture = try await ClientFixture()
        let transport = CountingTransport(try RESTTransport(baseURL: fixture.server.url))
        let client = try fixture.client(transport: transport)
        let first = try await client.signIn(email: ClientFixture.email, password: ClientFixture.password)
        fixture.clock.advance(by: 15 * 60 - 30)
        let sessions = try await withThrowingTaskGroup(of: Session.self) { group in
            for _ in 0..<10 { group.addTask { try await client.session() } }
            return try await group.reduce(into: [Session]()) { $0.append($1) }
        }
        #expect(transport.refreshes == 1)
        #expect(Set(sessions.map(\.accessToken)).count == 1)
        #expect(sessions[0].accessToken != first.accessToken)
    }

    @Test func US3_1_hundredRequestsWhileExpiredCauseExactlyOneRefreshOnTheServer() async throws {
        let fixture = try await ClientFixture()
        let client = try fixture.client()
        try await client.signIn(email: ClientFixture.email, password: ClientFixture.password)
        #expect(try await fixture.refreshTokensIssued() == 1)
        fixture.clock.advance(by: 16 * 60)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<100 {
                group.addTask { try await client.authorizedData(for: fixture.meRequest).1.statusCode }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 100))
        #expect(try await fixture.refreshTokensIssued() == 2, "one login, one rotation")
    }

    @Test func proactiveRefreshHappensWithinTheMarginAndIsStoredFirst() async throws {
        let fixture = try await ClientFixture()
        let store = InMemorySessionStore()
        let client = try fixture.client(store: store)
        let first = try await client.signIn(email: ClientFixture.email, password: ClientFixture.password)
        fixture.clock.advance(by: 15 * 60 - 61)
        #expect(try await client.session() == first, "outside the 60 s margin nothing happens")
        fixture.clock.advance(by: 2)
        let refreshed = try await client.session()
        #expect(refreshed.refreshToken != first.refreshToken)
        #expect(try await store.load() == refreshed)
    }

    @Test func twoClientsRacingOneRefreshTokenAreBothStillSignedIn() async throws {
        let fixture = try await ClientFixture()
        let original = try await fixture.client().signIn(email: ClientFixture.email, password: ClientFixture.password)
        let phone = try fixture.client(store: InMemorySessionStore(original))
        let tablet = try fixture.client(store: InMemorySessionStore(original))
        _ = await (phone.restore(), tablet.restore())
        fixture.clock.advance(by: 16 * 60)
        async let a = phone.authorizedData(for: fixture.meRequest)
        async let b = tablet.authorizedData(for: fixture.meRequest)
        let (first, second) = try await (a, b)
        #expect(first.1.statusCode == 200 && second.1.statusCode == 200)
        let (phoneSession, tabletSession) = await (phone.currentSession, tablet.currentSession)
        #expect(phoneSession != nil && tabletSession != nil)
    }

    @Test func reuseAfterTheGraceWindowEndsTheSessionAsRevoked() async throws {
        let fixture = try await ClientFixture()
        let original = try await fixture.client().signIn(email: ClientFixture.email, password: ClientFixture.password)
        let thief = try fixture.client(store: InMemorySessionStore(original))
        let owner = try fixture.client(store: InMemorySessionStore(original))
        _ = await (thief.restore(), owner.restore())
        fixture.clock.advance(by: 16 * 60)
        _ = try await thief.session()
        fixture.clock.advance(by: 11)
        let changes = await owner.sessionChanges
        await #expect(throws: AuthError.sessionEnded(.revoked)) { try await owner.session() }
        #expect(await owner.currentSession == nil)
        var iterator = changes.makeAsyncIterator()
        _ = await iterator.next()
        #expect(await iterator.next() == .signedOut(.revoked))
    }

    @Test func edgeCase_passwordChangedElsewhereEndsTheSessionAsRevoked() async throws {
        let fixture = try await ClientFixture()
        let store = InMemorySessionStore()
        let client = try fixture.client(store: store)
        try await client.signIn(email: ClientFixture.email, password: ClientFixture.password)
        fixture.clock.advance(by: 60)
        try await fixture.administer { try await $0.setPassword("a-new-password", email: ClientFixture.email) }
        fixture.clock.advance(by: 15 * 60)
        await #expect(throws: AuthError.sessionEnded(.revoked)) { try await client.session() }
        #expect(try await store.load() == nil)
    }

    @Test func edgeCase_lockedAccountEndsTheSessionAsLocked() async throws {
        let fixture = try await ClientFixture()
        let client = try fixture.client()
        try await client.signIn(email: ClientFixture.email, password: ClientFixture.password)
        try await fixture.administer { try await $0.setLocked(true, email: ClientFixture.email) }
        fixture.clock.advance(by: 15 * 60)
        await #expect(throws: AuthError.sessionEnded(.locked)) { try await client.session() }
    }

    @Test func networkFailureKeepsTheSessionAndBacksOff() async throws {
        let fixture = try await ClientFixture()
        let store = InMemorySessionStore()
        let transport = CountingTransport(try RESTTransport(baseURL: fixture.server.url))
        let client = try fixture.client(store: store, transport: transport)
        let session = try await client.signIn(email: ClientFixture.email, password: ClientFixture.password)
        await fixture.server.stop()
        fixture.clock.advance(by: 15 * 60 - 30)
        #expect(try await client.session() == session, "still valid: used as it is")
        fixture.clock.advance(by: 60)
        await #expect(throws: AuthError.networkUnavailable) { try await client.session() }
        let attempts = transport.refreshes
        await #expect(throws: AuthError.networkUnavailable) { try await client.session() }
        #expect(transport.refreshes == attempts, "inside the backoff no request is sent")
        #expect(try await store.load() == session, "never signed out by the network")
    }
}
