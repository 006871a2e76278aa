import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import Hummingbird
import LoginCore

/// The phone screens on the web (seed 004): sign-in and registration post a number, the code
/// screen follows. Without JavaScript each form posts and the server answers with a page; the
/// script posts the same forms asking for JSON. The code being entered is bound to the browser
/// by an HttpOnly cookie holding its verification id.
extension WebController {
    package var phoneForm: PhoneSignInForm { PhoneSignInForm(configuration: configuration) }

    /// Whether `/login` shows the phone screen: the app lists phone first and phone is enabled.
    package var phoneFirst: Bool {
        services.phone != nil && services.pipeline.settings.signInMethods.methods.first == .phone
    }

    package func addPhoneRoutes(to pages: RouterGroup<GatehouseRequestContext>) {
        guard let phone = services.phone else { return }
        pages.get("/login/phone") { request, context in try await showPhone(request, context: context, mode: .signIn) }
        pages.post("/login/phone") { request, context in try await submitPhone(request, context: context, mode: .signIn) }
        pages.get("/login/code", use: showCode)
        pages.post("/login/code", use: submitCode)
        pages.post("/login/code/resend", use: resendCode)
        guard phone.policy.registration else { return }
        pages.get("/register") { request, context in try await showPhone(request, context: context, mode: .register) }
        pages.post("/register") { request, context in try await submitPhone(request, context: context, mode: .register) }
    }

    package func showPhone(_ request: Request, context: GatehouseRequestContext, mode: PhoneSignInState.Mode) async throws -> Response {
        if context.identity != nil { return Response.redirect(to: "/home", type: .normal) }
        var state = phoneForm.initialState(mode: mode)
        WebAnalytics.record(phoneForm.send(.appeared, to: &state))
        _ = phoneForm.send(.countriesLoaded(phoneCountries, preferred: nil), to: &state)
        var typing = state
        WebAnalytics.onFirstInput(phoneForm.send(.numberChanged("9", caret: nil), to: &typing))
        if mode == .signIn, request.uri.queryParameters["reason"] == "expired" {
            state.banner = configuration.messages.text(.sessionExpired)
        }
        return try phonePage(state, csrf: WebCookies.newToken(), status: .ok, retryAfter: nil, provider: providerState(request))
    }

    package func submitPhone(_ request: Request, context: GatehouseRequestContext, mode: PhoneSignInState.Mode) async throws -> Response {
        let fields = try await WebForm.decode(WebForm.Phone.self, from: request, context: context)
        var state = phoneForm.initialState(mode: mode)
        _ = phoneForm.send(.countriesLoaded(phoneCountries, preferred: fields.country), to: &state)
        if mode == .register { _ = phoneForm.send(.nameChanged(String((fields.name ?? "").prefix(200))), to: &state) }
        _ = phoneForm.send(.numberChanged(String((fields.phone ?? "").prefix(64)), caret: nil), to: &state)
        var status = HTTPResponse.Status.unprocessableContent
        var retryAfter: Int?
        var announcement: String?
        // The name rule's refusals (control or direction characters, length) are the field's
        // error; an empty name is LoginCore's own copy.
        var effects = phoneForm.send(.submit, to: &state)
        if mode == .register, case .some(let problem) = Self.nameProblem(fields.name ?? ""), problem != .empty {
            // Refused here, before anything is sent: no code was requested.
            state.isSending = false
            state.nameError = problem.message
            status = .badRequest
            effects = []
        }
        WebAnalytics.record(effects)
        for case .sendCode(let code) in effects {
            do {
                let sent = try await services.phoneCodes().sendPhoneCode(
                    code.phone, country: code.country, purpose: mode == .register ? .register : .signIn, name: code.name, from: context.client
                )
                WebAnalytics.record(phoneForm.send(.sendResponse(.success(sent)), to: &state))
                return try codeSent(sent, request: request)
            } catch let error as GatehouseError {
                let shown = error.presentation
                status = shown.httpStatus
                retryAfter = shown.retryAfter
                let effects = WebAnalytics.record(phoneForm.send(.sendResponse(.failure(Self.failure(for: error))), to: &state))
                // The resend window's announcement (a limit's is its banner, announced by the script).
                if state.waitsForResend { announcement = effects.compactMap { if case .announce(let text) = $0 { text } else { nil } }.last }
            }
        }
        let answer = PhoneWebAnswer.Refused(
            numberError: state.numberError, nameError: state.nameError, banner: state.banner,
            suggestsRegistration: state.suggestsRegistration, retryAfter: retryAfter,
            waitsForResend: state.waitsForResend, announcement: announcement
        )
        // Back on this screen within the resend window, with the code this browser was sent still
        // live: the way to the code screen stays open (its number is shown there).
        var codeHref: String?
        if state.waitsForResend, let live = try await currentCode(request), live.failure == nil { codeHref = "/login/code" }
        var refused = answer
        refused.codeHref = codeHref
        return try request.answer(json: refused, status: status, retryAfter: retryAfter) {
            try phonePage(state, csrf: fields.csrf ?? WebCookies.newToken(), status: status, retryAfter: retryAfter, codeHref: codeHref)
        }
    }

