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
        case .fieldBlurred(let field):
            // Seed 000's rule for every form: a field is checked when the person leaves it.
            guard !state.isSubmitting else { return [] }
            switch field {
            case .name: state.nameError = FieldCheck.firstIssue(in: checks(for: .name), with: state.name)
            case .email: state.emailError = FieldCheck.firstIssue(in: checks(for: .email), with: state.email)
            case .password: state.passwordError = FieldCheck.firstIssue(in: checks(for: .password), with: state.password)
            case .code: break
            }
        case .submit:
            state.banner = nil
            state.nameError = FieldCheck.firstIssue(in: checks(for: .name), with: state.name)
            state.emailError = FieldCheck.firstIssue(in: checks(for: .email), with: state.email)
            state.passwordError = FieldCheck.firstIssue(in: checks(for: .password), with: state.password)
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
        FieldCheck.firstIssue(in: checks(for: .password), with: password)
    }

    /// What each field must meet, in the order the messages take precedence; the web page gets
    /// the same list.
    public func checks(for field: AccountField) -> [FieldCheck] {
        switch field {
        case .name: [.required(messages.text(.nameRequired), trimmed: true)]
        case .email: Self.emailChecks(configuration)
        case .password:
            [
                .required(messages.text(.passwordRequired), trimmed: false),
                .minimumLength(options.passwordMinimumLength, messages.text(.newPasswordTooShort, ["min": String(options.passwordMinimumLength)])),
                .maximumBytes(1024, messages.text(.passwordTooLong, ["max": "1024"])),
            ]
        case .code: [.required(messages.text(.codeRequired), trimmed: true)]
        }
    }

    /// An address: present, and in the app's pattern (``FieldRules/emailPattern``).
    static func emailChecks(_ configuration: LoginConfiguration) -> [FieldCheck] {
        [
            .required(configuration.messages.text(.emailRequired), trimmed: true),
            .pattern(configuration.rules.emailPattern, configuration.messages.text(.emailInvalid)),
        ]
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
