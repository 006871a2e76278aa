import Foundation
import GatehouseCore

/// A second factor as GoTrue lists it under a user's `factors` and the admin API's list.
package struct GoTrueFactor: Encodable {
    package let id: String
    package let friendlyName: String
    package let factorType: String
    package let status: String
    package let createdAt: String
    package let updatedAt: String

    package enum CodingKeys: String, CodingKey {
        case id, status
        case friendlyName = "friendly_name", factorType = "factor_type", createdAt = "created_at", updatedAt = "updated_at"
    }

    package init(_ record: FactorRecord) {
        id = record.id
        friendlyName = record.friendlyName
        factorType = record.kind.rawValue
        status = record.status.rawValue
        createdAt = record.createdAt.formatted(.iso8601)
        updatedAt = (record.verifiedAt ?? record.createdAt).formatted(.iso8601)
    }
}

/// `POST /factors`'s body.
struct GoTrueEnrolRequest: Decodable {
    let factorType: String?
    let friendlyName: String?
    let issuer: String?

    enum CodingKeys: String, CodingKey {
        case issuer
        case factorType = "factor_type", friendlyName = "friendly_name"
    }
}

/// `POST /factors`'s answer: the factor and, this once, what the authenticator app needs.
struct GoTrueEnrolment: Encodable {
    struct TOTPDetails: Encodable {
        /// The QR code as SVG markup (clients prefix `data:image/svg+xml;utf-8,`).
        let qrCode: String
        let secret: String
        let uri: String

        enum CodingKeys: String, CodingKey { case secret, uri, qrCode = "qr_code" }
    }

    let id: String
    let type: String
    let friendlyName: String
    let totp: TOTPDetails

    enum CodingKeys: String, CodingKey { case id, type, totp, friendlyName = "friendly_name" }
}

/// `POST /factors/{id}/challenge`'s answer.
struct GoTrueChallenge: Encodable {
    let id: String
    let type: String
    /// Seconds since 1970.
    let expiresAt: Int

    enum CodingKeys: String, CodingKey { case id, type, expiresAt = "expires_at" }
}

/// `POST /factors/{id}/challenge`'s body: a channel only phone factors use.
struct GoTrueChallengeRequest: Decodable {
    let channel: String?
}

/// `POST /factors/{id}/verify`'s body.
struct GoTrueFactorVerifyRequest: Decodable {
    let challengeID: String
    let code: String

    enum CodingKeys: String, CodingKey { case code, challengeID = "challenge_id" }
}
