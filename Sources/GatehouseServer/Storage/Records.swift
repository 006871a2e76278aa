import Foundation
import LoginCore

/// A stored account. Emails are kept normalised (trimmed, lower-cased), so they are unique
/// case-insensitively.
///
/// The name is kept as a first and a last part (seed 001); ``name`` joins them (seed 000).
public struct UserRecord: Sendable, Equatable {
    public var id: String
    public var email: String
    public var personName: PersonName
    public var passwordHash: String
    public var createdAt: Date
    public var passwordChangedAt: Date
    public var lockedAt: Date?

    public init(
        id: String = UUID().uuidString.lowercased(), email: String, name: PersonName, passwordHash: String,
        createdAt: Date, passwordChangedAt: Date? = nil, lockedAt: Date? = nil
    ) {
        self.id = id
        self.email = email
        personName = name
        self.passwordHash = passwordHash
        self.createdAt = createdAt
        self.passwordChangedAt = passwordChangedAt ?? createdAt
        self.lockedAt = lockedAt
    }

    /// The one-line name: first and last joined.
    public var name: String { personName.full }

    /// The user as API responses show it.
    public var profile: SignedInUser {
        SignedInUser(id: id, email: email, firstName: personName.first, lastName: personName.last)
    }
}

/// One signed-in device: created at login, ended by logout, expiry or revocation.
public struct SessionRecord: Sendable, Equatable {
    public var id: String
    public var userID: String
    public var createdAt: Date
    /// The absolute end of the session (seed 000 Q2: 7 days); refreshing does not extend it.
    public var expiresAt: Date
    public var revokedAt: Date?
    public var revokedReason: String?
}

/// A refresh token, known only by its hash.
public struct RefreshTokenRecord: Sendable, Equatable {
    public var tokenHash: String
    public var sessionID: String
    public var createdAt: Date
    /// When it was exchanged for its successor; `nil` while it is the session's live token.
    public var rotatedAt: Date?
    /// The successor, sealed under this token (see ``RefreshToken``).
    public var sealedSuccessor: String?
}
