import Foundation
import GatehouseModel

/// A second factor of one account, as stored (issue 37).
///
/// An authenticator-app factor keeps its TOTP secret sealed under the key-encryption key, like
/// the signing keys; it is never stored or logged in plain text. A factor is `unverified` until
/// its first correct code and such a factor lives 10 minutes. ``lastStep`` is the newest TOTP
/// step accepted, so a code works once.
public struct FactorRecord: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        case totp
    }

    public enum Status: String, Sendable, Equatable {
        case unverified, verified
    }

    public var id: String
    public var userID: String
    public var kind: Kind
    /// The person's name for it ("Work phone"), under the name rule; may be empty.
    public var friendlyName: String
    /// The secret, AES-GCM sealed under the key-encryption key, base64url.
    public var sealedSecret: String
    public var status: Status
    public var createdAt: Date
    public var verifiedAt: Date?
    /// The newest TOTP step a code was accepted for.
    public var lastStep: Int64?

    public init(
        id: String = RecordID.make(), userID: String, kind: Kind = .totp, friendlyName: String, sealedSecret: String,
        status: Status = .unverified, createdAt: Date, verifiedAt: Date? = nil, lastStep: Int64? = nil
    ) {
        self.id = id
        self.userID = userID
        self.kind = kind
        self.friendlyName = friendlyName
        self.sealedSecret = sealedSecret
        self.status = status
        self.createdAt = createdAt
        self.verifiedAt = verifiedAt
        self.lastStep = lastStep
    }
}

extension FactorRecord {
    /// The factor as clients see it: never its secret.
    package var summary: FactorSummary {
        FactorSummary(id: id, type: kind.rawValue, friendlyName: friendlyName, status: status.rawValue)
    }
}
