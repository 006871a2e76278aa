/// Why a new password was refused, with the app's copy for it.
///
/// The text is the app's (its `messages`), filled in by the core, so every surface shows the
/// same words without reading the app's configuration.
public struct PasswordRejection: Sendable, Equatable {
    /// The rule the password broke.
    public enum Reason: String, Sendable, Equatable {
        /// Fewer characters than the app's minimum.
        case tooShort = "too_short"
        /// More than ``PasswordPolicy/maximumBytes`` bytes.
        case tooLong = "too_long"
        /// On the shipped list of common passwords.
        case common
        /// Found by the breached-password range API.
        case breached
    }

    public var reason: Reason
    /// The app's text for the refusal.
    public var message: String

    public init(_ reason: Reason, message: String) {
        self.reason = reason
        self.message = message
    }
}

/// Something an app may or may not offer to email accounts (its `accounts` options).
public enum AccountFeature: String, Sendable, Equatable {
    case signUp = "sign_up"
    case passwordReset = "password_reset"
    /// Passkeys need a public URL with a host name (WebAuthn refuses IP addresses).
    case passkeys
    /// Two-step verification (the app file's `mfa` block).
    case secondFactors = "mfa"
    /// Signing in with an external provider (the app file's `providers`).
    case providers
    /// Changing the email, which needs account mail.
    case emailChange = "email_change"

    /// How a sentence names it.
    public var displayName: String {
        switch self {
        case .signUp: "sign-up"
        case .passwordReset: "password reset"
        case .passkeys: "passkeys"
        case .secondFactors: "two-step verification"
        case .providers: "sign-in with a provider"
        case .emailChange: "changing the email"
        }
    }
}
