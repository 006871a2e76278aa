import Foundation
import GatehouseCore
import GatehouseHTTP
import Hummingbird
import GatehouseModel
import LoginCore

/// The second step of signing in (issue 37): `/login/mfa` asks a session at `aal1` for a code
/// from the authenticator app, or one of the recovery codes, and steps it up to `aal2` with a
/// new web session. Five wrong answers end the challenge and sign the browser out.
extension WebController {
    /// The form `/login/mfa` posts.
    struct SecondFactorFields: Decodable {
        var code: String?
        var challenge: String?
        var method: String?
        var csrf: String?
    }

    func addSecondFactorRoutes(to pages: RouterGroup<GatehouseRequestContext>) {
        guard services.factors != nil else { return }
        pages.get("/login/mfa", use: showSecondFactor)
        pages.post("/login/mfa", use: submitSecondFactor)
        if services.passkeys != nil {
            pages.post("/login/mfa/passkey/options") { _, context in
                guard context.identity != nil else { throw GatehouseError.unauthenticated }
                return try JSONBody.response(try await services.passkeyService().passkeyAuthenticationOptions(from: context.client))
            }
            pages.post("/login/mfa/passkey", use: stepUpWithPasskey)
        }
        addFactorSetupRoutes(to: pages)
    }

    @Sendable func showSecondFactor(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard let principal = context.identity else { return Response.redirect(to: "/login", type: .normal) }
        let factors = try services.secondFactors()
        // Due after a first factor; or asked for again before a sensitive action (`?confirm=1`).
        let confirming = request.uri.queryParameters["confirm"] != nil
        guard try await factors.challengeDue(for: principal) || confirming else { return Response.redirect(to: "/home", type: .normal) }
        let recovery = request.uri.queryParameters["method"] == "recovery" && factors.policy.recoveryCodes
        guard let challenge = try? await newChallenge(recovery: recovery, for: principal) else { return Response.redirect(to: "/home", type: .normal) }
        let passkey = try await offersPasskey(request, principal: principal)
        var state = SecondFactorState(offersRecoveryCodes: factors.policy.recoveryCodes, offersPasskey: passkey)
        WebAnalytics.record(LoginCore.SecondFactorForm(configuration: configuration).send(.appeared, to: &state))
        return secondFactorPage(challengeID: challenge, recovery: recovery, confirming: confirming, passkey: passkey)
    }

    /// `POST /login/mfa`: LoginCore's ``SecondFactorForm`` decides what the answer means and what
    /// the page then says; the pipeline's step up checks it.
    @Sendable func submitSecondFactor(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard let principal = context.identity else { return Response.redirect(to: "/login", type: .normal) }
        let factors = try services.secondFactors()
        let fields = try await WebForm.decode(SecondFactorFields.self, from: request, context: context)
        let recovery = fields.method == "recovery"
        guard let challenge = fields.challenge, !challenge.isEmpty else { return Response.redirect(to: "/login/mfa", type: .normal) }
        let machine = LoginCore.SecondFactorForm(configuration: configuration)
        var state = SecondFactorState(offersRecoveryCodes: factors.policy.recoveryCodes)
        if recovery { _ = machine.send(.useRecoveryCode, to: &state) }
        var effects = machine.send(.codeChanged(fields.code ?? ""), to: &state)
        if !state.isVerifying { effects += machine.send(.submit, to: &state) }
        WebAnalytics.record(effects)
        guard let answer = effects.lazy.compactMap({ if case .verify(let answer) = $0 { answer } else { nil } }).first else {
            return secondFactorPage(challengeID: challenge, recovery: recovery, error: state.codeError, status: .unprocessableContent)
        }
        do {
            let proof: SecondFactorProof.Answer = switch answer {
            case .authenticatorCode(let code): .code(code)
            case .recoveryCode(let code): .recoveryCode(code)
            }
            let previous = request.cookies[WebCookies.session]?.value ?? ""
            let signIn = try await services.pipeline.stepUpWeb(
                factors.grant(challengeID: challenge, answer: proof, for: principal), of: principal, from: context.client, replacing: previous
            )
            WebAnalytics.record(machine.send(.verifyResponse(.success(WebAnalytics.webSignIn)), to: &state))
            var response = Response.redirect(to: "/home", type: .normal)
            WebCookies.setSignedIn(&response, sessionID: signIn.sessionID, deviceToken: signIn.deviceToken, settings: services.pipeline.settings)
            return response
        } catch let error as GatehouseError {
            WebAnalytics.record(machine.send(.verifyResponse(.failure(Self.failure(for: error))), to: &state))
            let shown = error.presentation
            guard !state.isEnded else {
                // The challenge is over: the browser signs in again from the start.
                try await services.pipeline.logout(principal, scope: .local)
                var response = secondFactorPage(challengeID: nil, recovery: recovery, banner: state.banner, status: .unprocessableContent)
                response.setCookie(WebCookies.expired(WebCookies.session))
                return response
            }
            var response = secondFactorPage(
                challengeID: challenge, recovery: recovery, error: state.codeError, banner: state.banner, status: shown.httpStatus
            )
            if let wait = shown.retryAfter { response.headers[.retryAfter] = String(wait) }
            return response
        }
    }

