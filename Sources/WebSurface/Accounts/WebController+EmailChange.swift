import Foundation
import GatehouseCore
import GatehouseHTTP
import Hummingbird
import LoginCore

/// Home's "Change email" (issue 39) as web pages, each working without JavaScript.
///
/// `/home/email` asks for the new address (and the password, where the account has one), then
/// for the code mailed to it. Each mail's link opens `/email-change`, a page with one button,
/// so a mail scanner never spends it; the current address's page also offers "Cancel this
/// change". `/email-change/revert` is the old address's "This wasn't me": it puts the address
/// back, signs out every device and opens the reset page.
extension WebController {
    func addEmailChangeRoutes(to pages: RouterGroup<GatehouseRequestContext>) {
        guard services.emailChange != nil else { return }
        pages.get("/home/email") { _, context in
            guard let principal = context.identity else { return Response.redirect(to: "/login", type: .normal) }
            return try await changeEmailPage(principal, email: "", errors: (nil, nil), banner: nil, status: .ok)
        }
        pages.post("/home/email", use: submitEmailChange)
        pages.post("/email-change/code", use: submitEmailChangeCode)
        pages.get("/email-change") { request, _ in
            try await emailChangeLinkPage(token: request.uri.queryParameters["token"].map(String.init) ?? "")
        }
        pages.post("/email-change", use: submitEmailChangeLink)
        pages.get("/email-change/cancel") { request, _ in
            tokenPage(
                title: .emailChangeCancelButton, prompt: nil, action: "/email-change/cancel", submit: .emailChangeCancelButton,
                token: request.uri.queryParameters["token"].map(String.init) ?? "", destructive: true
            )
        }
        pages.post("/email-change/cancel", use: submitEmailChangeCancel)
        pages.get("/email-change/revert") { request, _ in
            tokenPage(
                title: .emailChangeRevertTitle, prompt: messages.text(.emailChangeRevertPrompt),
                action: "/email-change/revert", submit: .emailChangeRevertButton,
                token: request.uri.queryParameters["token"].map(String.init) ?? "", destructive: true
            )
        }
        pages.post("/email-change/revert", use: submitEmailChangeRevert)
    }

    /// The new address (and password): the mails go out, then the code step.
    @Sendable func submitEmailChange(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard let principal = context.identity else { return Response.redirect(to: "/login", type: .normal) }
        let fields = try await WebForm.decode(WebForm.Account.self, from: request, context: context)
        let email = fields.email ?? ""
        let needsPassword = try await services.deletion.needsPassword(principal)
        let password = needsPassword ? fields.password ?? "" : nil
        if email.isEmpty || password?.isEmpty == true {
            return try await changeEmailPage(
                principal, email: email, errors: (email.isEmpty ? messages.text(.emailRequired) : nil, password?.isEmpty == true ? messages.text(.passwordRequired) : nil),
                banner: nil, status: .unprocessableContent
            )
        }
        do {
            let address = try await services.emailChanges().request(principal, newEmail: email, password: password, from: context.client)
            return emailChangeCodePage(address: address, code: "", error: nil, csrf: fields.csrf ?? WebCookies.newToken(), status: .ok)
        } catch GatehouseError.invalidRequest(let reason) {
            return try await changeEmailPage(principal, email: email, errors: (reason, nil), banner: nil, status: .badRequest)
        } catch GatehouseError.invalidCredentials {
            return try await changeEmailPage(principal, email: email, errors: (nil, messages.text(.deleteAccountWrongPassword)), banner: nil, status: .unauthorized)
        } catch GatehouseError.reauthenticationRequired {
            return try await changeEmailPage(principal, email: email, errors: (nil, nil), banner: messages.text(.changeEmailSignInAgain), status: .unauthorized)
        } catch GatehouseError.stepUpRequired {
            return try await changeEmailPage(principal, email: email, errors: (nil, nil), banner: messages.text(.mfaStepUpNeeded), status: .forbidden)
        } catch let error as GatehouseError {
            return try await changeEmailPage(
                principal, email: email, errors: (nil, nil), banner: Self.failure(for: error).message(in: messages), status: error.presentation.httpStatus
            )
        }
    }

