import Metrics

/// The pipeline's counters, recorded through swift-metrics (a no-op unless `serve
/// --metrics-port` bootstrapped a registry); docs/metrics.md describes each.
package enum AuthMetrics {
    /// One sign-in attempt through ``AuthService/admit(_:from:)``.
    package static func signIn(method: String, outcome: String) {
        Counter(label: "gatehouse_sign_in_attempts_total", dimensions: [("method", method), ("outcome", outcome)]).increment()
    }

    /// One refresh through ``AuthService/refresh(_:)``.
    package static func refresh(outcome: String) {
        Counter(label: "gatehouse_refreshes_total", dimensions: [("outcome", outcome)]).increment()
    }

    /// A short, bounded label for why an attempt failed (never a message or an identifier).
    package static func outcome(of error: any Error) -> String {
        guard let error = error as? GatehouseError else { return "error" }
        switch error {
        case .invalidCredentials: return "invalid_credentials"
        case .accountLocked: return "account_locked"
        case .emailNotVerified: return "email_not_verified"
        case .rateLimited: return "throttled"
        case .overloaded: return "overloaded"
        case .invalidRequest, .payloadTooLarge: return "invalid_request"
        case .passkeyRejected: return "passkey_rejected"
        case .codeRejected: return "code_rejected"
        case .linkExpired: return "link_expired"
        case .providerSignIn: return "provider_failed"
        case .refreshRejected(let failure): return failure.rawValue
        case .methodNotOffered, .featureNotOffered: return "not_offered"
        default: return "error"
        }
    }
}
