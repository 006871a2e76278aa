/// What the email-code screens show: the address step, then the code step.
public struct EmailCodeState: Equatable, Sendable {
    public var email = ""
    public var emailError: String?
    /// The address the code went to; `nil` while the address is still being typed.
    public var sentTo: String?
    /// "We sent a code to …": shown on the code step.
    public var notice: String?
    public var code = ""
    public var codeError: String?
    /// Tries left on the code after a wrong one.
    public var attemptsLeft: Int?
    /// The code can no longer be used (expired, spent, or out of tries): only a new one helps.
    public var isExpired = false
    public var banner: String?
    public var isSending = false
    public var isVerifying = false

    public init(email: String = "") {
        self.email = email
    }

    /// A request is out: the fields wait for its answer.
    public var isBusy: Bool { isSending || isVerifying }
}

/// What happens on the email-code screens.
public enum EmailCodeEvent: Equatable, Sendable {
    case emailChanged(String)
    case fieldBlurred(AccountField)
    /// "Email me a sign-in code" (or "Send a new code").
    case requestCode
    /// The server accepted the request (the normalised address), or refused it.
    case requestResponse(Result<String, AuthFailure>)
    /// The code field changed (typed, pasted or autofilled): six digits submit it.
    case codeChanged(String)
    case submitCode
    case verifyResponse(Result<LoginSuccess, AuthFailure>)
    /// "Use a different email".
    case changeEmail
}

/// What the host must do for the email-code screens.
public enum EmailCodeEffect: Equatable, Sendable {
    case requestCode(email: String)
    case verifyCode(email: String, code: String)
    case storeSession(LoginSuccess)
    case navigateHome
    case focus(AccountField)
    case announce(String)
}
