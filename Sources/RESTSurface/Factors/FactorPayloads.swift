import GatehouseCore
import GatehouseModel

/// The body of `POST /api/auth/mfa/factors`.
package struct FactorEnrolRequest: Decodable {
    package let friendlyName: String?

    enum CodingKeys: String, CodingKey { case friendlyName = "friendly_name" }
}

/// An enrolment's answer: the factor and, this once, what the authenticator app needs.
package struct FactorEnrolment: Encodable {
    package let factor: FactorSummary
    /// The secret in base32, for typing.
    package let secret: String
    package let uri: String
    /// The URI as an SVG QR code.
    package let qrCode: String?

    enum CodingKeys: String, CodingKey { case factor, secret, uri, qrCode = "qr_code" }
}

/// `GET /api/auth/mfa/factors`'s answer.
package struct FactorList: Encodable {
    package let factors: [FactorSummary]
    package let recoveryCodesLeft: Int

    enum CodingKeys: String, CodingKey { case factors, recoveryCodesLeft = "recovery_codes_left" }
}

/// The body of `POST /api/auth/mfa/factors/{id}/verify`.
package struct FactorCodeRequest: Decodable {
    package let code: String
}

/// The body of `POST /api/auth/mfa/challenge`: a factor, or none for a recovery code.
package struct FactorChallengeRequest: Decodable {
    package let factorID: String?

    enum CodingKeys: String, CodingKey { case factorID = "factor_id" }
}

/// A challenge's answer.
package struct FactorChallengeResponse: Encodable {
    package let challengeID: String
    /// Seconds until it expires.
    package let expiresIn: Int

    enum CodingKeys: String, CodingKey { case challengeID = "challenge_id", expiresIn = "expires_in" }
}

/// The body of `POST /api/auth/mfa/verify`: a challenge and its code or recovery code, or a
/// passkey's assertion (which needs no challenge of its own).
package struct FactorVerifyRequest: Decodable {
    package let challengeID: String?
    package let code: String?
    package let recoveryCode: String?
    package let credential: PasskeyAssertionJSON?

    enum CodingKeys: String, CodingKey {
        case code, credential
        case challengeID = "challenge_id", recoveryCode = "recovery_code"
    }
}

/// New recovery codes, shown once.
package struct RecoveryCodeList: Encodable {
    package let recoveryCodes: [String]

    enum CodingKeys: String, CodingKey { case recoveryCodes = "recovery_codes" }
}
