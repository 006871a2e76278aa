/// A key into the message catalogue: every string the login screen shows or announces.
///
/// The default text of each key is seed 000's copy. Templates may contain `{min}`, `{max}`,
/// `{seconds}`, `{minutes}` and `{time}`, which ``MessageCatalogue/text(_:_:)`` fills in.
public enum MessageKey: String, CaseIterable, Codable, Sendable {
    case title
    case subtitle
    case emailLabel
    case emailPlaceholder
    case passwordLabel
    case passwordPlaceholder
    case submit
    case showPassword
    case hidePassword
    case clearEmail
    case clearPassword
    case emailRequired
    case emailInvalid
    case passwordRequired
    case passwordTooShort
    case passwordTooLong
    case invalidCredentials
    case networkUnavailable
    case timeout
    case serverError
    case accountLocked
    case emailNotVerified
    case rateLimited
    case sessionExpired
    /// Under the banner while submit is held after a 429; `{time}` is `m:ss`.
    case retryCountdown
    /// Announced when the countdown ends and submit is enabled again.
    case retryReady
    case signingIn
    case signedIn

    /// Seed 000's text for this key (the catalogue's default).
    public var defaultText: String {
        switch self {
        case .title: "Log In"
        case .subtitle: ""
        case .emailLabel: "Email"
        case .emailPlaceholder: "Email"
        case .passwordLabel: "Password"
        case .passwordPlaceholder: "Password"
        case .submit: "Log In"
        case .showPassword: "Show password"
        case .hidePassword: "Hide password"
        case .clearEmail: "Clear email"
        case .clearPassword: "Clear password"
        case .emailRequired: "Email is required"
        case .emailInvalid: "Please enter a valid email"
        case .passwordRequired: "Password is required"
        case .passwordTooShort: "Password must be at least {min} characters"
        case .passwordTooLong: "Password must be at most {max} characters"
        case .invalidCredentials: "Invalid email or password"
        case .networkUnavailable: "Unable to connect. Please try again."
        case .timeout: "The request timed out. Please try again."
        case .serverError: "Something went wrong. Please try again."
        case .accountLocked: "Your account has been locked. Please contact support."
        case .emailNotVerified: "Please verify your email address."
        case .rateLimited: "Too many attempts. Please try again in {seconds} seconds."
        case .sessionExpired: "Your session has expired. Please sign in again."
        case .retryCountdown: "Try again in {time}"
        case .retryReady: "You can try again now."
        case .signingIn: "Signing in"
        case .signedIn: "Signed in"
        }
    }
}
