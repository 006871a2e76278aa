import Foundation
import GatehouseCore
import GatehouseModel

/// The answer to either options call: the options for the browser, and how long they live.
package struct PasskeyOptionsResponse<Options: Encodable>: Encodable {
    package let options: Options
    package let expiresIn: Int

    package enum CodingKeys: String, CodingKey {
        case options
        case expiresIn = "expires_in"
    }
}

/// The body of `POST /api/auth/passkeys/registration/verify`: what the options call returned
/// (echoed back or not; the challenge travels in the credential), the credential, and a name.
package struct PasskeyRegistrationRequest: Decodable {
    package let credential: PasskeyRegistrationJSON
    package let name: String?
}

/// The body of `POST /api/auth/passkeys/authentication/verify`.
package struct PasskeyAuthenticationRequest: Decodable {
    package let credential: PasskeyAssertionJSON
}

/// The body of `PATCH /api/auth/passkeys/{id}`.
package struct PasskeyRenameRequest: Decodable {
    package let name: String
}

/// `GET /api/auth/passkeys`.
package struct PasskeyList: Encodable {
    package let passkeys: [PasskeySummary]
}
