import GatehouseModel

/// How an error is presented wherever it is shown: its HTTP status, REST's code, the default
/// text, the wait before a retry, the tries left, and the `WWW-Authenticate` challenge.
///
/// The one place these are decided. REST renders it as it is; GraphQL takes its text and wait
/// under codes of its own; the web takes its status and wait for the page it renders; GoTrue's
/// compatibility shape keeps only what Supabase's clients expect. No surface reads another's.
public struct ErrorPresentation: Sendable, Equatable {
    /// The HTTP status (400, 401, 403, …).
    public let status: Int
    /// REST's machine-readable code.
    public let code: ServerErrorCode
    /// The default text: never a password, a token, or what a person typed.
    public let text: String
    /// Seconds until a retry may succeed (429 and 503).
    public let retryAfter: Int?
    /// Tries left on a one-time code.
    public let attemptsLeft: Int?
    /// The `WWW-Authenticate` challenge of a refused Bearer token.
    public let challenge: String?

    public init(
        status: Int, code: ServerErrorCode, text: String, retryAfter: Int? = nil, attemptsLeft: Int? = nil, challenge: String? = nil
    ) {
        self.status = status
        self.code = code
        self.text = text
        self.retryAfter = retryAfter
        self.attemptsLeft = attemptsLeft
        self.challenge = challenge
    }
}

