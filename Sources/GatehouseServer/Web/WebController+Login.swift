import Foundation
import Hummingbird
import LoginCore

extension WebController {
    /// `POST /login`: validates with LoginCore, signs in, and answers with a page or, for the
    /// script (`Accept: application/json`), with JSON.
    @Sendable func submitLogin(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let wantsJSON = request.headers[.accept]?.contains("application/json") == true
        let fields = try await FormBody.fields(request, context: context)
        guard WebCookies.csrfMatches(request, formToken: fields["csrf"]) else {
            throw APIError(.forbidden, code: "csrf", message: "The form expired; reload the page and try again")
        }
        var state = form.initialState()
        _ = form.send(.emailChanged(fields["email"] ?? ""), to: &state)
        _ = form.send(.passwordChanged(fields["password"] ?? ""), to: &state)
        let effects = form.send(.submit, to: &state)
        var status = HTTPResponse.Status.unprocessableContent
        for case .authenticate(let credentials) in effects {
            do {
                let grant = try await service.login(email: credentials.email, password: credentials.password)
                var response = wantsJSON ? try JSONBody.response(["redirect": "/home"]) : Response.redirect(to: "/home", type: .normal)
                // The cookie outlives the session by a day: the server refuses it once the session
                // ends, but can still tell the user why (seed 003's expired-session message).
                let maxAge = service.configuration.refreshTokenLifetime + 24 * 3600
                response.setCookie(WebCookies.cookie(WebCookies.session, grant.refreshToken, maxAge: maxAge))
                return response
            } catch let error as APIError {
                let failure = Self.failure(for: error)
                status = error.status
                _ = form.send(.loginResponse(.failure(failure)), to: &state)
            }
        }
        let csrf = fields["csrf"] ?? WebCookies.newToken()
        guard wantsJSON else { return try page(state: state, csrf: csrf, status: status) }
        let answer = WebLoginAnswer(
            banner: state.banner, errors: ["email": state.emailError, "password": state.passwordError],
            clearPassword: state.password.isEmpty && state.banner != nil
        )
        return try JSONBody.response(answer, status: status)
    }

    /// The LoginCore outcome of an API error.
    static func failure(for error: APIError) -> AuthFailure {
        switch error.code {
        case "invalid_credentials": .invalidCredentials
        case "account_locked": .accountLocked
        case "rate_limited": .rateLimited(retryAfter: nil)
        default: .serverError(status: Int(error.status.code))
        }
    }
}

/// The JSON answer to the script's POST: what LoginCore decided the screen shows.
struct WebLoginAnswer: Encodable {
    let banner: String?
    let errors: [String: String?]
    let clearPassword: Bool
}

/// An `application/x-www-form-urlencoded` body of at most 16 KiB, as named fields.
enum FormBody {
    struct Fields: Decodable {
        let email: String?
        let password: String?
        let csrf: String?
    }

    static func fields(_ request: Request, context: GatehouseRequestContext) async throws -> [String: String] {
        let buffer = try await JSONBody.collect(request, context: context)
        guard let decoded = try? URLEncodedFormDecoder().decode(Fields.self, from: String(buffer: buffer)) else {
            throw APIError.invalidRequest("The form could not be read")
        }
        var fields: [String: String] = [:]
        fields["email"] = decoded.email
        fields["password"] = decoded.password
        fields["csrf"] = decoded.csrf
        return fields
    }
}
