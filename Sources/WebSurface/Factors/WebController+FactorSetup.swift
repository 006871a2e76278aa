import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import Hummingbird
import LoginCore

/// Home's "Two-step verification" (issue 37): set up an authenticator app (its QR code, the
/// secret in groups of four for typing, the first code), then the recovery codes once, with
/// Copy and "Download as text"; the factors with Remove; new recovery codes. Everything is a
/// form post, so it all works without JavaScript.
extension WebController {
    /// The forms of `/home/mfa/…`.
    struct FactorForm: Decodable {
        var factor: String?
        var code: String?
        var csrf: String?
    }

    func addFactorSetupRoutes(to pages: RouterGroup<GatehouseRequestContext>) {
        // Where `mfa.required` sends an account without a factor: one button, to set one up.
        pages.get("/home/mfa") { _, context in
            guard context.identity != nil else { return Response.redirect(to: "/login", type: .normal) }
            let csrf = WebCookies.newToken()
            let page = AccountPage(
                title: messages.text(.mfaSetUp), notice: messages.text(.mfaOff), formID: "mfa-start-form", action: "/home/mfa/setup",
                submit: messages.text(.mfaSetUp)
            )
            return html(render(page.context(csrf: csrf, configuration: configuration), "account"), status: .ok, csrf: csrf)
        }
        pages.post("/home/mfa/setup") { request, context in
            try await signedIn(context) { principal in
                let enrolment = try await services.secondFactors().enrol(principal, friendlyName: "")
                return setupPage(enrolment, error: nil, status: .ok)
            }
        }
        pages.post("/home/mfa/verify", use: verifyFactorSetup)
        pages.get("/home/mfa/{id}/remove") { _, context in
            guard let principal = context.identity else { return Response.redirect(to: "/login", type: .normal) }
            let id = try context.parameters.require("id")
            guard let factor = try await services.secondFactors().list(userID: principal.user.id).first(where: { $0.id == id }) else {
                return Response.redirect(to: "/home", type: .normal)
            }
            return confirmPage(
                question: messages.text(.mfaConfirmRemove, ["name": Self.factorName(factor, messages: messages)]), action: "/home/mfa/\(id)/remove",
                submit: messages.text(.mfaRemove)
            )
        }
        pages.post("/home/mfa/{id}/remove") { _, context in
            try await signedIn(context) { principal in
                _ = try await services.secondFactors().remove(factorID: try context.parameters.require("id"), for: principal)
                return Response.redirect(to: "/home#two-step", type: .normal)
            }
        }
        pages.get("/home/mfa/recovery-codes") { _, context in
            guard context.identity != nil else { return Response.redirect(to: "/login", type: .normal) }
            return confirmPage(question: messages.text(.mfaConfirmRegenerate), action: "/home/mfa/recovery-codes", submit: messages.text(.mfaRegenerate))
        }
        pages.post("/home/mfa/recovery-codes") { _, context in
            try await signedIn(context) { principal in
                codesPage(try await services.secondFactors().regenerateRecoveryCodes(for: principal))
            }
        }
    }

    /// `POST /home/mfa/verify`: the first code; the session steps up and the recovery codes show once.
    @Sendable func verifyFactorSetup(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard let principal = context.identity else { return Response.redirect(to: "/login", type: .normal) }
        let factors = try services.secondFactors()
        let fields = try await WebForm.decode(FactorForm.self, from: request, context: context)
        guard let id = fields.factor, let enrolment = try await factors.pendingEnrolment(factorID: id, for: principal) else {
            return Response.redirect(to: "/home#two-step", type: .normal)
        }
        do {
            let challenge = try await factors.challenge(factorID: id, for: principal)
            let grant = factors.grant(challengeID: challenge.id, answer: .code(fields.code ?? ""), for: principal)
            let signIn = try await services.pipeline.stepUpWeb(
                grant, of: principal, from: context.client, replacing: request.cookies[WebCookies.session]?.value ?? ""
            )
            var response = signIn.recoveryCodes.map(codesPage) ?? Response.redirect(to: "/home#two-step", type: .normal)
            WebCookies.setSignedIn(&response, sessionID: signIn.sessionID, deviceToken: signIn.deviceToken, settings: services.pipeline.settings)
            return response
        } catch let error as GatehouseError {
            let text: String = switch error {
            case .codeRejected, .invalidRequest: messages.text(.mfaWrongCode)
            default: error.presentation.text
            }
            return setupPage(enrolment, error: text, status: error.presentation.httpStatus)
        }
    }