extension GatehouseError {
    /// This error's one presentation.
    public var presentation: ErrorPresentation {
        switch self {
        case .invalidRequest(let message):
            ErrorPresentation(status: 400, code: .invalidRequest, text: message)
        case .payloadTooLarge(let limit):
            ErrorPresentation(status: 413, code: .payloadTooLarge, text: "The request body must be at most \(limit) bytes")
        case .invalidCredentials:
            ErrorPresentation(status: 401, code: .invalidCredentials, text: "Invalid email or password")
        case .accountLocked:
            ErrorPresentation(status: 403, code: .accountLocked, text: RefreshFailure.accountLocked.message)
        case .emailNotVerified:
            ErrorPresentation(status: 403, code: .emailNotVerified, text: "Please verify your email address.")
        case .signInToContinue:
            ErrorPresentation(status: 403, code: .emailVerifiedSignIn, text: "Email verified. Sign in to continue.")
        case .factorLimitReached(let maximum):
            ErrorPresentation(status: 422, code: .tooManyFactors, text: "An account can have at most \(maximum) second factors. Remove one first.")
        case .stepUpRequired:
            ErrorPresentation(
                status: 403, code: .insufficientAAL,
                text: "Confirm it's you with your second factor first: enter a code from your authenticator app."
            )
        case .passwordRejected(let rejection):
            ErrorPresentation(status: 400, code: .weakPassword, text: rejection.message)
        case .linkExpired:
            ErrorPresentation(status: 410, code: .linkExpired, text: "This link has expired or was already used. Please request a new one.")
        case .featureNotOffered(let feature):
            ErrorPresentation(status: 403, code: .featureDisabled, text: "This app does not offer \(feature.displayName)")
        case .passkeyRejected(.unknownCredential):
            ErrorPresentation(status: 401, code: .passkeyUnknown, text: "This passkey is not registered here")
        case .passkeyRejected(.challengeExpired):
            ErrorPresentation(
                status: 400, code: .passkeyChallengeExpired, text: "The passkey request expired or was already used. Please try again."
            )
        case .passkeyRejected(.signatureInvalid), .passkeyRejected(.userHandleMismatch), .passkeyRejected(.signCountRegressed):
            ErrorPresentation(status: 401, code: .passkeyRejected, text: "The passkey could not be verified")
        case .passkeyRejected:
            ErrorPresentation(status: 400, code: .passkeyRejected, text: "The passkey could not be verified")
        case .passkeyTaken:
            ErrorPresentation(status: 409, code: .passkeyTaken, text: "This passkey is already registered")
        case .reauthenticationRequired:
            ErrorPresentation(
                status: 401, code: .reauthenticationRequired, text: "Please sign in again to continue",
                challenge: #"Bearer error="insufficient_user_authentication""#
            )
        case .rateLimited(let seconds):
            ErrorPresentation(
                status: 429, code: .rateLimited, text: "Too many attempts. Please try again in \(seconds) seconds.", retryAfter: seconds
            )
        case .resendTooSoon(let seconds):
            ErrorPresentation(
                status: 429, code: .resendTooSoon, text: "A code was just sent. You can ask for a new one in \(seconds) seconds.",
                retryAfter: seconds
            )
        case .overloaded(let seconds):
            ErrorPresentation(status: 503, code: .serverBusy, text: "The server is busy. Please try again shortly.", retryAfter: seconds)
        case .unauthenticated:
            ErrorPresentation(status: 401, code: .unauthorized, text: "A Bearer access token is required", challenge: "Bearer")
        case .invalidToken(let message):
            ErrorPresentation(status: 401, code: .invalidToken, text: message, challenge: #"Bearer error="invalid_token""#)
        case .sessionEnded:
            GatehouseError.invalidToken("The session has ended").presentation
        case .refreshRejected(let failure):
            ErrorPresentation(status: failure == .accountLocked ? 403 : 401, code: failure.code, text: failure.message)
        case .invalidPhone:
            ErrorPresentation(status: 400, code: .invalidPhone, text: "Please enter a valid mobile number")
        case .accountNotFound:
            ErrorPresentation(status: 404, code: .accountNotFound, text: "No account found. Create one?")
        case .phoneTaken:
            ErrorPresentation(status: 409, code: .phoneTaken, text: "An account with this number already exists")
        case .codeRejected(.incorrect(let left)):
            ErrorPresentation(
                status: 400, code: .invalidCode, text: "Incorrect code. \(left) \(left == 1 ? "attempt" : "attempts") left.", attemptsLeft: left
            )
        case .codeRejected(.expired):
            ErrorPresentation(status: 410, code: .codeExpired, text: "This code has expired. Request a new one.")
        case .codeRejected(.exhausted):
            ErrorPresentation(status: 429, code: .codeAttemptsExceeded, text: "Too many incorrect codes. Request a new one.", attemptsLeft: 0)
        case .smsUnavailable(let seconds):
            ErrorPresentation(
                status: 503, code: .smsUnavailable, text: "We couldn't send the code just now. Please try again shortly.", retryAfter: seconds
            )
        case .providerSignIn(let failure):
            failure.presentation
        case .lastSignInMethod:
            ErrorPresentation(
                status: 409, code: .lastSignInMethod, text: "This is the account's last way to sign in; add another before removing it."
            )
        case .formExpired:
            ErrorPresentation(status: 403, code: .csrf, text: "The form expired; reload the page and try again")
        case .methodNotOffered(let method):
            ErrorPresentation(status: 403, code: .signInMethodNotOffered, text: "This app does not offer sign-in with \(method.displayName)")
        case .administration(let failure):
            failure.presentation
        case .notFound:
            ErrorPresentation(status: 404, code: .notFound, text: "No such route or file")
        case .methodNotAllowed:
            ErrorPresentation(status: 405, code: .methodNotAllowed, text: "This route does not take that method")
        case .unexpected:
            ErrorPresentation(status: 500, code: .serverError, text: "Something went wrong. Please try again.")
        }
    }
}

extension AdministrationError {
    /// An operator's refused operation: the rule's copy, never the input.
    public var presentation: ErrorPresentation {
        switch self {
        case .invalidEmail(let rule), .invalidPassword(let rule), .invalidName(let rule):
            ErrorPresentation(status: 400, code: .invalidRequest, text: rule)
        case .invalidPhone:
            GatehouseError.invalidPhone.presentation
        case .emailTaken:
            ErrorPresentation(status: 409, code: .emailTaken, text: "An account with this email already exists")
        case .phoneTaken:
            GatehouseError.phoneTaken.presentation
        case .noSuchUser, .noSuchAccount:
            ErrorPresentation(status: 404, code: .accountNotFound, text: "No such account")
        }
    }
}

extension ProviderFailure {
    /// A provider sign-in's failure, in seed 002's words where it has them.
    public var presentation: ErrorPresentation {
        switch self {
        case .cancelled:
            ErrorPresentation(status: 400, code: .providerCancelled, text: "Sign-in cancelled")
        case .providerUnavailable:
            ErrorPresentation(status: 502, code: .providerUnavailable, text: "Google sign-in failed. Please try again.")
        case .invalidCode:
            ErrorPresentation(status: 401, code: .providerCodeRejected, text: "Authentication failed. Please try again.")
        case .invalidToken(let reason):
            ErrorPresentation(status: 401, code: .invalidIDToken, text: "The ID token was refused: \(reason)")
        case .invalidFlow:
            ErrorPresentation(status: 400, code: .invalidFlowState, text: "This sign-in expired or was already used. Please start again.")
        case .linkRequired:
            ErrorPresentation(
                status: 409, code: .linkRequired,
                text: "An account with this email already exists. Sign in with your password, then link Google from your account."
            )
        case .identityTaken:
            ErrorPresentation(status: 409, code: .identityTaken, text: "This Google account is linked to another account.")
        case .notConfigured:
            ErrorPresentation(status: 404, code: .providerDisabled, text: "Google sign-in is not enabled")
        case .redirectNotAllowed:
            ErrorPresentation(status: 400, code: .redirectNotAllowed, text: "The return address is not allowed")
        }
    }
}
