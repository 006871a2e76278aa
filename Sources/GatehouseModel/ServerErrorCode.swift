/// An `error` code from the server's JSON body; open, so new server codes need no SDK update.
public struct ServerErrorCode: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }

    public static let invalidRequest: Self = "invalid_request"
    public static let invalidCredentials: Self = "invalid_credentials"
    public static let accountLocked: Self = "account_locked"
    public static let emailNotVerified: Self = "email_not_verified"
    /// A sign-up's link used away from where the sign-up was made: verified, not signed in.
    public static let emailVerifiedSignIn: Self = "email_verified_sign_in"
    /// The account has as many second factors as it may (GoTrue's code too).
    public static let tooManyFactors: Self = "too_many_enrolled_factors"
    /// A sensitive action needs a session that proved the second factor in the last 10 minutes (GoTrue's code too).
    public static let insufficientAAL: Self = "insufficient_aal"
    public static let invalidToken: Self = "invalid_token"
    public static let invalidRefreshToken: Self = "invalid_refresh_token"
    public static let refreshTokenReused: Self = "refresh_token_reused"
    public static let sessionExpired: Self = "session_expired"
    public static let sessionRevoked: Self = "session_revoked"
    public static let rateLimited: Self = "rate_limited"
}

extension ServerErrorCode {
    /// The server's hashing queue is full; try again after `Retry-After` (503).
    public static let serverBusy: Self = "server_busy"
    /// Not a number a code can be sent to (seed 004).
    public static let invalidPhone: Self = "invalid_phone"
    /// No account has this number (seed 004: "No account found. Create one?").
    public static let accountNotFound: Self = "account_not_found"
    /// Registration: the number already has an account.
    public static let phoneTaken: Self = "phone_taken"
    /// A wrong one-time code; `attempts_left` says how many tries remain.
    public static let invalidCode: Self = "invalid_code"
    /// The code expired, was used, or was replaced by a resend (410).
    public static let codeExpired: Self = "code_expired"
    /// Too many wrong tries: the code is burned (429).
    public static let codeAttemptsExceeded: Self = "code_attempts_exceeded"
    /// A code went to this number moments ago: wait `retry_after` seconds for a new one (429).
    /// Not a limit: screens show the resend countdown, not an error.
    public static let resendTooSoon: Self = "resend_too_soon"
    /// The SMS provider failed; not the user's connection (503).
    public static let smsUnavailable: Self = "sms_unavailable"
}

extension ServerErrorCode {
    /// The person declined at the provider (Google); show no error.
    public static let providerCancelled: Self = "provider_cancelled"
    /// The provider could not be reached or failed (seed 002: "Google sign-in failed").
    public static let providerUnavailable: Self = "provider_unavailable"
    /// The provider refused the authorization code (seed 002: "Authentication failed").
    public static let providerCodeRejected: Self = "provider_code_rejected"
    /// The provider's ID token failed validation.
    public static let invalidIDToken: Self = "invalid_id_token"
    /// A provider flow's state is missing, forged, used or expired.
    public static let invalidFlowState: Self = "invalid_flow_state"
    /// The email belongs to an account: sign in with its password first, then link the provider.
    public static let linkRequired: Self = "link_required"
    /// The provider identity belongs to another account.
    public static let identityTaken: Self = "identity_taken"
    /// The server has no such provider.
    public static let providerDisabled: Self = "provider_disabled"
    /// A return address that is not on the allow-list.
    public static let redirectNotAllowed: Self = "redirect_not_allowed"
    /// Removing this way in would leave the account with none.
    public static let lastSignInMethod: Self = "last_sign_in_method"
    /// A web form whose CSRF token does not match its cookie: reload the page (403).
    public static let csrf: Self = "csrf"
    /// The app does not offer this way in (email, phone or Google).
    public static let signInMethodNotOffered: Self = "sign_in_method_not_offered"
}

extension ServerErrorCode {
    /// The request body is larger than the route accepts (413).
    public static let payloadTooLarge: Self = "payload_too_large"
    /// No credentials where they are required (401).
    public static let unauthorized: Self = "unauthorized"
    /// No such route or file (404).
    public static let notFound: Self = "not_found"
    /// The route does not take this method (405).
    public static let methodNotAllowed: Self = "method_not_allowed"
    /// The server failed; not the caller's fault (500).
    public static let serverError: Self = "server_error"
    /// An operator's new account: the email already has one (409).
    public static let emailTaken: Self = "email_taken"
}

extension ServerErrorCode {
    /// A new password the policy refuses: too short, too long, too common or breached (400).
    public static let weakPassword: Self = "weak_password"
    /// The app does not offer this (sign-up or password reset) (403).
    public static let featureDisabled: Self = "feature_disabled"
    /// A mail link or code that cannot be used: expired, used, replaced or unknown (410).
    public static let linkExpired: Self = "link_expired"
}

extension ServerErrorCode {
    /// A passkey response failed a WebAuthn check (400, or 401 for a bad signature).
    public static let passkeyRejected: Self = "passkey_rejected"
    /// No account has this passkey: it was removed, or made elsewhere. Browsers are told to forget it (401).
    public static let passkeyUnknown: Self = "passkey_unknown"
    /// The ceremony's challenge expired, was used, or belongs to another session: start again (400).
    public static let passkeyChallengeExpired: Self = "passkey_challenge_expired"
    /// The credential is registered already (409).
    public static let passkeyTaken: Self = "passkey_taken"
    /// Adding a passkey needs a sign-in within the last 10 minutes (401).
    public static let reauthenticationRequired: Self = "reauthentication_required"
}
