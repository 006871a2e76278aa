/// Why a sign-in attempt failed, as a login screen needs to know it.
///
/// Transports (the SDK, the web page, the terminal login) turn their own errors into one of
/// these; ``message(in:)`` turns each into the configured copy.
public enum AuthFailure: Error, Equatable, Sendable {
    /// The server answered 401: wrong email or password (seed 000 A13).
    case invalidCredentials
    /// The server could not be reached (A14).
    case networkUnavailable
    /// The request took longer than its timeout.
    case timeout
    /// The server answered with a 5xx status (A15).
    case serverError(status: Int)
    /// The account is locked (seed 002).
    case accountLocked
    /// The account's email is not verified yet (seed 002).
    case emailNotVerified
    /// A sign-up's link opened away from where the sign-up was made: the address is verified,
    /// and the person signs in to continue.
    case emailVerifiedSignIn
    /// Too many attempts; `retryAfter` is in seconds when the server said (seed 004).
    case rateLimited(retryAfter: Int?)
    /// A code went to this number moments ago: not a limit, a wait until a new one may be sent
    /// (the resend window). Shown as the resend countdown, never as an error (seed 004).
    case resendTooSoon(retryAfter: Int)
    /// The stored session ended; the user must sign in again (seed 003).
    case sessionExpired
    /// The server refused the phone number (seed 004).
    case invalidPhone
    /// No account has this number (seed 004: "No account found. Create one?").
    case accountNotFound
    /// Registration: the number already has an account.
    case phoneTaken
    /// The SMS provider failed; not the user's connection.
    case smsUnavailable(retryAfter: Int?)
    /// A wrong one-time code, with the tries the code has left when the server said.
    case codeIncorrect(attemptsLeft: Int?)
    /// The code expired, was used, or was replaced by a resend.
    case codeExpired
    /// Too many wrong tries burned the code.
    case codeAttemptsExceeded
    /// The person closed the provider's page or declined; no error styling (seeds 002, 004).
    case providerCancelled
    /// The provider failed or could not be reached ("Google sign-in failed. Please try again.").
    case providerFailed
    /// The provider refused the code or token ("Authentication failed. Please try again.").
    case providerCodeRejected
    /// The email belongs to an account that must sign in with its password first, then link.
    case providerLinkRequired
    /// A new password the server's policy refused, with the app's reason (sign-up, reset).
    case passwordRejected(message: String)
    /// A mail's link or code expired, was used, or was replaced by a newer one.
    case linkExpired
    /// The person dismissed the Face ID, fingerprint or passkey prompt; no error styling.
    case passkeyCancelled
    /// The server refused the passkey (a tampered or replayed response, an expired request).
    case passkeyFailed
    /// The server has no account with this passkey (it was removed); the device should forget it.
    case passkeyUnknown

    /// The catalogue text for this failure.
    public func message(in messages: MessageCatalogue) -> String {
        switch self {
        case .invalidCredentials: messages.text(.invalidCredentials)
        case .networkUnavailable: messages.text(.networkUnavailable)
        case .timeout: messages.text(.timeout)
        case .serverError: messages.text(.serverError)
        case .accountLocked: messages.text(.accountLocked)
        case .emailNotVerified: messages.text(.emailNotVerified)
        case .emailVerifiedSignIn: messages.text(.emailVerifiedSignIn)
        case .rateLimited(let seconds): messages.rateLimitedText(seconds: seconds)
        case .resendTooSoon(let seconds): messages.resendCountdownText(seconds: seconds)
        case .sessionExpired: messages.text(.sessionExpired)
        case .invalidPhone: messages.text(.phoneInvalidAnnouncement)
        case .accountNotFound: messages.text(.accountNotFound)
        case .phoneTaken: messages.text(.phoneTaken)
        case .smsUnavailable: messages.text(.smsUnavailable)
        case .codeIncorrect(let left): messages.text(.codeIncorrect, ["attempts": left.map(String.init) ?? "a few"])
        case .codeExpired: messages.text(.codeExpired)
        case .codeAttemptsExceeded: messages.text(.codeAttemptsExceeded)
        case .providerCancelled: messages.text(.providerCancelled)
        case .providerFailed: messages.text(.providerFailed)
        case .providerCodeRejected: messages.text(.providerCodeRejected)
        case .providerLinkRequired: messages.text(.providerLinkRequired)
        case .passwordRejected(let message): message
        case .linkExpired: messages.text(.linkExpired)
        case .passkeyCancelled: messages.text(.passkeyCancelled)
        case .passkeyFailed: messages.text(.passkeyFailed)
        case .passkeyUnknown: messages.text(.passkeyUnknown)
        }
    }

    /// Whether the password field is cleared after this failure (A13 clears it on 401).
    var clearsPassword: Bool { self == .invalidCredentials }
}
