/// Two-step verification in an app file (`"mfa"`, issue 37); without the block it is off.
///
/// `{"totp": true, "recoveryCodes": true, "required": false}`: authenticator-app codes,
/// recovery codes beside them, and whether every account must enrol before it gets an `aal2`
/// session (a signed-in person without a factor is sent to set one up).
public struct SecondFactorOptions: Equatable, Sendable {
    public var totp: Bool
    public var recoveryCodes: Bool
    public var required: Bool

    public init(totp: Bool = true, recoveryCodes: Bool = true, required: Bool = false) {
        self.totp = totp
        self.recoveryCodes = recoveryCodes
        self.required = required
    }
}

extension SecondFactorOptions: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable { case totp, recoveryCodes, required }

    public init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            totp: try container.decodeIfPresent(Bool.self, forKey: .totp) ?? true,
            recoveryCodes: try container.decodeIfPresent(Bool.self, forKey: .recoveryCodes) ?? true,
            required: try container.decodeIfPresent(Bool.self, forKey: .required) ?? false
        )
        if required && !totp {
            throw DecodingError.dataCorruptedError(forKey: .required, in: container, debugDescription: "mfa.required needs mfa.totp")
        }
    }
}
