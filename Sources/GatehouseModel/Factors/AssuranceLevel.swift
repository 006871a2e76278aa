/// How strongly a session's person proved who they are: Supabase's `aal` claim.
///
/// `aal1` is one factor (a password, a texted code, a provider); `aal2` is two (one of those
/// and an authenticator-app code, a recovery code or a passkey), or a passkey sign-in alone,
/// which is something held and something the person is.
public enum AssuranceLevel: String, Sendable, Codable, CaseIterable, Comparable {
    case aal1
    case aal2

    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs == .aal1 && rhs == .aal2
    }
}

/// A way the person proved themselves, as the `amr` claim names it (Supabase's names).
public enum AuthenticationMethod: String, Sendable, Codable, CaseIterable {
    case password
    /// A code sent by SMS or mail.
    case otp
    /// An external provider (Google).
    case oauth
    /// A verification mail's link.
    case magiclink
    /// A password reset mail.
    case recovery
    /// A passkey.
    case webauthn
    /// An authenticator app's code.
    case totp
    /// One of the account's recovery codes (Gatehouse's own name).
    case recoveryCode = "recovery_code"
    /// A guest account's sign-in (Supabase's `signInAnonymously`).
    case anonymous
}

/// One entry of a token's `amr`: a method and when it was used, in whole seconds since 1970.
public struct AuthenticationMethodReference: Codable, Sendable, Equatable {
    public var method: AuthenticationMethod
    public var timestamp: Int

    public init(method: AuthenticationMethod, timestamp: Int) {
        self.method = method
        self.timestamp = timestamp
    }
}
