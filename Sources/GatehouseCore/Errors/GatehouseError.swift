import GatehouseModel
import LoginCore

/// Every way a Gatehouse operation can fail, independent of the surface that reports it.
///
/// This is the domain's one error vocabulary. Its status, REST code, default text and wait are
/// decided once, in ``presentation``; each surface renders its own wire shape with one
/// exhaustive `switch`: GraphQL in ``GraphQLFailure/make(_:messages:)``, Supabase Auth in
/// ``GoTrueError/init(_:)`` and the web page in ``WebController/failure(for:)``, while REST's
/// ``APIError/init(_:)`` is the presentation itself. Adding a case is a compile error in each
/// until it is mapped.
public enum GatehouseError: Error, Equatable, Sendable {
    /// The request is malformed; the text names the field, never its value.
    case invalidRequest(String)
    /// The request body is larger than the route accepts (bytes).
    case payloadTooLarge(limit: Int)
    /// Wrong identifier or secret; the same for an unknown account (seed 000 C2).
    case invalidCredentials
    /// The account is locked; only said to a caller who proved the password.
    case accountLocked
    /// The app requires a verified email and this account's is not; like ``accountLocked``,
    /// only said to a caller who proved the password.
    case emailNotVerified
    /// A sign-up's mail was used away from where the sign-up was made: the address is now
    /// verified, and the person signs in with their password to continue.
    case signInToContinue
    /// The account has as many second factors as it may (issue 37); one must go first.
    case factorLimitReached(maximum: Int)
    /// The account has a second factor and this session has not proved it (or not in the
    /// last 10 minutes): a sensitive action needs a step up first.
    case stepUpRequired
    /// A new password the policy refuses (sign-up, reset, change); the rejection carries the
    /// app's copy.
    case passwordRejected(PasswordRejection)
    /// A mail link or code that cannot be used: expired, used, replaced by a newer one, or unknown.
    case linkExpired
    /// The app does not offer this (its `accounts` options): sign-up or password reset.
    case featureNotOffered(AccountFeature)
    /// A passkey response that fails a WebAuthn check; the failure names the check for logs,
    /// and surfaces say only the codes a client acts on.
    case passkeyRejected(PasskeyFailure)
    /// The credential is registered already (to this account or another).
    case passkeyTaken
    /// Adding a passkey needs a sign-in within the last 10 minutes.
    case reauthenticationRequired
    /// Too many attempts; refused before any hashing. Whole seconds until a retry may succeed.
    case rateLimited(retryAfter: Int)
    /// A code went to this number moments ago: not a limit but the resend window. Seconds until
    /// a new code may be sent; screens show the resend countdown, not an error.
    case resendTooSoon(retryAfter: Int)
    /// The server's hashing queue is full; nothing was checked. Seconds to wait.
    case overloaded(retryAfter: Int)
    /// No credentials were presented where they are required.
    case unauthenticated
    /// The access token is malformed, forged, expired or not ours; the text says which.
    case invalidToken(String)
    /// A valid access token whose session is over (logged out, revoked, expired or locked).
    case sessionEnded
    /// A refresh token that cannot be exchanged; the failure says why.
    case refreshRejected(RefreshFailure)
    /// Not a number that can receive a code (invalid, not mobile, or a region not allowed).
    case invalidPhone
    /// No account has this number (seed 004); said only after every limit has passed.
    case accountNotFound
    /// The number already belongs to an account (registration).
    case phoneTaken
    /// A one-time code that cannot be used; the failure says why.
    case codeRejected(CodeFailure)
    /// The SMS provider failed or the SMS budget is spent; not the user's fault. Seconds to wait.
    case smsUnavailable(retryAfter: Int)
    /// Signing in with an external provider (Google) did not succeed; the failure says why.
    case providerSignIn(ProviderFailure)
    /// Removing this way in would leave the account with none.
    case lastSignInMethod
    /// A web form whose CSRF token does not match its cookie (an old page, or another site's form).
    case formExpired
    /// The app does not offer this way in (its `signIn.methods`); the same refusal on every surface.
    case methodNotOffered(SignInMethods.Method)
    /// An operator's operation was refused (create, lock, set a password, delete); the failure
    /// says why. Its description, which names the operator's input, is the CLI's alone: a
    /// network surface renders the case, never the text.
    case administration(AdministrationError)
    /// No such route or file.
    case notFound
    /// The route exists, but not for this method.
    case methodNotAllowed
    /// Something the server did not expect; never the caller's fault, and never described to them.
    case unexpected
}

/// Why a sign-in with an external provider (Google) did not succeed.
public enum ProviderFailure: Error, Sendable, Equatable {
    /// The person declined at the provider; not an error to show.
    case cancelled
    /// The provider could not be reached or answered nonsense; not the person's fault.
    case providerUnavailable
    /// The provider refused the authorization code (seed 002: "Authentication failed").
    case invalidCode
    /// An ID token that fails validation; the text says which check, never the token.
    case invalidToken(String)
    /// A flow's state is missing, forged, used, expired or bound to another browser.
    case invalidFlow
    /// The provider's email belongs to an account this sign-in may not join yet: sign in with
    /// the password first, then link.
    case linkRequired
    /// The identity is already linked to another account.
    case identityTaken
    /// The server has no such provider configured.
    case notConfigured
    /// A return address that is not on the allow-list.
    case redirectNotAllowed
}

/// Why a one-time code was refused.
public enum CodeFailure: Sendable, Equatable {
    /// Wrong code; this many tries are left.
    case incorrect(attemptsLeft: Int)
    /// Past its lifetime, already used, replaced by a resend, or unknown.
    case expired
    /// Too many wrong tries: the code is burned.
    case exhausted
}

/// Why a refresh token was refused; each is a distinct code clients can act on.
public enum RefreshFailure: Sendable {
    /// Unknown token.
    case invalidRefreshToken
    /// A rotated token was presented after the grace window; the session is now revoked.
    case reused
    /// The session reached its absolute lifetime.
    case sessionExpired
    /// The session was ended by logout, a password change or an administrator.
    case sessionRevoked
    case accountLocked

    /// REST's code for it.
    package var code: ServerErrorCode {
        switch self {
        case .invalidRefreshToken: .invalidRefreshToken
        case .reused: .refreshTokenReused
        case .sessionExpired: .sessionExpired
        case .sessionRevoked: .sessionRevoked
        case .accountLocked: .accountLocked
        }
    }

    package var message: String {
        switch self {
        case .invalidRefreshToken: "The refresh token is not valid"
        case .reused: "The refresh token was already used; the session has been ended"
        case .sessionExpired: "Your session has expired. Please sign in again."
        case .sessionRevoked: "The session has ended. Please sign in again."
        case .accountLocked: "Your account has been locked. Please contact support."
        }
    }
}

extension GatehouseError {
    /// Whether this refuses a one-time code or mail link as wrong, used up, expired or unknown:
    /// what the pipeline counts like a wrong password.
    package var isSpentOrWrongSecret: Bool {
        if case .codeRejected = self { return true }
        if case .linkExpired = self { return true }
        return false
    }
}
