/// The `error_code` of a Supabase Auth (GoTrue) error, as seed 003's API sends them: the subset
/// Gatehouse speaks, shared by the server and the SDK's Supabase transport.
public enum GoTrueErrorCode: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The code as it is sent.
    public var description: String { rawValue }

    case validationFailed = "validation_failed"
    case requestTooLarge = "request_too_large"
    case invalidCredentials = "invalid_credentials"
    case userBanned = "user_banned"
    case emailNotConfirmed = "email_not_confirmed"
    /// Gatehouse's own: a sign-up's link used away from where the sign-up was made.
    case emailVerifiedSignIn = "email_verified_sign_in"
    case tooManyEnrolledFactors = "too_many_enrolled_factors"
    case insufficientAAL = "insufficient_aal"
    case mfaTOTPEnrollDisabled = "mfa_totp_enroll_not_enabled"
    case mfaFactorNotFound = "mfa_factor_not_found"
    case mfaChallengeExpired = "mfa_challenge_expired"
    case mfaVerificationFailed = "mfa_verification_failed"
    case overRequestRateLimit = "over_request_rate_limit"
    case overEmailSendRateLimit = "over_email_send_rate_limit"
    case overSMSSendRateLimit = "over_sms_send_rate_limit"
    case unexpectedFailure = "unexpected_failure"
    case noAuthorization = "no_authorization"
    case invalidAPIKey = "invalid_api_key"
    /// The admin API was called without the service role key.
    case notAdmin = "not_admin"
    case badJWT = "bad_jwt"
    case sessionNotFound = "session_not_found"
    case refreshTokenNotFound = "refresh_token_not_found"
    case refreshTokenAlreadyUsed = "refresh_token_already_used"
    case sessionExpired = "session_expired"
    case otpDisabled = "otp_disabled"
    case otpExpired = "otp_expired"
    case phoneExists = "phone_exists"
    case smsSendFailed = "sms_send_failed"
    case accessDenied = "access_denied"
    case badOAuthCallback = "bad_oauth_callback"
    case flowStateNotFound = "flow_state_not_found"
    case emailExists = "email_exists"
    case identityAlreadyExists = "identity_already_exists"
    case providerDisabled = "provider_disabled"
    case emailProviderDisabled = "email_provider_disabled"
    case phoneProviderDisabled = "phone_provider_disabled"
    case anonymousProviderDisabled = "anonymous_provider_disabled"
    case singleIdentityNotDeletable = "single_identity_not_deletable"
    case identityNotFound = "identity_not_found"
    case notFound = "not_found"
    case requestError = "request_error"
    case userNotFound = "user_not_found"
    case methodNotAllowed = "method_not_allowed"
    case weakPassword = "weak_password"
    case signupDisabled = "signup_disabled"
    case reauthenticationNeeded = "reauthentication_needed"

    /// Gatehouse's REST code for the same failure, or `nil` where there is none (GoTrue's
    /// gateway and routing answers).
    public var serverCode: ServerErrorCode? {
        switch self {
        case .validationFailed: .invalidRequest
        case .invalidCredentials: .invalidCredentials
        case .userBanned: .accountLocked
        case .emailNotConfirmed: .emailNotVerified
        case .emailVerifiedSignIn: .emailVerifiedSignIn
        case .tooManyEnrolledFactors: .tooManyFactors
        case .insufficientAAL: .insufficientAAL
        case .mfaTOTPEnrollDisabled: .featureDisabled
        case .mfaFactorNotFound: .notFound
        case .mfaChallengeExpired: .codeExpired
        case .mfaVerificationFailed: .invalidCode
        case .overRequestRateLimit, .overEmailSendRateLimit: .rateLimited
        case .overSMSSendRateLimit: .resendTooSoon
        case .noAuthorization, .badJWT: .invalidToken
        case .sessionNotFound: .sessionRevoked
        case .refreshTokenNotFound: .invalidRefreshToken
        case .refreshTokenAlreadyUsed: .refreshTokenReused
        case .sessionExpired: .sessionExpired
        case .otpDisabled: .accountNotFound
        case .otpExpired: .codeExpired
        case .phoneExists: .phoneTaken
        case .smsSendFailed: .smsUnavailable
        case .accessDenied: .providerCancelled
        case .badOAuthCallback: .providerCodeRejected
        case .flowStateNotFound: .invalidFlowState
        case .emailExists: .linkRequired
        case .identityAlreadyExists: .identityTaken
        case .providerDisabled: .providerDisabled
        case .emailProviderDisabled, .phoneProviderDisabled, .anonymousProviderDisabled: .signInMethodNotOffered
        case .singleIdentityNotDeletable: .lastSignInMethod
        case .userNotFound: .accountNotFound
        case .weakPassword: .weakPassword
        case .signupDisabled: .featureDisabled
        case .reauthenticationNeeded: .reauthenticationRequired
        case .requestTooLarge, .unexpectedFailure, .invalidAPIKey, .notAdmin, .notFound, .requestError, .methodNotAllowed, .identityNotFound: nil
        }
    }
}
