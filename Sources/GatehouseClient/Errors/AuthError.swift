import LoginCore

/// Everything that can go wrong in the SDK, as a small set of cases a UI can switch over.
public enum AuthError: Error, Equatable, Sendable {
    case invalidCredentials
    case accountLocked
    case emailNotVerified
    /// Too many attempts; `retryAfter` in seconds when the server said.
    case rateLimited(retryAfter: Int?)
    /// A code went to this number moments ago; a new one may be sent after `retryAfter` seconds.
    /// Not a limit: show the resend countdown, not an error.
    case resendTooSoon(retryAfter: Int)
    /// A wrong one-time code; the server says how many tries the code has left.
    case invalidCode(attemptsLeft: Int?)
    /// The server could not be reached.
    case networkUnavailable
    /// The server did not answer in time.
    case timeout
    /// The server failed (5xx).
    case serverError(status: Int)
    /// The server answered with a body the SDK cannot read, or a token that is not a JWT.
    case malformedResponse(String)
    /// Any other error the server reported.
    case server(status: Int, code: ServerErrorCode, message: String)
    /// The session ended for good; sign in again.
    case sessionEnded(SignOutReason)
    /// There is no session.
    case notSignedIn
    /// The server URL is not https and not a loopback address.
    case insecureURL(String)
    /// The secure store is locked (the device has not been unlocked since boot).
    case storeLocked
    /// The secure store failed.
    case storeFailure(String)
    /// The person dismissed the platform's passkey prompt (Face ID, fingerprint).
    case passkeyCancelled
    /// The platform authenticator failed or is not available.
    case authenticatorFailure(String)
    /// The person dismissed a provider's own sheet (Sign in with Apple).
    case providerCancelled

    /// Whether trying again later may succeed: the session must survive these.
    public var isTransient: Bool {
        switch self {
        case .networkUnavailable, .timeout, .serverError, .rateLimited, .resendTooSoon, .malformedResponse: true
        default: false
        }
    }

    /// The outcome LoginCore shows for this error.
    public var loginFailure: AuthFailure {
        switch self {
        case .invalidCredentials: .invalidCredentials
        case .accountLocked: .accountLocked
        case .emailNotVerified: .emailNotVerified
        case .rateLimited(let seconds): .rateLimited(retryAfter: seconds)
        case .resendTooSoon(let seconds): .resendTooSoon(retryAfter: seconds)
        case .invalidCode(let left): .codeIncorrect(attemptsLeft: left)
        case .networkUnavailable: .networkUnavailable
        case .timeout: .timeout
        case .serverError(let status): .serverError(status: status)
        case .sessionEnded, .notSignedIn: .sessionExpired
        // The server's text is the app's copy for a refused new password.
        case .server(_, .weakPassword, let message): .passwordRejected(message: message)
        case .server(let status, let code, _): Self.loginFailure(status: status, code: code)
        case .passkeyCancelled: .passkeyCancelled
        case .providerCancelled: .providerCancelled
        case .authenticatorFailure: .passkeyFailed
        case .malformedResponse, .insecureURL, .storeLocked, .storeFailure: .serverError(status: 0)
        }
    }

    /// The phone codes' and providers' outcomes by server code (each transport has already put
    /// its backend's code in Gatehouse's vocabulary); any other code is a server error.
    static func loginFailure(status: Int, code: ServerErrorCode) -> AuthFailure {
        switch code {
        case .invalidPhone: .invalidPhone
        case .accountNotFound: .accountNotFound
        case .phoneTaken: .phoneTaken
        case .codeExpired: .codeExpired
        case .linkExpired: .linkExpired
        case .emailVerifiedSignIn: .emailVerifiedSignIn
        case .codeAttemptsExceeded: .codeAttemptsExceeded
        case .smsUnavailable: .smsUnavailable(retryAfter: nil)
        case .providerCancelled: .providerCancelled
        case .providerUnavailable, .providerDisabled: .providerFailed
        case .providerCodeRejected, .invalidIDToken, .invalidFlowState: .providerCodeRejected
        case .linkRequired, .identityTaken: .providerLinkRequired
        case .passkeyUnknown: .passkeyUnknown
        case .passkeyRejected, .passkeyChallengeExpired, .passkeyTaken: .passkeyFailed
        case .reauthenticationRequired: .sessionExpired
        default: .serverError(status: status)
        }
    }

    /// For a refresh the server refused, why the session is over; `nil` if it is not over.
    var sessionEndReason: SignOutReason? {
        guard case .server(_, let code, _) = self else {
            return self == .accountLocked ? .locked : nil
        }
        switch code {
        case .refreshTokenReused, .sessionRevoked: return .revoked
        case .invalidRefreshToken, .sessionExpired: return .expired
        case .accountLocked: return .locked
        default: return nil
        }
    }
}