    /// The new address's code, typed on the page the request led to.
    @Sendable func submitEmailChangeCode(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let fields = try await WebForm.decode(WebForm.Account.self, from: request, context: context)
        let address = EmailAddress.normalized(fields.email ?? "")
        let code = (fields.code ?? "").filter { !$0.isWhitespace }
        let csrf = fields.csrf ?? WebCookies.newToken()
        guard !code.isEmpty else {
            return emailChangeCodePage(address: address, code: "", error: messages.text(.codeRequired), csrf: csrf, status: .unprocessableContent)
        }
        do {
            return try await emailChangeOutcome(services.emailChanges().confirm(.code(email: address, code: code), from: context.client), context: context)
        } catch let error as GatehouseError {
            let message = error == .linkExpired ? messages.text(.linkExpired) : Self.failure(for: error).message(in: messages)
            return emailChangeCodePage(address: address, code: code, error: message, csrf: csrf, status: error.presentation.httpStatus)
        }
    }

    /// Either mail's link, confirmed with one press.
    @Sendable func submitEmailChangeLink(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let fields = try await WebForm.decode(WebForm.Account.self, from: request, context: context)
        do {
            return try await emailChangeOutcome(services.emailChanges().confirm(.token(fields.token ?? ""), from: context.client), context: context)
        } catch let error as GatehouseError {
            return expiredPage(error)
        }
    }

    @Sendable func submitEmailChangeCancel(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let fields = try await WebForm.decode(WebForm.Account.self, from: request, context: context)
        do {
            try await services.emailChanges().cancel(token: fields.token ?? "", from: context.client)
            return resultPage(title: .emailChangeCancelButton, notice: messages.text(.emailChangeCancelled), context: context)
        } catch let error as GatehouseError {
            return expiredPage(error)
        }
    }

    /// "This wasn't me": the address back, every device signed out, and the reset page open.
    @Sendable func submitEmailChangeRevert(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let fields = try await WebForm.decode(WebForm.Account.self, from: request, context: context)
        do {
            let reset = try await services.emailChanges().revert(token: fields.token ?? "", from: context.client)
            var response = Response.redirect(to: "/reset-password?token=\(reset.token)", type: .normal)
            response.setCookie(WebCookies.expired(WebCookies.session))
            response.headers[.cacheControl] = "no-store"
            return response
        } catch let error as GatehouseError {
            return expiredPage(error)
        }
    }

    /// Waiting for the other address, or done: Home says so to a signed-in browser.
    private func emailChangeOutcome(_ progress: EmailChangeProgress, context: GatehouseRequestContext) throws -> Response {
        switch progress {
        case .awaitingOther:
            return resultPage(title: .emailChangeTitle, notice: messages.text(.emailChangeWaiting), context: context)
        case .done(_, let email):
            if context.identity != nil { return Response.redirect(to: "/home?done=\(HomeNotice.emailChanged.rawValue)", type: .normal) }
            return resultPage(title: .emailChangeTitle, notice: messages.text(.emailChangeDone, ["email": email]), context: context)
        }
    }

    /// "Change your email": the new address and, where the account has one, the password.
    private func changeEmailPage(
        _ principal: Principal, email: String, errors: (email: String?, password: String?), banner: String?, status: HTTPResponse.Status
    ) async throws -> Response {
        let checks = EmailCodeForm(configuration: configuration, options: accounts).checks(for: .email)
        var page = AccountPage(
            title: messages.text(.changeEmailTitle), notice: messages.text(.changeEmailBody), formID: "change-email-form", action: "/home/email",
            fields: [.init(
                name: "email", label: messages.text(.changeEmailLabel), type: "email", autocomplete: "email", inputmode: "email", value: email,
                error: errors.email, checks: checks
            )],
            submit: messages.text(.changeEmailSubmit), banner: banner, links: [.init(id: "cancel-link", text: messages.text(.cancel), href: "/home")]
        )
        if try await services.deletion.needsPassword(principal) {
            page.fields.append(.init(
                name: "password", label: messages.text(.changeEmailPasswordLabel), type: "password", autocomplete: "current-password",
                error: errors.password, checks: [.required(messages.text(.passwordRequired), trimmed: false)]
            ))
        }
        return accountPage(page, csrf: WebCookies.newToken(), status: status)
    }

