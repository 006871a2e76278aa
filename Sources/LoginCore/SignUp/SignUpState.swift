/// What the sign-up screen shows: its three fields, their errors, the banner, and whether the
/// verification mail went out.
public struct SignUpState: Equatable, Sendable {
    public var name = ""
    public var email = ""
    public var password = ""
    public var nameError: String?
    public var emailError: String?
    public var passwordError: String?
    /// An error about the whole form (the server's), shown above the button.
    public var banner: String?
    public var isSubmitting = false
    /// Set when the server accepted: the screen becomes "Check your email" for this address.
    public var sentTo: String?

    public init() {}
}

/// What happens on the sign-up screen.
public enum SignUpEvent: Equatable, Sendable {
    case nameChanged(String)
    case emailChanged(String)
    case passwordChanged(String)
    /// The person left a field: it is checked and its error shown.
    case fieldBlurred(AccountField)
    case submit
    /// The server's answer: the normalised address the mail went to, or why not.
    case signUpResponse(Result<String, AuthFailure>)
}

/// Work the sign-up screen asks its host to do.
public enum SignUpEffect: Equatable, Sendable {
    /// Send these to the server's sign-up and feed the answer back as ``SignUpEvent/signUpResponse(_:)``.
    case signUp(name: String, email: String, password: String)
    /// Have assistive technology speak this text.
    case announce(String)
    /// Report this analytics event.
    case track(AnalyticsEvent)
}
