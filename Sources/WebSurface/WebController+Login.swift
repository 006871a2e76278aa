import Foundation
import GatehouseCore
import GatehouseHTTP
import Hummingbird
import LoginCore

extension WebController {
    /// `POST /login`: validates with LoginCore, signs in, and answers with a page or, for the
    /// script (`Accept: application/json`), with JSON.
    @Sendable package func submitLogin(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let fields = try await WebForm.decode(WebForm.Login.self, from: request, context: context)
        var state = form.initialState()
        // Typing was reported by the page itself (its first keystroke); the post reports the submit.
        _ = form.send(.emailChanged(fields.email ?? ""), to: &state)
        _ = form.send(.passwordChanged(fields.password ?? ""), to: &state)
        let effects = WebAnalytics.record(form.send(.submit, to: &state))
        var status = HTTPResponse.Status.unprocessableContent
        var retryAfter: Int?
        var resendTo: String?
        for case .authenticate(let credentials) in effects {
            do {
                let grant = Grant.password(identifier: credentials.email, password: credentials.password)
                let previous = request.cookies[WebCookies.session]?.value
                let signIn = try await services.pipeline.signInToWeb(grant, from: context.client, replacing: previous)
                WebAnalytics.record(form.send(.loginResponse(.success(WebAnalytics.webSignIn)), to: &state))
                var response = try signedIn(signIn, request: request)
                // Seed 003: Home may offer Face ID or fingerprint within 10 minutes of a password sign-in.
                if services.pipeline.settings.passkeys.offer { PasskeyCookies.set(PasskeyCookies.afterPassword, on: &response, maxAge: 600) }
                return response
            } catch let error as GatehouseError {
                let shown = error.presentation
                status = shown.httpStatus
                retryAfter = shown.retryAfter
                // Only a caller who proved the password hears this, so offering a resend reveals nothing more.
                if error == .emailNotVerified { resendTo = credentials.email }
                WebAnalytics.record(form.send(.loginResponse(.failure(Self.failure(for: error))), to: &state))
            }
        }
        let answer = WebLoginAnswer(
            banner: state.banner, errors: ["email": state.emailError, "password": state.passwordError],
            clearPassword: state.password.isEmpty && state.banner != nil, retryAfter: retryAfter, resendTo: resendTo
        )
        return try request.answer(json: answer, status: status, retryAfter: retryAfter) {
            try page(state: state, csrf: fields.csrf ?? WebCookies.newToken(), status: status, retryAfter: retryAfter, resendTo: resendTo)
        }
    }

    /// The answer to a successful sign-in on any web screen: the session and device cookies,
    /// and Home, as a redirect or, for the script, as JSON.
    package func signedIn(_ signIn: WebSignIn, request: Request, notice: HomeNotice? = nil) throws -> Response {
        let home = "/home" + (notice.map { "?done=\($0.rawValue)" } ?? "")
        var response = try request.answer(json: ["redirect": home]) { Response.redirect(to: home, type: .normal) }
        WebCookies.setSignedIn(&response, sessionID: signIn.sessionID, deviceToken: signIn.deviceToken, settings: services.pipeline.settings)
        return response
    }

    /// The LoginCore outcome of a domain error.
    package static func failure(for error: GatehouseError) -> AuthFailure {
        switch error {
        case .invalidCredentials: .invalidCredentials
        case .accountLocked: .accountLocked
        case .emailNotVerified: .emailNotVerified
        case .signInToContinue: .emailVerifiedSignIn
        case .factorLimitReached: .serverError(status: 422)
        case .stepUpRequired: .serverError(status: 403)
        case .passwordRejected(let rejection): .passwordRejected(message: rejection.message)
        case .linkExpired: .linkExpired
        case .featureNotOffered: .serverError(status: 403)
        case .passkeyRejected(.unknownCredential): .passkeyUnknown
        case .passkeyRejected, .passkeyTaken: .passkeyFailed
        case .reauthenticationRequired: .sessionExpired
        case .rateLimited(let seconds): .rateLimited(retryAfter: seconds)
        case .resendTooSoon(let seconds): .resendTooSoon(retryAfter: seconds)
        case .overloaded: .serverError(status: 503)
        case .invalidRequest: .serverError(status: 400)
        case .payloadTooLarge: .serverError(status: 413)
        case .unauthenticated, .invalidToken, .sessionEnded, .refreshRejected: .sessionExpired
        case .invalidPhone: .invalidPhone
        case .phoneTaken: .phoneTaken
        case .codeRejected(.incorrect(let left)): .codeIncorrect(attemptsLeft: left)
        case .codeRejected(.expired): .codeExpired
        case .codeRejected(.exhausted): .codeAttemptsExceeded
        case .accountNotFound: .accountNotFound
        case .smsUnavailable(let seconds): .smsUnavailable(retryAfter: seconds)
        case .providerSignIn(.cancelled): .providerCancelled
        case .providerSignIn(.providerUnavailable), .providerSignIn(.notConfigured): .providerFailed
        case .providerSignIn(.invalidCode), .providerSignIn(.invalidToken), .providerSignIn(.invalidFlow),
             .providerSignIn(.identityTaken), .providerSignIn(.redirectNotAllowed): .providerCodeRejected
        case .providerSignIn(.linkRequired), .lastSignInMethod: .providerLinkRequired
        case .methodNotOffered, .formExpired: .serverError(status: 403)
        case .administration, .notFound, .methodNotAllowed, .unexpected: .serverError(status: error.presentation.status)
        }
    }
}

/// The JSON answer to the script's POST: what LoginCore decided the screen shows.
package struct WebLoginAnswer: Encodable {
    package let banner: String?
    package let errors: [String: String?]
    package let clearPassword: Bool
    /// Seconds the submit button stays disabled after a 429.
    package let retryAfter: Int?
    /// The address "Resend email" resends to, after `email_not_verified`.
    package let resendTo: String?
}
