import Foundation

/// Everything a login screen shows, as plain values a UI binds to.
///
/// Create one with ``LoginForm/initialState()`` so that ``isSubmitEnabled`` starts right for
/// the configured submit policy; after that only ``LoginForm/send(_:to:)`` changes it.
public struct LoginState: Equatable, Sendable {
    /// The email field's text, as typed.
    public var email: String = ""
    /// The password field's text. Cleared after a 401 (A13) and after success (C4).
    public var password: String = ""
    /// Fields the user has left, or that a submit attempt validated.
    public var touched: Set<LoginField> = []
    /// The message under the email field, if any.
    public var emailError: String?
    /// The message under the password field, if any.
    public var passwordError: String?
    /// The form-level message (failed sign-in, expired session), if any.
    public var banner: String?
    /// Whether the password is shown as plain text.
    public var isPasswordVisible: Bool = false
    /// Whether a sign-in request is in flight: the button shows a spinner, fields are disabled.
    public var isSubmitting: Bool = false
    /// Whether the sign-in button can be pressed.
    public var isSubmitEnabled: Bool = false
    /// After a 429: how long submit stays disabled. The host's clock drives it through
    /// ``LoginEvent/tick(_:)``; LoginCore never reads a clock.
    public var cooldown: Cooldown?
    /// The countdown shown while ``cooldown`` lasts, such as "Try again in 14:59".
    public var retryCountdown: String?

    public init() {}

    /// A wait after a 429, first as the server's seconds, then, from the next tick, as a deadline.
    public enum Cooldown: Equatable, Sendable {
        /// Seconds from the moment of the next ``LoginEvent/tick(_:)``.
        case starting(seconds: Int)
        /// Submit is enabled again at this instant.
        case until(Date)
    }

    /// Whether the text fields and the visibility toggle accept input.
    public var areFieldsEnabled: Bool { !isSubmitting }

    /// The error shown under a field.
    public func error(for field: LoginField) -> String? {
        field == .email ? emailError : passwordError
    }

    mutating func setError(_ message: String?, for field: LoginField) {
        if field == .email { emailError = message } else { passwordError = message }
    }

    func value(of field: LoginField) -> String {
        field == .email ? email : password
    }

    mutating func setValue(_ value: String, for field: LoginField) {
        if field == .email { email = value } else { password = value }
    }
}
