import Foundation
import GatehouseClient
import GatehouseModel
import LoginCore
import Testing

/// The SDK's device list (issue 24) against the real server: two clients signed in as one
/// user each see both devices, and one signs the other out.
@Suite struct DeviceClientTests {
    @Test func K24_twoClientsSeeEachOtherAndOneSignsTheOtherOut() async throws {
        try await PasskeyClientTests.withServer { server in
            let phone = AuthClient(transport: try RESTTransport(baseURL: server.url), store: InMemorySessionStore())
            let laptop = AuthClient(transport: try RESTTransport(baseURL: server.url), store: InMemorySessionStore())
            _ = try await phone.signIn(email: PasskeyClientTests.email, password: PasskeyClientTests.password)
            _ = try await laptop.signIn(email: PasskeyClientTests.email, password: PasskeyClientTests.password)

            let seenFromPhone = try await phone.sessions()
            let seenFromLaptop = try await laptop.sessions()
            #expect(seenFromPhone.count == 2 && Set(seenFromPhone.map(\.id)) == Set(seenFromLaptop.map(\.id)))
            let phoneID = try #require(seenFromPhone.first { $0.current }?.id)
            let laptopID = try #require(seenFromLaptop.first { $0.current }?.id)
            #expect(phoneID != laptopID)

            try await phone.endSession(laptopID)
            #expect(try await phone.sessions().map(\.id) == [phoneID])
            // The laptop's next call finds its session ended and signs out here too.
            await #expect(throws: AuthError.sessionEnded(.revoked)) { try await laptop.sessions() }
            #expect(await laptop.currentSession == nil)
        }
    }

    @Test func K24_endingThisDevicesOwnSessionSignsItOut() async throws {
        try await PasskeyClientTests.withServer { server in
            let client = AuthClient(transport: try RESTTransport(baseURL: server.url), store: InMemorySessionStore())
            _ = try await client.signIn(email: PasskeyClientTests.email, password: PasskeyClientTests.password)
            let mine = try #require(try await client.sessions().first { $0.current })
            try await client.endSession(mine.id)
            #expect(await client.currentSession == nil)
        }
    }
}

/// The SDK's analytics stream (issue 24): what the screens report as `.track` effects, in
/// order, as the client runs them.
@Suite struct AnalyticsStreamTests {
    @Test func A004_theClientYieldsTheEventsItsScreensReport() async throws {
        try await PasskeyClientTests.withServer { server in
            let client = AuthClient(transport: try RESTTransport(baseURL: server.url), store: InMemorySessionStore())
            let stream = client.analytics
            let form = LoginForm()
            var state = form.initialState()
            var pending = form.send(.appeared, to: &state) + form.send(.emailChanged(PasskeyClientTests.email), to: &state)
            pending += form.send(.passwordChanged(PasskeyClientTests.password), to: &state) + form.send(.submit, to: &state)
            while !pending.isEmpty {
                let effect = pending.removeFirst()
                if let next = await client.perform(effect) { pending += form.send(next, to: &state) }
            }
            var received: [String] = []
            for await event in stream {
                received.append(event.name)
                if received.count == 4 { break }
            }
            #expect(received == ["screen_view", "login_email_started", "login_email_submitted", "login_email_success"])
        }
    }
}
