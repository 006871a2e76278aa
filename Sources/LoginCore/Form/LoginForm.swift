import Foundation

/// The login form's state machine: an event goes in, the new state and effects come out.
///
/// `LoginForm` holds only the configuration; the state lives with the caller, which runs the
/// returned effects and feeds their results back as events. It reads no clock and does no IO,
/// so every behaviour is testable by comparing whole states.
///
/// Every message that newly appears (a field error or the banner) is announced, so a screen
/// reader hears errors as they are shown (seed 000 A18, seed 003).
public struct LoginForm: Sendable {
    /// The screen's rules, policy and copy.
    public let configuration: LoginConfiguration

    /// Creates a form.
    /// - Parameter configuration: the app's configuration; seed 000 by default.
    public init(configuration: LoginConfiguration = .standard) {
        self.configuration = configuration
    }

    var rules: FieldRules { configuration.rules }
    var messages: MessageCatalogue { configuration.messages }

    /// The state of a freshly shown screen.
    public func initialState() -> LoginState {
        var state = LoginState()
        state.isSubmitEnabled = submitEnabled(state)
        return state
    }

    /// Applies one event.
    ///
    /// - Parameters:
    ///   - event: what happened.
    ///   - state: the screen's state, updated in place.
    /// - Returns: the effects the caller must run, in order.
    public func step(_ event: LoginEvent, to state: inout LoginState) -> [LoginEffect] {
        let before = state
        let effects = apply(event, to: &state)
        state.isSubmitEnabled = submitEnabled(state)
        return announcements(from: before, to: state) + effects
    }

    private func apply(_ event: LoginEvent, to state: inout LoginState) -> [LoginEffect] {
        if state.isSubmitting, !event.isResponse, !event.isTick { return [] }
        switch event {
        case .appeared: return []
        case .emailChanged(let value): change(.email, to: value, in: &state)
        case .passwordChanged(let value): change(.password, to: value, in: &state)
        case .emailBlurred: validate(.email, in: &state)
        case .passwordBlurred: validate(.password, in: &state)
        case .togglePasswordVisibility: state.isPasswordVisible.toggle()
        case .clear(let field):
            change(field, to: "", in: &state)
            return [.focus(field)]
        case .submit: return submit(&state)
        case .loginResponse(let result): return respond(to: result, in: &state)
        case .sessionEnded(let failure): state.banner = failure.message(in: messages)
        case .tick(let now): return tick(now, in: &state)
        }
        return []
    }

    /// Advances the cooldown; ends it, enabling submit and announcing so, once its time has come.
    private func tick(_ now: Date, in state: inout LoginState) -> [LoginEffect] {
        guard state.cooldown != nil else { return [] }
        guard let remaining = LoginState.Cooldown.advance(&state.cooldown, to: now) else {
            state.retryCountdown = nil
            return [.stopClock, .announce(messages.retryReadyText(button: .submit))]
        }
        state.retryCountdown = messages.retryCountdownText(seconds: remaining)
        return []
    }

    private func change(_ field: LoginField, to value: String, in state: inout LoginState) {
        state.setValue(value, for: field)
        state.banner = nil
        if state.error(for: field) != nil { validate(field, in: &state) }
    }

    private func validate(_ field: LoginField, in state: inout LoginState) {
        state.touched.insert(field)
        let issue = rules.validate(field, state.value(of: field))
        state.setError(issue?.message(for: field, in: messages), for: field)
    }

    private func submit(_ state: inout LoginState) -> [LoginEffect] {
        guard state.cooldown == nil else { return [] }
        LoginField.allCases.forEach { validate($0, in: &state) }
        if let invalid = LoginField.allCases.first(where: { state.error(for: $0) != nil }) {
            return [.focus(invalid)]
        }
        state.isSubmitting = true
        state.banner = nil
        let credentials = Credentials(email: rules.normalizedEmail(state.email), password: state.password)
        return [.announce(messages.text(.signingIn)), .authenticate(credentials)]
    }

    private func respond(to result: Result<LoginSuccess, AuthFailure>, in state: inout LoginState) -> [LoginEffect] {
        guard state.isSubmitting else { return [] }
        state.isSubmitting = false
        switch result {
        case .success(let success):
            state.password = ""
            state.isPasswordVisible = false
            return [.storeSession(success), .navigateHome]
        case .failure(let failure):
            state.banner = failure.message(in: messages)
            if case .rateLimited(let seconds?) = failure, seconds > 0 {
                state.cooldown = .starting(seconds: seconds)
                state.retryCountdown = messages.retryCountdownText(seconds: seconds)
                return [.startClock]
            }
            guard failure.clearsPassword else { return [] }
            state.password = ""
            state.passwordError = nil
            return [.focus(.password)]
        }
    }

    private func submitEnabled(_ state: LoginState) -> Bool {
        if state.isSubmitting || state.cooldown != nil { return false }
        switch configuration.submitPolicy {
        case .validateOnSubmit:
            return true
        case .disabledUntilValid:
            return rules.validateEmail(state.email) == nil && rules.validatePassword(state.password) == nil
        }
    }

    private func announcements(from before: LoginState, to after: LoginState) -> [LoginEffect] {
        [
            (before.emailError, after.emailError),
            (before.passwordError, after.passwordError),
            (before.banner, after.banner),
        ].compactMap { old, new in
            guard let new, new != old else { return nil }
            return .announce(new)
        }
    }
}

extension LoginEvent {
    var isResponse: Bool {
        if case .loginResponse = self { return true }
        return false
    }

    var isTick: Bool {
        if case .tick = self { return true }
        return false
    }
}
