import Foundation
import GatehouseClient
import LoginCore
import Testing

/// The SDK driving LoginCore end to end: form events → authenticate effect → real server →
/// loginResponse event (seed 000 A12–A14).
@Suite struct LoginCoreDriverTests {
    /// Fills the form, submits, runs the effects with `client` and returns them all.
    static func signIn(_ client: AuthClient, password: String, state: inout LoginState, form: LoginForm) async -> [LoginEffect] {
        _ = form.send(.emailChanged(ClientFixture.email), to: &state)
        _ = form.send(.passwordChanged(password), to: &state)
        var effects = form.send(.submit, to: &state)
        var all = effects
        while !effects.isEmpty {
            let effect = effects.removeFirst()
            if let event = await client.perform(effect) {
                let more = form.send(event, to: &state)
                all += more
                effects += more
            }
        }
        return all
    }

    @Test func A12_successStoresTheSessionAndNavigatesHome() async throws {
        let fixture = try await ClientFixture()
        let store = InMemorySessionStore()
        let form = LoginForm()
        var state = form.initialState()
        let effects = await Self.signIn(try fixture.client(store: store), password: ClientFixture.password, state: &state, form: form)
        // The last effect besides the analytics report of the success that follows it.
        #expect(effects.last { if case .track = $0 { false } else { true } } == .navigateHome)
        #expect(effects.last == .track(.loginEmailSuccess))
        let stored = try #require(try await store.load())
        #expect(stored.user.email == ClientFixture.email)
        #expect(effects.contains { if case .storeSession(let s) = $0 { s.tokens.refreshToken == stored.refreshToken } else { false } })
        #expect(state.password.isEmpty && !state.isSubmitting)
    }

    @Test func A13_wrongPasswordShowsTheMessageAndClearsThePassword() async throws {
        let fixture = try await ClientFixture()
        let form = LoginForm()
        var state = form.initialState()
        _ = await Self.signIn(try fixture.client(), password: "wrong-password", state: &state, form: form)
        #expect(state.banner == "Invalid email or password")
        #expect(state.password.isEmpty)
        #expect(state.areFieldsEnabled)
    }

    @Test func A14_unreachableServerShowsTheNetworkMessage() async throws {
        let fixture = try await ClientFixture()
        await fixture.server.stop()
        let form = LoginForm()
        var state = form.initialState()
        _ = await Self.signIn(try fixture.client(), password: ClientFixture.password, state: &state, form: form)
        #expect(state.banner == "Unable to connect. Please try again.")
        #expect(state.password == ClientFixture.password, "retry is possible without retyping")
    }

    @Test func lockedAccountMapsToSeed002Copy() async throws {
        let fixture = try await ClientFixture()
        try await fixture.administer { try await $0.setLocked(true, email: ClientFixture.email) }
        let configuration = try LoginConfiguration.load(from: URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("examples/002-peated/gatehouse.json"))
        let form = LoginForm(configuration: configuration)
        var state = form.initialState()
        _ = await Self.signIn(try fixture.client(), password: ClientFixture.password, state: &state, form: form)
        #expect(state.banner == "Your account has been locked. Please contact support.")
    }
}
