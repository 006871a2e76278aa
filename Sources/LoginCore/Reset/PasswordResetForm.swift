/// The two forms of "Forgot password?": the request (an email) and the reset (a new password,
/// with the mail's link or its code), each a state machine like the login form.
///
/// The request always ends in the same notice, whether or not the address has an account.
public struct PasswordResetForm: Sendable {
    public let configuration: LoginConfiguration
    public let options: AccountOptions

    public init(configuration: LoginConfiguration = .standard, options: AccountOptions = AccountOptions(passwordReset: true)) {
        self.configuration = configuration
        self.options = options
    }

    var messages: MessageCatalogue { configuration.messages }

    /// What the screens show.
    public struct State: Equatable, Sendable {
        public var email = ""
        public var password = ""
        public var emailError: String?
        public var passwordError: String?
        public var banner: String?
        public var isSubmitting = false
        /// The request went out: "If an account exists for …, we sent it a link".
        public var notice: String?
        /// The new password was saved and the device signed in.
        public var isDone = false

        public init() {}
    }

    public enum Event: Equatable, Sendable {
        case emailChanged(String)
        case passwordChanged(String)
        /// The person left a field: it is checked and its error shown.
        case fieldBlurred(AccountField)
        /// "Send reset link".
        case requestReset
        /// "Save password".
        case submitPassword
        /// The server accepted the request (the normalised address), or refused it.
        case requestResponse(Result<String, AuthFailure>)
        /// The server set the password and signed in, or refused.
        case resetResponse(Result<Void, AuthFailure>)

        public static func == (lhs: Event, rhs: Event) -> Bool {
            switch (lhs, rhs) {
            case (.emailChanged(let a), .emailChanged(let b)), (.passwordChanged(let a), .passwordChanged(let b)): a == b
            case (.requestReset, .requestReset), (.submitPassword, .submitPassword): true
            case (.fieldBlurred(let a), .fieldBlurred(let b)): a == b
            case (.requestResponse(let a), .requestResponse(let b)): a == b
            case (.resetResponse(.success), .resetResponse(.success)): true
            case (.resetResponse(.failure(let a)), .resetResponse(.failure(let b))): a == b
            default: false
            }
        }
    }

    public enum Effect: Equatable, Sendable {
        /// Ask the server to mail a reset to this address.
        case requestReset(email: String)
        /// Send the new password with the mail's proof the host holds (the link's token, or the code).
        case resetPassword(password: String)
        /// Replace the screen with Home.
        case navigateHome
        case announce(String)
    }

    /// What each field must meet: the same checks as sign-up's.
    public func checks(for field: AccountField) -> [FieldCheck] {
        SignUpForm(configuration: configuration, options: options).checks(for: field)
    }

    public func send(_ event: Event, to state: inout State) -> [Effect] {
        let before = state
        let effects = apply(event, to: &state)
        var spoken: [String] = []
        for (old, new) in [(before.emailError, state.emailError), (before.passwordError, state.passwordError), (before.banner, state.banner),
                           (before.notice, state.notice)] {
            if let new, new != old { spoken.append(new) }
        }
        return spoken.map(Effect.announce) + effects
    }

    private func apply(_ event: Event, to state: inout State) -> [Effect] {
        switch event {
        case .requestResponse, .resetResponse: break
        default: if state.isSubmitting { return [] }
        }
        switch event {
        case .emailChanged(let value):
            state.email = value
            state.emailError = nil
        case .passwordChanged(let value):
            state.password = value
            state.passwordError = nil
        case .fieldBlurred(.email):
            state.emailError = FieldCheck.firstIssue(in: checks(for: .email), with: state.email)
        case .fieldBlurred(.password):
            state.passwordError = FieldCheck.firstIssue(in: checks(for: .password), with: state.password)
        case .fieldBlurred(.name), .fieldBlurred(.code):
            break
        case .requestReset:
            state.banner = nil
            state.emailError = FieldCheck.firstIssue(in: checks(for: .email), with: state.email)
            guard state.emailError == nil else { return [] }
            state.isSubmitting = true
            return [.requestReset(email: configuration.rules.normalizedEmail(state.email))]
        case .submitPassword:
            state.banner = nil
            state.passwordError = FieldCheck.firstIssue(in: checks(for: .password), with: state.password)
            guard state.passwordError == nil else { return [] }
            state.isSubmitting = true
            return [.resetPassword(password: state.password)]
        case .requestResponse(.success(let address)):
            state.isSubmitting = false
            state.notice = messages.text(.resetSent, ["email": address])
        case .requestResponse(.failure(let failure)):
            state.isSubmitting = false
            state.banner = failure.message(in: messages)
        case .resetResponse(.success):
            state.isSubmitting = false
            state.password = ""
            state.isDone = true
            return [.announce(messages.text(.passwordChanged)), .navigateHome]
        case .resetResponse(.failure(let failure)):
            state.isSubmitting = false
            if case .passwordRejected(let text) = failure { state.passwordError = text } else { state.banner = failure.message(in: messages) }
        }
        return []
    }
}
