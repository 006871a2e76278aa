import Foundation

/// What a provider gave with an identity beyond its subject: Apple's private relay flag, and a
/// refresh token (sealed under the key-encryption key) that revokes the app's access at the
/// provider when the identity is unlinked or the account is deleted.
public struct ProviderGrantRecord: Sendable, Equatable {
    public var userID: String
    public var provider: IdentityProvider
    public var subject: String
    /// Apple's `is_private_email`: the identity's address is a relay.
    public var privateEmail: Bool
    /// The provider's refresh token, sealed (``ProviderToken``); `nil` when it gave none.
    public var sealedToken: String?
    public var updatedAt: Date

    public init(userID: String, provider: IdentityProvider, subject: String, privateEmail: Bool, sealedToken: String?, updatedAt: Date) {
        self.userID = userID
        self.provider = provider
        self.subject = subject
        self.privateEmail = privateEmail
        self.sealedToken = sealedToken
        self.updatedAt = updatedAt
    }
}

/// Storage of ``ProviderGrantRecord``s: one per identity, deleted with its account.
///
/// Atomicity: ``saveProviderGrant(_:)`` is one upsert keyed on (provider, subject) — a newer
/// sign-in's token replaces the older, and a token without one keeps the stored token;
/// ``takeProviderGrants(userID:provider:)`` deletes and returns in one statement, so of two
/// racing removals only one revokes.
public protocol ProviderGrantRepository: Sendable {
    func saveProviderGrant(_ grant: ProviderGrantRecord) async throws
    func providerGrants(userID: String) async throws -> [ProviderGrantRecord]
    /// Removes and returns the account's grants (of `provider` only, when given).
    func takeProviderGrants(userID: String, provider: IdentityProvider?) async throws -> [ProviderGrantRecord]
}
