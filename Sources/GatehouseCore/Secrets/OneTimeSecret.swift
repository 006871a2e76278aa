import Foundation

/// One stored one-time secret: a phone code, a provider flow's state, the code a finished flow
/// returns to an app, and next an email token or a passkey challenge.
///
/// Nothing a person could use is stored: `id` is a random handle (or the hash of one), and the
/// secret a person types is kept only as `secretMAC`, a keyed hash. The kind's own fields travel
/// in `data` (JSON), so a new kind of secret needs no new table.
public struct OneTimeSecret: Sendable, Equatable {
    public var purpose: OneTimeSecretPurpose
    /// The handle the client holds, or its hash; unique within a purpose.
    public var id: String
    /// What the secret is for (a phone number, a flow); a purpose has one live secret per target.
    public var target: String
    /// A keyed hash of the secret a person types, if there is one.
    public var secretMAC: String?
    /// The kind's own fields, as JSON.
    public var data: Data
    /// Tries counted so far; each is counted before it is compared.
    public var attempts: Int
    public var createdAt: Date
    public var expiresAt: Date
    public var consumedAt: Date?

    public init(
        purpose: OneTimeSecretPurpose, id: String, target: String, secretMAC: String? = nil, data: Data = Data("{}".utf8),
        attempts: Int = 0, createdAt: Date, expiresAt: Date, consumedAt: Date? = nil
    ) {
        self.purpose = purpose
        self.id = id
        self.target = target
        self.secretMAC = secretMAC
        self.data = data
        self.attempts = attempts
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.consumedAt = consumedAt
    }
}

extension OneTimeSecret {
    /// Whether it can still be used at `date`: unused and unexpired.
    package func isLive(at date: Date) -> Bool {
        consumedAt == nil && date < expiresAt
    }
}

/// What a one-time secret is for; each stored name is permanent.
public struct OneTimeSecretPurpose: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A code sent by SMS; its target is the phone (E.164).
    public static let phoneCode = Self(rawValue: "phone_code")
    /// A sign-in flow with an external provider, known by the hash of its `state`.
    public static let providerFlow = Self(rawValue: "oidc_flow")
    /// The code a finished flow returns to an app, known by its hash; its target is the flow.
    public static let providerReturn = Self(rawValue: "oidc_return")
}
