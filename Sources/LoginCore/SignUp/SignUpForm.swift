import Foundation

/// The sign-up form's state machine (seed 002's "Sign up"): a name, an email in the app's rule,
/// and a new password of at least the app's minimum; then "Check your email".
///
/// The screen validates only what it can know; the server's password policy (common and
/// breached passwords) answers with its own copy, shown under the password field. Every
/// message that newly appears is announced.
public struct SignUpForm: Sendable {
    public let configuration: LoginConfiguration
    public let options: AccountOptions

    public init(configuration: LoginConfiguration = .standard, options: AccountOptions = AccountOptions(signUp: true)) {
        self.configuration = configuration
        self.options = options
    }

    var messages: MessageCatalogue { configuration.messages }

    /// Applies one event; returns the effects to run, in order.
    public func step(_ event: SignUpEvent, to state: inout SignUpState) -> [SignUpEffect] {
        let before = state
        let effects = apply(event, to: &state)
        return Self.announcements(from: before, to: state, messages: messages) + effects
    }

    private func apply(_ event: SignUpEvent, to state: inout SignUpState) -> [SignUpEffect] {
        if state.isSubmitting, case .signUpResponse = event {} else if state.isSubmitting { return [] }
        switch event {
        case .nameChanged(let value):
            state.name = value
            state.nameError = nil
        case .emailChanged(let value):
            state.email = value
            state.emailError = nil
        case .passwordChanged(let value):
            state.password = value
            state.passwordError = nil
        case .submit:
            state.banner = nil
            state.nameError = state.name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? messages.text(.nameRequired) : nil
            state.emailError = configuration.rules.validateEmail(state.email)?.message(for: .email, in: messages)
            state.passwordError = newPasswordError(state.password)
            guard state.nameError == nil, state.emailError == nil, state.passwordError == nil else { return [] }
            state.isSubmitting = true
            return [.signUp(name: state.name, email: configuration.rules.normalizedEmail(state.email), password: state.password)]
        case .signUpResponse(.success(let address)):
            state.isSubmitting = false
            state.password = ""
            state.sentTo = address
        case .signUpResponse(.failure(let failure)):
            state.isSubmitting = false
            if case .passwordRejected(let text) = failure {
                state.passwordError = text
            } else {
                state.banner = failure.message(in: messages)
            }
        }
        return []
    }

    /// The screen's own check of a new password: present, at least the minimum, at most 1,024 bytes.
    public func newPasswordError(_ password: String) -> String? {
        if password.isEmpty { return messages.text(.passwordRequired) }
        if password.count < options.passwordMinimumLength {
            return messages.text(.newPasswordTooShort, ["min": String(options.passwordMinimumLength)])
        }
        if password.utf8.count > 1024 { return messages.text(.passwordTooLong, ["max": "1024"]) }
        return nil
    }

    /// The text of each message that newly appeared, and the "check your email" notice.
    static func announcements(from before: SignUpState, to after: SignUpState, messages: MessageCatalogue) -> [SignUpEffect] {
        var spoken: [String] = []
        for (old, new) in [
            (before.nameError, after.nameError), (before.emailError, after.emailError),
            (before.passwordError, after.passwordError), (before.banner, after.banner),
        ] {
            if let new, new != old { spoken.append(new) }
        }
        if let address = after.sentTo, before.sentTo != address { spoken.append(messages.text(.verificationSent, ["email": address])) }
        return spoken.map(SignUpEffect.announce)
    }
}
