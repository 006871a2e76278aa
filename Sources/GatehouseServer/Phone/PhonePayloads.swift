import Foundation
import GatehouseModel

/// The body of `POST /api/auth/phone/otp`: a national number and its region, or a full `+…` number.
struct PhoneCodeRequest: Decodable {
    let phone: String
    let country: String?
}

/// The body of `POST /api/auth/phone/register`: seed 004's minimal registration.
struct PhoneRegistrationRequest: Decodable {
    let name: String
    let phone: String
    let country: String?
}

/// The body of `POST /api/auth/phone/otp/resend`.
struct PhoneResendRequest: Decodable {
    let verificationID: String

    enum CodingKeys: String, CodingKey { case verificationID = "verification_id" }
}

/// The body of `POST /api/auth/phone/verify`.
struct PhoneVerifyRequest: Decodable {
    let verificationID: String
    let code: String

    enum CodingKeys: String, CodingKey {
        case code
        case verificationID = "verification_id"
    }
}

/// `GET /api/auth/phone/countries`: the allowed regions, the default first.
struct PhoneCountries: Encodable {
    let countries: [PhoneCountry]
    let defaultCountry: String?

    enum CodingKeys: String, CodingKey {
        case countries
        case defaultCountry = "default"
    }
}
