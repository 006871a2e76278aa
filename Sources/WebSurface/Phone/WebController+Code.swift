import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import Hummingbird
import LoginCore

/// The code screen on the web: enter the code, resend it, or go back and change the number.
extension WebController {
    package var codeForm: CodeEntryForm { CodeEntryForm(configuration: configuration) }

    /// The code this browser is entering, from its cookie, if it can still be used.
    package func currentCode(_ request: Request) async throws -> PhoneCodeStatus? {
        guard let id = request.cookies[WebCookies.phoneCode]?.value, !id.isEmpty else { return nil }
        return try await services.phoneCodes().phoneCodeStatus(verificationID: id)
    }

    /// The code screen's state for a code: tries already used show as "Tries left"; an expired
    /// or burned code shows why, with only a resend offered.
    package func codeState(_ status: PhoneCodeStatus) -> CodeEntryState {
        var (state, _) = codeForm.begin(status.sent)
        if let failure = status.failure {
            state.isVerifying = true
            _ = codeForm.send(.verifyResponse(.failure(Self.failure(for: .codeRejected(failure)))), to: &state)
        } else if status.attemptsUsed > 0 {
            state.attemptsLeft = (services.phone?.policy.maximumAttempts ?? 0) - status.attemptsUsed
        }
        return state
    }

    @Sendable package func showCode(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        if context.identity != nil { return Response.redirect(to: "/home", type: .normal) }
        guard let status = try await currentCode(request) else { return Response.redirect(to: "/login", type: .normal) }
        let resent = request.uri.queryParameters["resent"] == "1"
        return try codePage(codeState(status), purpose: status.purpose, csrf: WebCookies.newToken(), status: .ok, resent: resent)
    }

    @Sendable package func submitCode(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let fields = try await WebForm.decode(WebForm.Code.self, from: request, context: context)
        let csrf = fields.csrf ?? WebCookies.newToken()
        guard let current = try await currentCode(request) else { return try codeGone(request) }
        var state = codeState(current)
        var effects = codeForm.send(.codeChanged(String((fields.code ?? "").prefix(32))), to: &state)
        if !state.isVerifying { effects += codeForm.send(.submit, to: &state) }
        var status = HTTPResponse.Status.unprocessableContent
        var retryAfter: Int?
        for case .verify(let id, let code) in effects {
            do {
                let previous = request.cookies[WebCookies.session]?.value
                let signIn = try await services.pipeline.signInToWeb(.phoneCode(verificationID: id, code: code), from: context.client, replacing: previous)
                WebAnalytics.record(codeForm.send(.verifyResponse(.success(WebAnalytics.webSignIn)), to: &state))
                var response = try signedIn(signIn, request: request)
                response.setCookie(WebCookies.expired(WebCookies.phoneCode))
                return response
            } catch let error as GatehouseError {
                let shown = error.presentation
                status = shown.httpStatus
                retryAfter = shown.retryAfter
                WebAnalytics.record(codeForm.send(.verifyResponse(.failure(Self.failure(for: error))), to: &state))
            }
        }
        return try codeRefused(state, purpose: current.purpose, csrf: csrf, status: status, retryAfter: retryAfter, request: request)
    }

    @Sendable package func resendCode(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let fields = try await WebForm.decode(WebForm.Code.self, from: request, context: context)
        guard let current = try await currentCode(request) else { return try codeGone(request) }
        do {
            let sent = try await services.phoneCodes().resendPhoneCode(verificationID: current.sent.verificationID, from: context.client)
            return try codeSent(sent, request: request, resent: true)
        } catch let error as GatehouseError {
            let shown = error.presentation
            var state = codeState(current)
            _ = codeForm.send(.resend, to: &state)
            _ = codeForm.send(.resendResponse(.failure(Self.failure(for: error))), to: &state)
            let csrf = fields.csrf ?? WebCookies.newToken()
            return try codeRefused(
                state, purpose: current.purpose, csrf: csrf, status: shown.httpStatus, retryAfter: shown.retryAfter, request: request
            )
        }
    }

    /// The code cannot be used any more (or there is none): back to the phone screen.
    private func codeGone(_ request: Request) throws -> Response {
        let expired = configuration.messages.text(.codeExpired)
        var response = try request.answer(
            json: PhoneWebAnswer.CodeRefused(codeError: expired, banner: nil, expired: true, retryAfter: nil), status: .gone
        ) { Response.redirect(to: "/login", type: .normal) }
        response.setCookie(WebCookies.expired(WebCookies.phoneCode))
        return response
    }

    private func codeRefused(
        _ state: CodeEntryState, purpose: PhoneCodePurpose, csrf: String, status: HTTPResponse.Status, retryAfter: Int?, request: Request
    ) throws -> Response {
        let answer = PhoneWebAnswer.CodeRefused(codeError: state.codeError, banner: state.banner, expired: state.isExpired, retryAfter: retryAfter)
        return try request.answer(json: answer, status: status, retryAfter: retryAfter) {
            try codePage(state, purpose: purpose, csrf: csrf, status: status)
        }
    }

    package func codePage(
        _ state: CodeEntryState, purpose: PhoneCodePurpose, csrf: String, status: HTTPResponse.Status, resent: Bool = false
    ) throws -> Response {
        let back = purpose == .register ? "/register" : (phoneFirst ? "/login" : "/login/phone")
        let page = CodePage(configuration: configuration, state: state, csrf: csrf, changeHref: back, configJSON: phoneConfigJSON)
        var values = page.context
        if resent { values["notice"] = configuration.messages.text(.codeResent) }
        return html(render(values, "code"), status: status, csrf: csrf)
    }
}
