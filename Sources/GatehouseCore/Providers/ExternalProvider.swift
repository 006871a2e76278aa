import Foundation
import GatehouseModel

/// One external provider as the pipeline sees it: where to send a browser, how to turn the
/// code it returns into an identity, and what a verified ID token says.
///
/// The `GatehouseOIDC` adapter implements it over HTTP: OpenID Connect (discovery, keys, the
/// token endpoint) for Google, Microsoft and any issuer, and GitHub's OAuth 2.0 with its user
/// API. The core never speaks HTTP. Failures are ``ProviderFailure`` values.
package protocol ExternalProvider: Sendable {
    /// The provider's authorization endpoint (from its discovery document, where it has one).
    func authorizationEndpoint(now: Date) async throws -> String
    /// Trades an authorization code (with its PKCE verifier) for the identity it proves: an ID
    /// token checked against `nonce`, or, for GitHub, the user API's answer.
    func identity(fromCode code: String, redirectURI: String, verifier: String?, nonce: NonceCheck, now: Date) async throws
        -> ExternalIdentity
    /// Checks an ID token an app obtained itself; a provider without ID tokens refuses.
    func verify(_ token: String, nonce: NonceCheck, now: Date) async throws -> ExternalIdentity
    /// Revokes a refresh token at the provider (RFC 7009, Apple's `/auth/revoke`); `false` when
    /// the provider has no revocation endpoint.
    func revoke(refreshToken: String, now: Date) async throws -> Bool
    /// Checks a server-to-server notice the provider signed (Apple's) and reads it.
    func notice(_ signed: String, now: Date) async throws -> ProviderNotice
}

extension ExternalProvider {
    package func revoke(refreshToken: String, now: Date) async throws -> Bool { false }
    package func notice(_ signed: String, now: Date) async throws -> ProviderNotice {
        throw ProviderFailure.invalidToken("this provider sends no notices")
    }
}

/// What a provider's signed notice says happened to one of its identities.
package struct ProviderNotice: Sendable, Equatable {
    package let kind: ProviderNoticeKind
    package let subject: String

    package init(kind: ProviderNoticeKind, subject: String) {
        self.kind = kind
        self.subject = subject
    }
}

/// Apple's server-to-server notices.
public enum ProviderNoticeKind: String, Sendable, Equatable, CaseIterable {
    /// The person stopped using Sign in with Apple with this app.
    case consentRevoked = "consent-revoked"
    /// The person deleted their Apple account.
    case accountDelete = "account-delete"
    /// The person stopped forwarding mail from their private relay address.
    case emailDisabled = "email-disabled"
    case emailEnabled = "email-enabled"

    /// Whether the identity can no longer sign in: its sessions end and it is unlinked.
    package var endsTheIdentity: Bool { self == .consentRevoked || self == .accountDelete }
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
    package var emailVerified: Bool
    package var name: String?
    package let picture: String?
    /// Apple's private relay address (`is_private_email`), kept on the identity.
    package var isPrivateEmail = false
    /// The provider's refresh token from a code exchange, kept sealed to revoke access later.
    package var refreshToken: String?
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

    /// The identity with the name a provider gave outside its token (Apple's first
    /// authorisation), where the token named nobody.
    package func naming(_ posted: String?) -> ExternalIdentity {
        guard name?.isEmpty ?? true, let posted, !posted.isEmpty else { return self }
        var copy = self
        copy.name = posted
        return copy
    }

    /// The same person at the same provider; the presenting token's lifetime is about the
    /// token, not the identity, and is left out.
    package static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.provider, lhs.subject, lhs.email, lhs.emailVerified, lhs.name, lhs.picture)
            == (rhs.provider, rhs.subject, rhs.email, rhs.emailVerified, rhs.name, rhs.picture)
    }
}
