import Hummingbird

/// The fields each web screen posts, one type per screen, read from the URL-encoded body the
/// CSRF middleware has already checked (and kept). A field a screen does not have is not read;
/// a missing one is empty, as a browser sends an empty input.
enum WebForm {
    /// `/login`: seed 000's email and password.
    struct Login: Decodable {
        var email: String?
        var password: String?
        var csrf: String?
    }

    /// `/login/phone` and `/register`: the number, its region, and for registration the name.
    struct Phone: Decodable {
        var phone: String?
        var country: String?
        var name: String?
        var csrf: String?
    }

    /// `/login/code` and `/login/code/resend`.
    struct Code: Decodable {
        var code: String?
        var csrf: String?
    }

    /// `/welcome`: the profile step's name.
    struct Profile: Decodable {
        var name: String?
        var csrf: String?
    }

    /// The screen's fields, or 400 when the body is no form.
    static func decode<Form: Decodable>(_ type: Form.Type, from request: Request, context: GatehouseRequestContext) async throws -> Form {
        let buffer = try await JSONBody.collect(request, context: context)
        guard let form = try? URLEncodedFormDecoder().decode(Form.self, from: String(buffer: buffer)) else {
            throw GatehouseError.invalidRequest("The form could not be read")
        }
        return form
    }
}
