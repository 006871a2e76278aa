/// The `extensions.code` of a GraphQL error from seed 001's API, shared by the server, which
/// sends them, and the SDK, which reads them: one table, so neither side derives a code from
/// another surface's string.
public enum GraphQLErrorCode: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The code as it is sent.
    public var description: String { rawValue }

    case invalidCredentials = "INVALID_CREDENTIALS"
    case accountLocked = "ACCOUNT_LOCKED"
    case emailNotVerified = "EMAIL_NOT_VERIFIED"
    case emailVerifiedSignIn = "EMAIL_VERIFIED_SIGN_IN"
    case tooManyFactors = "TOO_MANY_FACTORS"
    case mfaRequired = "MFA_REQUIRED"
    case rateLimited = "RATE_LIMITED"
    case resendTooSoon = "RESEND_TOO_SOON"
    case serverBusy = "SERVER_BUSY"
    case unauthenticated = "UNAUTHENTICATED"
    case badUserInput = "BAD_USER_INPUT"
    case validationFailed = "GRAPHQL_VALIDATION_FAILED"
    case internalServerError = "INTERNAL_SERVER_ERROR"
    case invalidRefreshToken = "INVALID_REFRESH_TOKEN"
    case refreshTokenReused = "REFRESH_TOKEN_REUSED"
    case sessionExpired = "SESSION_EXPIRED"
    case sessionRevoked = "SESSION_REVOKED"
    case invalidPhone = "INVALID_PHONE"
    case accountNotFound = "ACCOUNT_NOT_FOUND"
    case phoneTaken = "PHONE_TAKEN"
    case invalidCode = "INVALID_CODE"
    case codeExpired = "CODE_EXPIRED"
    case codeAttemptsExceeded = "CODE_ATTEMPTS_EXCEEDED"
    case smsUnavailable = "SMS_UNAVAILABLE"
    case providerCancelled = "PROVIDER_CANCELLED"
    case providerUnavailable = "PROVIDER_UNAVAILABLE"
    case providerCodeRejected = "PROVIDER_CODE_REJECTED"
    case invalidIDToken = "INVALID_ID_TOKEN"
    case invalidFlowState = "INVALID_FLOW_STATE"
    case linkRequired = "LINK_REQUIRED"
    case identityTaken = "IDENTITY_TAKEN"
    case providerDisabled = "PROVIDER_DISABLED"
    case redirectNotAllowed = "REDIRECT_NOT_ALLOWED"
    case lastSignInMethod = "LAST_SIGN_IN_METHOD"
    case signInMethodNotOffered = "SIGN_IN_METHOD_NOT_OFFERED"
    case emailTaken = "EMAIL_TAKEN"
    case notFound = "NOT_FOUND"
    case weakPassword = "WEAK_PASSWORD"
    case featureDisabled = "FEATURE_DISABLED"
    case linkExpired = "LINK_EXPIRED"
    case passkeyRejected = "PASSKEY_REJECTED"
    case passkeyUnknown = "PASSKEY_UNKNOWN"
    case passkeyChallengeExpired = "PASSKEY_CHALLENGE_EXPIRED"
    case passkeyTaken = "PASSKEY_TAKEN"
    case reauthenticationRequired = "REAUTHENTICATION_REQUIRED"

    /// The REST API's code for the same failure (seed 000's `error`); `nil` for an unexpected
    /// failure, which REST answers with a 5xx and no code of its own.
    public var serverCode: ServerErrorCode? {
        switch self {
        case .invalidCredentials: .invalidCredentials
        case .accountLocked: .accountLocked
        case .emailNotVerified: .emailNotVerified
        case .emailVerifiedSignIn: .emailVerifiedSignIn
        case .tooManyFactors: .tooManyFactors
        case .mfaRequired: .insufficientAAL
        case .rateLimited: .rateLimited
        case .resendTooSoon: .resendTooSoon
        case .serverBusy: .serverBusy
        case .unauthenticated: .invalidToken
        case .badUserInput, .validationFailed: .invalidRequest
        case .internalServerError: nil
        case .invalidRefreshToken: .invalidRefreshToken
        case .refreshTokenReused: .refreshTokenReused
        case .sessionExpired: .sessionExpired
        case .sessionRevoked: .sessionRevoked
        case .invalidPhone: .invalidPhone
        case .accountNotFound: .accountNotFound
        case .phoneTaken: .phoneTaken
        case .invalidCode: .invalidCode
        case .codeExpired: .codeExpired
        case .codeAttemptsExceeded: .codeAttemptsExceeded
        case .smsUnavailable: .smsUnavailable
        case .providerCancelled: .providerCancelled
        case .providerUnavailable: .providerUnavailable
        case .providerCodeRejected: .providerCodeRejected
        case .invalidIDToken: .invalidIDToken
        case .invalidFlowState: .invalidFlowState
        case .linkRequired: .linkRequired
        case .identityTaken: .identityTaken
        case .providerDisabled: .providerDisabled
        case .redirectNotAllowed: .redirectNotAllowed
        case .lastSignInMethod: .lastSignInMethod
        case .signInMethodNotOffered: .signInMethodNotOffered
        case .emailTaken: .emailTaken
        case .notFound: .notFound
        case .weakPassword: .weakPassword
        case .featureDisabled: .featureDisabled
        case .linkExpired: .linkExpired
        case .passkeyRejected: .passkeyRejected
        case .passkeyUnknown: .passkeyUnknown
        case .passkeyChallengeExpired: .passkeyChallengeExpired
        case .passkeyTaken: .passkeyTaken
        case .reauthenticationRequired: .reauthenticationRequired
        }
    }
}
