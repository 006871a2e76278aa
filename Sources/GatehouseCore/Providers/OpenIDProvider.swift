import Foundation
import GatehouseModel

/// One OpenID provider as the pipeline sees it: where to send a browser, how to trade a code
/// for an ID token, and what a verified token says.
///
/// The `GatehouseOIDC` adapter implements it over HTTP (discovery, keys, the token endpoint);
/// the core never speaks HTTP. Failures are ``ProviderFailure`` values.
package protocol OpenIDProvider: Sendable {
    /// The provider's authorization endpoint, from its discovery document.
    func authorizationEndpoint(now: Date) async throws -> String
    /// Trades an authorization code for the ID token it yields.
    func exchange(code: String, redirectURI: String, verifier: String?, clientID: String, now: Date) async throws -> String
    /// Checks an ID token's signature and claims and reads the identity it asserts.
    func verify(_ token: String, nonce: NonceCheck, now: Date) async throws -> ExternalIdentity
}

/// What a token's `nonce` must be.
package enum NonceCheck: Sendable, Equatable {
    /// Exactly this value (our own flows).
    case exact(String)
    /// GoTrue's rule for native apps: the token carries the SHA-256 (hex) of the nonce the app
    /// sent, or, when the app sent none, the token carries none either.
    case hashed(String?)
    /// The app did not say (seed 002's code exchange: the code itself was bound by our secret).
    case unchecked
}

/// Who an external provider says signed in: its `sub`, and the email and name it vouches for.
package struct ExternalIdentity: Sendable, Equatable {
    package let provider: IdentityProvider
    package let subject: String
    /// NFKC-normalised and case-folded, like every email Gatehouse compares.
    package let email: String?
    package let emailVerified: Bool
    package let name: String?
    package let picture: String?
    /// The token's `exp` plus the leeway: how long the token could be replayed.
    package var usableUntil: Date = .distantFuture

    package init(
        provider: IdentityProvider, subject: String, email: String?, emailVerified: Bool, name: String?, picture: String?,
        usableUntil: Date = .distantFuture
    ) {
        self.provider = provider
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
        self.picture = picture
        self.usableUntil = usableUntil
    }

    /// The same person at the same provider; the presenting token's lifetime is about the
    /// token, not the identity, and is left out.
    package static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.provider, lhs.subject, lhs.email, lhs.emailVerified, lhs.name, lhs.picture)
            == (rhs.provider, rhs.subject, rhs.email, rhs.emailVerified, rhs.name, rhs.picture)
    }
}
