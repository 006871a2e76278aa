/// What a sign-in answer says when the account has a second factor and the session is at
/// `aal1`: the `mfa` member of a token response, so a client knows to challenge.
public struct SecondFactorHint: Codable, Sendable, Equatable {
    /// Whether a challenge is needed before the session reaches `aal2`.
    public var required: Bool
    /// The verified factors a challenge may name.
    public var factors: [FactorSummary]

    public init(required: Bool, factors: [FactorSummary]) {
        self.required = required
        self.factors = factors
    }
}

/// One second factor as clients see it: never its secret.
public struct FactorSummary: Codable, Sendable, Equatable {
    public var id: String
    /// `totp` today.
    public var type: String
    public var friendlyName: String
    /// `verified`, or `unverified` while it waits for its first code.
    public var status: String

    public init(id: String, type: String, friendlyName: String, status: String) {
        self.id = id
        self.type = type
        self.friendlyName = friendlyName
        self.status = status
    }

    enum CodingKeys: String, CodingKey {
        case id, type, status
        case friendlyName = "friendly_name"
    }
}

/// An authenticator app's setup key as people type it: base32 in groups of four
/// (`5BBX SGB7 6ZIE …`), the web page's and the terminal's alike.
public enum SetupKey {
    public static func grouped(_ secret: String) -> String {
        stride(from: 0, to: secret.count, by: 4).map { String(secret.dropFirst($0).prefix(4)) }.joined(separator: " ")
    }
}
