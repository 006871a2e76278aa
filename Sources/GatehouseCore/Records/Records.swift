import Foundation
import GatehouseModel

/// A stored account: the profile and the lock. How one signs in lives elsewhere, in its
/// identities (email, phone, google, …) and its optional password credential.
///
/// The name is kept as a first and a last part (seed 001); ``name`` joins them (seed 000).
public struct UserRecord: Sendable, Equatable {
    public var id: String
    public var personName: PersonName
    public var createdAt: Date
    /// Sessions opened before this instant are over (a password change ends every session).
    public var passwordChangedAt: Date
    public var lockedAt: Date?
    /// When a lock ends by itself (a ban for a time); `nil` with ``lockedAt`` set locks until lifted.
    public var lockedUntil: Date?
    /// The account's email, if it has an email identity; kept with the record for responses.
    public var email: String?
    /// A guest account (issue 39): no identity yet. Adding any way in keeps it, with its id.
    public var isAnonymous: Bool
    /// When the owner's deletion takes effect (`accounts.deletionGraceDays`); a sign-in before
    /// then keeps the account. `nil`: not scheduled.
    public var deletionDueAt: Date?

    public init(
        id: String = RecordID.make(), email: String?, name: PersonName,
        createdAt: Date, passwordChangedAt: Date? = nil, lockedAt: Date? = nil, lockedUntil: Date? = nil, isAnonymous: Bool = false
    ) {
        self.isAnonymous = isAnonymous
        self.id = id
        self.email = email
        personName = name
        self.createdAt = createdAt
        self.passwordChangedAt = passwordChangedAt ?? createdAt
        self.lockedAt = lockedAt
        self.lockedUntil = lockedUntil
    }

    /// Whether the account is locked or banned at `date`: a ban ends by itself at ``lockedUntil``.
    public func isLocked(at date: Date) -> Bool {
        guard lockedAt != nil else { return false }
        return lockedUntil.map { date < $0 } ?? true
    }

    /// The one-line name: first and last joined.
    public var name: String { personName.full }

    /// The user as API responses show it.
    public var profile: SignedInUser {
        SignedInUser(id: id, email: email ?? "", firstName: personName.first, lastName: personName.last)
    }
}

/// A way to find an account: a provider (`email`, `phone`, `google`, …) and the provider's
/// subject for it (the normalised email, the E.164 number, Google's `sub`).
public struct IdentityRecord: Sendable, Equatable {
    public var userID: String
    public var provider: IdentityProvider
    public var subject: String
    public var verifiedAt: Date?
    public var createdAt: Date

    public init(userID: String, provider: IdentityProvider, subject: String, verifiedAt: Date?, createdAt: Date) {
        self.userID = userID
        self.provider = provider
        self.subject = subject
        self.verifiedAt = verifiedAt
        self.createdAt = createdAt
    }
}

/// Who vouches for an identity. Open, so a new provider needs no schema change.
public struct IdentityProvider: RawRepresentable, Hashable, Sendable, Codable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let email = IdentityProvider(rawValue: "email")
    public static let phone = IdentityProvider(rawValue: "phone")
    public static let google = IdentityProvider(rawValue: "google")
    public static let apple = IdentityProvider(rawValue: "apple")
    public static let github = IdentityProvider(rawValue: "github")
    public static let microsoft = IdentityProvider(rawValue: "microsoft")
}

/// One signed-in device: created at sign-in, ended by logout, expiry or revocation.
public struct SessionRecord: Sendable, Equatable {
    public var id: String
    public var userID: String
    public var createdAt: Date
    /// The absolute end of the session (seed 000 Q2: 7 days); refreshing does not extend it.
    public var expiresAt: Date
    public var revokedAt: Date?
    public var revokedReason: SessionEndReason?
    /// The device as a list shows it ("iPhone · Safari"), read from the user agent at sign-in.
    public var deviceLabel: String?
    /// The client address the session signed in from.
    public var address: String?
    /// When the session was last used (sign-in, then refreshes, at most once a minute).
    public var lastSeenAt: Date?
    /// How the person proved who they are (issue 37): the level and methods tokens carry.
    public var assurance: SessionAssurance

    public init(
        id: String, userID: String, createdAt: Date, expiresAt: Date, revokedAt: Date? = nil, revokedReason: SessionEndReason? = nil,
        deviceLabel: String? = nil, address: String? = nil, lastSeenAt: Date? = nil, assurance: SessionAssurance = SessionAssurance()
    ) {
        self.assurance = assurance
        self.id = id
        self.userID = userID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
        self.revokedReason = revokedReason
        self.deviceLabel = deviceLabel
        self.address = address
        self.lastSeenAt = lastSeenAt
    }
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

    public init(tokenHash: String, sessionID: String, createdAt: Date, rotatedAt: Date? = nil, sealedSuccessor: String? = nil) {
        self.tokenHash = tokenHash
        self.sessionID = sessionID
        self.createdAt = createdAt
        self.rotatedAt = rotatedAt
        self.sealedSuccessor = sealedSuccessor
    }
}
