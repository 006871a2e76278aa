import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseModel

/// The body of `POST /api/auth/phone/otp`: a national number and its region, or a full `+…` number.
package struct PhoneCodeRequest: Decodable {
    package let phone: String
    package let country: String?
}

/// The body of `POST /api/auth/phone/register`: seed 004's minimal registration.
package struct PhoneRegistrationRequest: Decodable {
    package let name: String
    package let phone: String
    package let country: String?
}

/// The body of `POST /api/auth/phone/otp/resend`.
package struct PhoneResendRequest: Decodable {
    package let verificationID: String

    package enum CodingKeys: String, CodingKey { case verificationID = "verification_id" }
}

/// The body of `POST /api/auth/phone/verify`.
package struct PhoneVerifyRequest: Decodable {
    package let verificationID: String
    package let code: String

    package enum CodingKeys: String, CodingKey {
        case code
        case verificationID = "verification_id"
    }
}

/// `GET /api/auth/phone/countries`: the allowed regions, the default first.
package struct PhoneCountries: Encodable {
    package let countries: [PhoneCountry]
    package let defaultCountry: String?

    package enum CodingKeys: String, CodingKey {
        case countries
        case defaultCountry = "default"
    }
}