    /// Home's section: set up, or the factors, the codes left and new codes.
    func homeFactorContext(principal: Principal) async throws -> [String: Any] {
        guard let factors = services.factors else { return [:] }
        let verified = try await factors.list(userID: principal.user.id).filter { $0.status == .verified }
        var values: [String: Any] = [
            "offersFactors": true, "mfaTitle": messages.text(.mfaTitle), "mfaOff": messages.text(.mfaOff), "mfaOn": messages.text(.mfaOn),
            "mfaSetUp": messages.text(.mfaSetUp), "removeLabel": messages.text(.mfaRemove), "regenerateLabel": messages.text(.mfaRegenerate),
            "factors": verified.map { ["id": $0.id, "name": Self.factorName($0, messages: messages)] }, "hasFactors": !verified.isEmpty,
        ]
        if factors.policy.recoveryCodes, !verified.isEmpty {
            let left = try await factors.recoveryCodesLeft(userID: principal.user.id)
            values["recoveryCodes"] = true
            values["codesLeft"] = messages.text(.mfaCodesLeft, ["count": "\(left)"])
        }
        return values
    }

    /// Runs an action of the signed-in browser, or sends it to sign in. A sensitive action refused
    /// for want of a recent second factor is sent to answer it by ``SecondFactorGate``.
    private func signedIn(_ context: GatehouseRequestContext, _ action: (Principal) async throws -> Response) async throws -> Response {
        guard let principal = context.identity else { return Response.redirect(to: "/login", type: .normal) }
        return try await action(principal)
    }

    private func setupPage(_ enrolment: SecondFactors.Enrolment, error: String?, status: HTTPResponse.Status) -> Response {
        let csrf = WebCookies.newToken()
        let field = AccountPage.Field(
            name: "code", label: messages.text(.mfaFirstCodePrompt), autocomplete: "one-time-code", inputmode: "numeric", error: error,
            checks: [.pattern("^\\s*[0-9]{6}\\s*$", messages.text(.mfaFirstCodePrompt))], autosubmit: 6, maxlength: 6
        )
        var page = AccountPage(title: messages.text(.mfaSetUp), action: "/home/mfa/verify", fields: [field], submit: messages.text(.mfaVerify))
        page.focusFirst = error != nil
        var values = page.context(csrf: csrf, configuration: configuration)
        values["setup"] = true
        values["scanPrompt"] = messages.text(.mfaScanPrompt)
        values["qrCode"] = enrolment.qrCode ?? ""
        values["secretLabel"] = messages.text(.mfaSecretLabel)
        values["secretGroups"] = SetupKey.grouped(enrolment.secret)
        values["factorID"] = enrolment.factor.id
        values["cancelLabel"] = messages.text(.cancel)
        return html(render(values, "mfa-setup"), status: status, csrf: csrf)
    }

    private func codesPage(_ codes: [String]) -> Response {
        let csrf = WebCookies.newToken()
        let text = codes.joined(separator: "\n") + "\n"
        let values: [String: Any] = [
            "title": messages.text(.mfaTitle), "codes": true, "codesTitle": messages.text(.mfaRecoveryCodesTitle),
            "codesBody": messages.text(.mfaRecoveryCodesBody), "list": codes, "copyLabel": messages.text(.mfaCopy),
            "copiedLabel": messages.text(.mfaCopied), "downloadLabel": messages.text(.mfaDownload),
            "download": text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "",
            "fileName": "\(configuration.appName) recovery codes.txt", "continueLabel": messages.text(.continueLink),
        ]
        return html(render(values, "mfa-setup"), status: .ok, csrf: csrf)
    }

    static func factorName(_ factor: FactorRecord, messages: MessageCatalogue) -> String {
        factor.friendlyName.isEmpty ? messages.text(.mfaAuthenticatorApp) : factor.friendlyName
    }
}
