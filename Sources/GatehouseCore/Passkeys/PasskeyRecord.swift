import Foundation
import GatehouseModel

/// A stored passkey: the credential's id and public key, its counter and backup flags, and
/// what lists show (a name, when it was made and last used).
public struct PasskeyRecord: Sendable, Equatable {
    /// A short handle for URLs (`/api/auth/passkeys/{id}`); the credential id can be 1 KiB.
    public var id: String
    public var userID: String
    public var credentialID: [UInt8]
    /// The COSE key as registered.
    public var publicKey: [UInt8]
    public var algorithm: Int
    public var signCount: UInt32
    /// Synced passkeys (BE) report a zero counter, so a counter that does not grow is only a warning for them.
    public var backupEligible: Bool
    public var backedUp: Bool
    public var transports: [String]
    public var name: String
    public var createdAt: Date
    public var lastUsedAt: Date?

    public init(
        id: String = RecordID.make(), userID: String, credentialID: [UInt8], publicKey: [UInt8], algorithm: Int,
        signCount: UInt32, backupEligible: Bool, backedUp: Bool, transports: [String], name: String, createdAt: Date, lastUsedAt: Date? = nil
    ) {
        self.id = id
        self.userID = userID
        self.credentialID = credentialID
        self.publicKey = publicKey
        self.algorithm = algorithm
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.transports = transports
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

extension PasskeySummary {
    /// A stored passkey as every surface's list shows it.
    package init(_ record: PasskeyRecord) {
        let format = Date.ISO8601FormatStyle()
        self.init(
            id: record.id, name: record.name, createdAt: record.createdAt.formatted(format),
            lastUsedAt: record.lastUsedAt?.formatted(format), synced: record.backupEligible
        )
    }
}

extension IdentityProvider {
    /// The account's WebAuthn user handle: 32 random bytes (base64url) in place of a subject.
    /// It exists while the account has a passkey, and counts as a way in.
    public static let passkey = IdentityProvider(rawValue: "passkey")
}

extension OneTimeSecretPurpose {
    /// A registration challenge, known by its hash; its target is the session it was issued to.
    public static let passkeyRegistration = Self(rawValue: "passkey_registration")
    /// An authentication challenge, known by its hash (and targeted by it: there may be many).
    public static let passkeyAuthentication = Self(rawValue: "passkey_authentication")
}
