import GatehouseCore
import LoginCore

/// What a screen says after a provider sent the browser back: the `?signin=` value the
/// callback lands on (with `&provider=<id>`), typed at both ends.
///
/// The callback answers from another request than the page that shows the outcome, so the
/// outcome travels in the landing URL; this enum is the only spelling of it. The callback picks
/// one with an exhaustive `switch` over ``GatehouseError``, and the page turns it into
/// LoginCore's ``ProviderOutcome`` with another; an unknown value (a hand-typed URL) shows nothing.
package enum ProviderLanding: String, CaseIterable, Sendable {
    case cancelled
    case failed
    case rejected
    case linkRequired = "link_required"
    case rateLimited = "rate_limited"
    case locked
    /// Home: the last way in cannot be unlinked.
    case lastMethod = "last_method"

    /// The landing for a refused sign-in with a provider.
    package init(_ error: GatehouseError) {
        switch error {
        case .providerSignIn(.cancelled): self = .cancelled
        case .providerSignIn(.linkRequired): self = .linkRequired
        case .providerSignIn(.invalidCode), .providerSignIn(.invalidToken), .providerSignIn(.invalidFlow): self = .rejected
        case .rateLimited, .resendTooSoon: self = .rateLimited
        case .accountLocked: self = .locked
        case .lastSignInMethod: self = .lastMethod
        case .providerSignIn(.providerUnavailable), .providerSignIn(.identityTaken), .providerSignIn(.notConfigured),
             .providerSignIn(.redirectNotAllowed), .invalidRequest, .payloadTooLarge, .invalidCredentials, .overloaded,
             .unauthenticated, .invalidToken, .sessionEnded, .refreshRejected, .invalidPhone, .accountNotFound, .phoneTaken,
             .codeRejected, .smsUnavailable, .formExpired, .methodNotOffered, .administration, .notFound, .methodNotAllowed, .unexpected,
             .emailNotVerified, .passwordRejected, .linkExpired, .featureNotOffered, .passkeyRejected, .passkeyTaken,
             .reauthenticationRequired, .signInToContinue, .factorLimitReached, .stepUpRequired:
            self = .failed
        }
    }

    /// `path?signin=value&provider=id`.
    package func url(_ path: String, provider: SignInMethods.Method) -> String {
        "\(path)?signin=\(rawValue)&provider=\(provider.rawValue)"
    }

    /// What the provider button shows for this landing; `nil` for Home's own notice.
    package var outcome: ProviderOutcome? {
        switch self {
        case .cancelled: .cancelled
        case .failed: .failed(.providerFailed)
        case .rejected: .failed(.providerCodeRejected)
        case .linkRequired: .failed(.providerLinkRequired)
        case .rateLimited: .failed(.rateLimited(retryAfter: nil))
        case .locked: .failed(.accountLocked)
        case .lastMethod: nil
        }
    }
}
