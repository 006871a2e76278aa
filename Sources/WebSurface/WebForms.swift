import GatehouseCore
import GatehouseHTTP
import Hummingbird

/// The fields each web screen posts, one type per screen, read from the URL-encoded body the
/// CSRF middleware has already checked (and kept). A field a screen does not have is not read;
/// a missing one is empty, as a browser sends an empty input.
package enum WebForm {
    /// `/login`: seed 000's email and password.
    package struct Login: Decodable {
        package var email: String?
        package var password: String?
        package var csrf: String?
    }

    /// `/login/phone` and `/register`: the number, its region, and for registration the name.
    package struct Phone: Decodable {
        package var phone: String?
        package var country: String?
        package var name: String?
        package var csrf: String?
    }

    /// `/login/code` and `/login/code/resend`.
    package struct Code: Decodable {
        package var code: String?
        package var csrf: String?
    }

    /// `/welcome`: the profile step's name.
    package struct Profile: Decodable {
        package var name: String?
        package var csrf: String?
    }

    /// `/signup`, `/verify-email`, `/forgot-password` and `/reset-password`: whichever of these
    /// the screen has.
    package struct Account: Decodable {
        package var name: String?
        package var email: String?
        package var password: String?
        package var token: String?
        package var code: String?
        package var csrf: String?
    }

    /// The passkey calls of `/login` and Home: the credential as its JSON text, and a name.
    package struct Passkey: Decodable {
        package var credential: String?
        package var name: String?
        package var csrf: String?
    }

    /// The screen's fields, or 400 when the body is no form.
    package static func decode<Form: Decodable>(_ type: Form.Type, from request: Request, context: GatehouseRequestContext) async throws -> Form {
        let buffer = try await JSONBody.collect(request, context: context)
        guard let form = try? URLEncodedFormDecoder().decode(Form.self, from: String(buffer: buffer)) else {
            throw GatehouseError.invalidRequest("The form could not be read")
        }
        return form
    }
}