    private func newChallenge(recovery: Bool, for principal: Principal) async throws -> String {
        let factors = try services.secondFactors()
        if recovery { return try await factors.recoveryChallenge(for: principal).id }
        guard let factor = try await factors.list(userID: principal.user.id).first(where: { $0.status == .verified }) else {
            throw GatehouseError.notFound
        }
        return try await factors.challenge(factorID: factor.id, for: principal).id
    }

    /// The challenge page: the code (or recovery code) field, and the other ways to answer.
    private func secondFactorPage(
        challengeID: String?, recovery: Bool, error: String? = nil, banner: String? = nil, status: HTTPResponse.Status = .ok,
        confirming: Bool = false, passkey: Bool = false
    ) -> Response {
        let csrf = WebCookies.newToken()
        let field = recovery
            ? AccountPage.Field(name: "code", label: messages.text(.mfaRecoveryLabel), autocomplete: "off", error: error, maxlength: 16)
            : AccountPage.Field(
                name: "code", label: messages.text(.mfaCodeLabel), autocomplete: "one-time-code", inputmode: "numeric", error: error,
                checks: [.pattern("^\\s*[0-9]{6}\\s*$", messages.text(.mfaChallengePrompt))], autosubmit: 6, maxlength: 6
            )
        var links: [AccountPage.Link] = []
        if challengeID == nil {
            links.append(.init(id: "sign-in-again", text: messages.text(.signInLink), href: "/login"))
        } else if recovery {
            links.append(.init(id: "use-authenticator", text: messages.text(.mfaUseAuthenticator), href: "/login/mfa" + (confirming ? "?confirm=1" : "")))
        } else if services.factors?.policy.recoveryCodes == true {
            links.append(.init(
                id: "use-recovery-code", text: messages.text(.mfaUseRecoveryCode), href: "/login/mfa?method=recovery" + (confirming ? "&confirm=1" : "")
            ))
        }
        if confirming { links.append(.init(id: "cancel-link", text: messages.text(.cancel), href: "/home")) }
        var page = AccountPage(
            title: messages.text(.mfaTitle), subtitle: messages.text(recovery ? .mfaRecoveryPrompt : .mfaChallengePrompt),
            notice: confirming ? messages.text(.mfaStepUpNeeded) : nil,
            formID: "mfa-form", action: "/login/mfa", fields: [field], submit: messages.text(.mfaVerify), banner: banner, links: links
        )
        page.showForm = challengeID != nil
        page.focusFirst = true
        page.hidden = ["challenge": challengeID ?? "", "method": recovery ? "recovery" : "totp"]
        var values = page.context(csrf: csrf, configuration: configuration)
        if passkey, challengeID != nil {
            values["passkeyButton"] = messages.text(.mfaUsePasskey)
            values["passkeyCancelled"] = messages.text(.passkeyCancelled)
            values["passkeyFailed"] = messages.text(.passkeyFailed)
        }
        return html(render(values, "account"), status: status, csrf: csrf)
    }

    /// Whether "Use a passkey" answers the challenge: the account has one and this host can use it.
    private func offersPasskey(_ request: Request, principal: Principal) async throws -> Bool {
        guard let passkeys = services.passkeys, passkeysWork(on: request) else { return false }
        return try await !passkeys.passkeys(of: principal.user.id).isEmpty
    }

    /// `POST /login/mfa/passkey`: a passkey's assertion steps the session up, as a code does.
    @Sendable func stepUpWithPasskey(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard let principal = context.identity else { throw GatehouseError.unauthenticated }
        let fields = try await WebForm.decode(WebForm.Passkey.self, from: request, context: context)
        guard let json = try? JSONDecoder().decode(PasskeyAssertionJSON.self, from: Data((fields.credential ?? "").utf8)) else {
            throw GatehouseError.invalidRequest("credential must be PublicKeyCredential.toJSON()")
        }
        do {
            let signIn = try await services.pipeline.stepUpWeb(
                try .passkey(json), of: principal, from: context.client, replacing: request.cookies[WebCookies.session]?.value ?? ""
            )
            var response = try JSONBody.response(["redirect": "/home"])
            WebCookies.setSignedIn(&response, sessionID: signIn.sessionID, deviceToken: signIn.deviceToken, settings: services.pipeline.settings)
            return response
        } catch let error as GatehouseError {
            return try JSONBody.response(["banner": messages.text(.passkeyFailed)], status: error.presentation.httpStatus)
        }
    }
}
