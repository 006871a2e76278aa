import Foundation

/// A stored signing key: its `kid`, its private half sealed, and when it was made and retired.
public struct SigningKeyRecord: Sendable, Equatable {
    public var kid: String
    public var sealedPrivateKey: String
    public var createdAt: Date
    public var retiredAt: Date?

    public init(kid: String, sealedPrivateKey: String, createdAt: Date, retiredAt: Date? = nil) {
        self.kid = kid
        self.sealedPrivateKey = sealedPrivateKey
        self.createdAt = createdAt
        self.retiredAt = retiredAt
    }
}

/// Where the signing keys every instance shares are kept.
public protocol SigningKeyRepository: Sendable {
    /// Keys not yet retired, oldest first.
    func activeSigningKeys() async throws -> [SigningKeyRecord]
    /// Stores a key; a key with the same `kid` already stored is left as it is.
    func insertSigningKey(_ key: SigningKeyRecord) async throws
    /// Retires a key; `false` when no active key has this `kid`.
    func retireSigningKey(kid: String, at: Date) async throws -> Bool
}
