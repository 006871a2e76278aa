import Testing
@testable import LoginCore

/// Drives a ``LoginForm`` the way TCA's TestStore does: each step states the whole expected
/// change to the state and the exact effects, and the probe compares both after every event.
struct FormProbe {
    let form: LoginForm
    private(set) var state: LoginState

    init(_ configuration: LoginConfiguration = .standard) {
        form = LoginForm(configuration: configuration)
        state = form.initialState()
    }

    /// Sends an event; fails unless the new state equals the old one changed by `update`,
    /// and the effects equal `effects`.
    mutating func send(
        _ event: LoginEvent,
        effects: [LoginEffect] = [],
        sourceLocation: SourceLocation = #_sourceLocation,
        _ update: (inout LoginState) -> Void = { _ in }
    ) {
        var expected = state
        update(&expected)
        let actual = form.send(event, to: &state)
        #expect(state == expected, "state after \(event)", sourceLocation: sourceLocation)
        #expect(actual.untracked == effects, "effects of \(event)", sourceLocation: sourceLocation)
    }

    /// Types a valid email and password, as the start of most submission tests.
    mutating func fillValid(email: String = "user@example.com", password: String = "password123") {
        send(.emailChanged(email)) { $0.email = email }
        send(.passwordChanged(password)) {
            $0.password = password
            $0.isSubmitEnabled = true
        }
    }
}

let demoSuccess = LoginSuccess(
    user: SignedInUser(id: "u1", email: "user@example.com", name: "Demo User"),
    tokens: SessionTokens(accessToken: "a.b.c", refreshToken: "r1", expiresIn: 900)
)