    /// What the one name rule says of a typed name, if it refuses it.
    package static func nameProblem(_ typed: String) -> PersonName.Problem? {
        do { _ = try PersonName.checked(typed); return nil } catch { return error }
    }

    /// A code went out: to the code screen (as a redirect, or JSON for the script), with the
    /// code bound to this browser by its cookie.
    package func codeSent(_ sent: PhoneCodeSent, request: Request, resent: Bool = false) throws -> Response {
        // After "Resend code" the code screen says so ("A new code was sent").
        let target = resent ? "/login/code?resent=1" : "/login/code"
        var response = try request.answer(json: PhoneWebAnswer.Sent(redirect: target, sent: sent)) {
            Response.redirect(to: target, type: .normal)
        }
        response.setCookie(WebCookies.cookie(WebCookies.phoneCode, sent.verificationID, maxAge: sent.expiresIn + 60))
        return response
    }

    package func phonePage(
        _ state: PhoneSignInState, csrf: String, status: HTTPResponse.Status, retryAfter: Int?,
        provider: ProviderLanded = ProviderLanded(), codeHref: String? = nil
    ) throws -> Response {
        let page = PhonePage(
            configuration: configuration, state: state, csrf: csrf, retryAfter: retryAfter,
            registration: services.phone?.policy.registration ?? false, configJSON: phoneConfigJSON
        )
        var values = page.context.merging(providerContext(provider)) { _, new in new }
        values["enterCode"] = configuration.messages.text(.enterCodeLink)
        if let codeHref { values["codeHref"] = codeHref }
        return html(render(values, "phone"), status: status, csrf: csrf)
    }
}

/// The JSON answers to the phone screens' script.
package enum PhoneWebAnswer {
    /// A code went out: the script shows "Sent ✓", then follows `redirect`.
    package struct Sent: Encodable {
        package let redirect: String
        package let sent: PhoneCodeSent
    }

    /// What LoginCore decided the screen shows instead.
    package struct Refused: Encodable {
        package let numberError: String?
        package let nameError: String?
        package let banner: String?
        package let suggestsRegistration: Bool
        package let retryAfter: Int?
        /// The wait is the resend window: the script shows "Resend code in", not an error.
        package let waitsForResend: Bool
        /// What a screen reader hears besides the banner (the resend window's real wait).
        package let announcement: String?
        /// Within the resend window, with this browser's code still live: the code screen.
        package var codeHref: String? = nil
    }

    /// The code screen's answer when the code was not accepted.
    package struct CodeRefused: Encodable {
        package let codeError: String?
        package let banner: String?
        package let expired: Bool
        package let retryAfter: Int?
    }
}
