import Metrics

/// The pipeline's counters, recorded through swift-metrics (a no-op unless `serve
/// --metrics-port` bootstrapped a registry); docs/metrics.md describes each.
package enum AuthMetrics {
    /// The `outcome` label of a sign-in or refresh: short and bounded, never a message or an identifier.
    package enum Outcome: String, Sendable, CaseIterable {
        case success
        case invalidCredentials = "invalid_credentials"
        case accountLocked = "account_locked"
        case emailNotVerified = "email_not_verified"
        case throttled
        case overloaded
        case invalidRequest = "invalid_request"
        case passkeyRejected = "passkey_rejected"
        case codeRejected = "code_rejected"
        case linkExpired = "link_expired"
        case providerFailed = "provider_failed"
        case notOffered = "not_offered"
        case invalidRefreshToken = "invalid_refresh_token"
        case refreshTokenReused = "refresh_token_reused"
        case sessionExpired = "session_expired"
        case sessionRevoked = "session_revoked"
        case error
    }

    /// One sign-in attempt through ``SignInPipeline/admit(_:from:)``.
    package static func signIn(method: SignInMethodName, outcome: Outcome) {
        Counter(label: "gatehouse_sign_in_attempts_total", dimensions: [("method", method.rawValue), ("outcome", outcome.rawValue)])
            .increment()
    }

    /// One refresh through ``SignInPipeline/refresh(_:)``.
    package static func refresh(outcome: Outcome) {
        Counter(label: "gatehouse_refreshes_total", dimensions: [("outcome", outcome.rawValue)]).increment()
    }

    /// Why an attempt failed, as its label; every case of the vocabulary is named here.
    package static func outcome(of error: any Error) -> Outcome {
        guard let error = error as? GatehouseError else { return .error }
        switch error {
        case .invalidCredentials: return .invalidCredentials
        case .accountLocked: return .accountLocked
        case .emailNotVerified, .signInToContinue: return .emailNotVerified
        case .rateLimited: return .throttled
        case .overloaded: return .overloaded
        case .invalidRequest, .payloadTooLarge, .factorLimitReached, .stepUpRequired: return .invalidRequest
        case .passkeyRejected: return .passkeyRejected
        case .codeRejected: return .codeRejected
        case .linkExpired: return .linkExpired
        case .providerSignIn: return .providerFailed
        case .refreshRejected(let failure): return outcome(of: failure)
        case .methodNotOffered, .featureNotOffered: return .notOffered
        case .passwordRejected, .passkeyTaken, .resendTooSoon, .invalidPhone, .reauthenticationRequired, .unauthenticated, .invalidToken, .sessionEnded,
             .accountNotFound, .phoneTaken, .smsUnavailable, .lastSignInMethod, .formExpired, .administration, .notFound,
             .methodNotAllowed, .unexpected:
            return .error
        }
    }

    private static func outcome(of failure: RefreshFailure) -> Outcome {
        switch failure {
        case .invalidRefreshToken: .invalidRefreshToken
        case .reused: .refreshTokenReused
        case .sessionExpired: .sessionExpired
        case .sessionRevoked: .sessionRevoked
        case .accountLocked: .accountLocked
        }
    }
}