    /// "Check your email": the new address's code.
    private func emailChangeCodePage(address: String, code: String, error: String?, csrf: String, status: HTTPResponse.Status) -> Response {
        var page = AccountPage(
            title: messages.text(.checkEmailTitle), notice: messages.text(.changeEmailSent, ["email": address]), formID: "email-change-code-form",
            action: "/email-change/code",
            fields: [.init(
                name: "code", label: messages.text(.codeLabel), autocomplete: "one-time-code", inputmode: "numeric", value: code, error: error,
                checks: [.required(messages.text(.codeRequired), trimmed: true)], autosubmit: 6, maxlength: 6
            )],
            hidden: ["email": address], submit: messages.text(.changeEmailCodeSubmit),
            links: [.init(id: "home-link", text: messages.text(.continueLink), href: "/home")]
        )
        page.focusFirst = true
        return accountPage(page, csrf: csrf, status: status)
    }

    /// A mail's link: what it would change, and its button (and, for the current address, "Cancel this change").
    private func emailChangeLinkPage(token: String) async throws -> Response {
        do {
            let preview = try await services.emailChanges().preview(token: token)
            var response = tokenPage(
                title: .emailChangeTitle, prompt: messages.text(.emailChangePrompt, ["app": configuration.appName, "email": preview.newEmail]),
                action: "/email-change", submit: .emailChangeConfirmButton, token: token, destructive: false,
                cancel: preview.fromCurrentAddress ? "/email-change/cancel?token=\(token)" : nil
            )
            response.headers[.referrerPolicy] = "no-referrer"
            return response
        } catch let error as GatehouseError {
            return expiredPage(error)
        }
    }

    /// A page whose one button posts a mail's token.
    private func tokenPage(
        title: MessageKey, prompt: String?, action: String, submit: MessageKey, token: String, destructive: Bool, cancel: String? = nil
    ) -> Response {
        guard !token.isEmpty else { return expiredPage(.linkExpired) }
        var page = AccountPage(
            title: messages.text(title), notice: prompt, formID: "email-change-form", action: action, hidden: ["token": token],
            submit: messages.text(submit)
        )
        page.destructive = destructive
        if let cancel { page.links = [.init(id: "cancel-change", text: messages.text(.emailChangeCancelButton), href: cancel)] }
        return accountPage(page, csrf: WebCookies.newToken(), status: .ok)
    }

    private func resultPage(title: MessageKey, notice: String, context: GatehouseRequestContext) -> Response {
        let link: AccountPage.Link = context.identity != nil
            ? .init(id: "home-link", text: messages.text(.continueLink), href: "/home")
            : .init(id: "signin-link", text: messages.text(.signInLink), href: "/login")
        let page = AccountPage(
            title: messages.text(title), notice: notice, noticeIsSuccess: true, action: "", submit: "", showForm: false, links: [link]
        )
        return accountPage(page, csrf: WebCookies.newToken(), status: .ok)
    }

    private func expiredPage(_ error: GatehouseError) -> Response {
        let message = error == .linkExpired ? messages.text(.linkExpired) : Self.failure(for: error).message(in: messages)
        let page = AccountPage(
            title: messages.text(.emailChangeTitle), action: "", submit: "", banner: message, showForm: false,
            links: [.init(id: "signin-link", text: messages.text(.signInLink), href: "/login")]
        )
        return accountPage(page, csrf: WebCookies.newToken(), status: error.presentation.httpStatus)
    }
}
