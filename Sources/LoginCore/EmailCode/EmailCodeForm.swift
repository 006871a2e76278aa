/// "Email me a sign-in code" (issue 39) as a state machine: an address, then the mailed code.
///
/// The request always ends in the same "Check your email" step, whether or not the address has
/// an account. The code submits itself once its six digits are in; a wrong one clears the field
/// and says how many tries are left; an expired or spent one asks for a new code.
public struct EmailCodeForm: Sendable {
    public let configuration: LoginConfiguration
    public let options: AccountOptions

    /// Digits in a mailed code.
    public static let codeLength = 6

    public init(configuration: LoginConfiguration = .standard, options: AccountOptions = AccountOptions()) {
        self.configuration = configuration
        self.options = options
    }

    var messages: MessageCatalogue { configuration.messages }

    /// What each field must meet: the address as sign-up checks it, the code as six digits.
    public func checks(for field: AccountField) -> [FieldCheck] {
        SignUpForm(configuration: configuration, options: options).checks(for: field)
    }

    /// Applies one event and returns the effects the host must run, in order.
    public func send(_ event: EmailCodeEvent, to state: inout EmailCodeState) -> [EmailCodeEffect] {
        let before = state
        let effects = apply(event, to: &state)
        var spoken: [String] = []
        for (old, new) in [(before.emailError, state.emailError), (before.codeError, state.codeError), (before.banner, state.banner),
                           (before.notice, state.notice)] {
            if let new, new != old { spoken.append(new) }
        }
        return spoken.map(EmailCodeEffect.announce) + effects
    }

    private func apply(_ event: EmailCodeEvent, to state: inout EmailCodeState) -> [EmailCodeEffect] {
        switch event {
        case .requestResponse, .verifyResponse: break
        default: if state.isBusy { return [] }
        }
        switch event {
        case .emailChanged(let value):
            state.email = value
            state.emailError = nil
            state.banner = nil
        case .fieldBlurred(.email):
            state.emailError = FieldCheck.firstIssue(in: checks(for: .email), with: state.email)
        case .fieldBlurred:
            break
        case .requestCode:
            return request(&state)
        case .requestResponse(let result):
            return requested(result, in: &state)
        case .codeChanged(let text):
            guard state.sentTo != nil, !state.isExpired else { return [] }
            let digits = String(text.filter(\.isASCIIDigit).prefix(Self.codeLength))
            let completes = digits.count == Self.codeLength && digits != state.code
            state.code = digits
            state.codeError = nil
            state.banner = nil
            return completes ? verify(&state) : []
        case .submitCode:
            guard state.sentTo != nil, !state.isExpired else { return [] }
            guard state.code.count == Self.codeLength else {
                state.codeError = messages.text(.codeIncomplete, ["length": String(Self.codeLength)])
                return [.focus(.code)]
            }
            return verify(&state)
        case .verifyResponse(let result):
            return verified(result, in: &state)
        case .changeEmail:
            state = EmailCodeState(email: state.email)
            return [.focus(.email)]
        }
        return []
    }

    private func request(_ state: inout EmailCodeState) -> [EmailCodeEffect] {
        state.banner = nil
        state.emailError = FieldCheck.firstIssue(in: checks(for: .email), with: state.email)
        guard state.emailError == nil else { return [.focus(.email)] }
        state.isSending = true
        return [.requestCode(email: configuration.rules.normalizedEmail(state.email))]
    }

    private func requested(_ result: Result<String, AuthFailure>, in state: inout EmailCodeState) -> [EmailCodeEffect] {
        guard state.isSending else { return [] }
        state.isSending = false
        switch result {
        case .success(let address):
            state.sentTo = address
            state.code = ""
            state.codeError = nil
            state.isExpired = false
            state.attemptsLeft = nil
            state.notice = messages.text(.emailCodeSent, ["email": address])
            return [.focus(.code)]
        case .failure(.resendTooSoon(let seconds)), .failure(.rateLimited(.some(let seconds))):
            state.banner = messages.rateLimitedText(seconds: seconds)
            return []
        case .failure(let failure):
            state.banner = failure.message(in: messages)
            return []
        }
    }

    private func verify(_ state: inout EmailCodeState) -> [EmailCodeEffect] {
        guard let address = state.sentTo else { return [] }
        state.isVerifying = true
        return [.announce(messages.text(.verifyingCode)), .verifyCode(email: address, code: state.code)]
    }

    private func verified(_ result: Result<LoginSuccess, AuthFailure>, in state: inout EmailCodeState) -> [EmailCodeEffect] {
        guard state.isVerifying else { return [] }
        state.isVerifying = false
        switch result {
        case .success(let success):
            state.code = ""
            return [.storeSession(success), .navigateHome]
        case .failure(.codeIncorrect(let left)):
            state.code = ""
            state.attemptsLeft = left
            state.codeError = AuthFailure.codeIncorrect(attemptsLeft: left).message(in: messages)
            return [.focus(.code)]
        case .failure(let failure) where failure == .codeExpired || failure == .codeAttemptsExceeded || failure == .linkExpired:
            state.code = ""
            state.isExpired = true
            state.attemptsLeft = nil
            state.codeError = failure == .linkExpired ? messages.text(.codeExpired) : failure.message(in: messages)
            return []
        case .failure(let failure):
            state.banner = failure.message(in: messages)
            return []
        }
    }
}
