import Foundation
import GatehouseCore
import GatehouseHTTP
import Hummingbird
import LoginCore

/// "Email me a sign-in code" as web pages, each working without JavaScript: `/sign-in-code`
/// (the address, then the code) and `/sign-in-link` (the mail's link).
///
/// The pages are driven by LoginCore's ``EmailCodeForm``. The mail's link opens a page with one
/// button, so a mail scanner that fetches links never spends the sign-in.
extension WebController {
    var offersEmailCode: Bool { services.pipeline.settings.signInMethods.offers(.emailCode) }

    func addEmailCodeRoutes(to pages: RouterGroup<GatehouseRequestContext>) {
        guard offersEmailCode else { return }
        pages.get("/sign-in-code") { request, _ in
            let email = request.uri.queryParameters["email"].map(String.init) ?? ""
            return emailCodePage(EmailCodeState(email: email), csrf: WebCookies.newToken(), status: .ok)
        }
        pages.post("/sign-in-code", use: submitEmailCodeRequest)
        pages.post("/sign-in-code/verify", use: submitEmailCode)
        pages.get("/sign-in-link") { request, _ in
            signInLinkPage(token: request.uri.queryParameters["token"].map(String.init) ?? "", banner: nil, csrf: WebCookies.newToken(), status: .ok)
        }
        pages.post("/sign-in-link", use: submitSignInLink)
    }

    /// The login page's "Email me a sign-in code" button, where the app lists `emailCode`.
    package var emailCodeLinks: [String: Any] {
        offersEmailCode ? ["emailCodeButton": messages.text(.emailCodeButton)] : [:]
    }

    private var emailCodeForm: EmailCodeForm { EmailCodeForm(configuration: configuration, options: accounts) }

    /// "Email me a sign-in code" (from the login page or the address step), and "Send a new code".
    @Sendable func submitEmailCodeRequest(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let fields = try await WebForm.decode(WebForm.Account.self, from: request, context: context)
        let form = emailCodeForm
        var state = EmailCodeState()
        _ = form.send(.emailChanged(fields.email ?? ""), to: &state)
        var status = HTTPResponse.Status.unprocessableContent
        for case .requestCode(let email) in form.send(.requestCode, to: &state) {
            do {
                let address = try await services.accounts.sendSignInCode(email: email, createUser: accounts.signUp, from: context.client)
                _ = form.send(.requestResponse(.success(address)), to: &state)
                status = .ok
            } catch let error as GatehouseError {
                status = error.presentation.httpStatus
                _ = form.send(.requestResponse(.failure(Self.failure(for: error))), to: &state)
            }
        }
        return emailCodePage(state, csrf: fields.csrf ?? WebCookies.newToken(), status: status)
    }

    /// The code step's "Sign in" (or six digits typed, which submit it).
    @Sendable func submitEmailCode(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let fields = try await WebForm.decode(WebForm.Account.self, from: request, context: context)
        let form = emailCodeForm
        let address = EmailAddress.normalized(fields.email ?? "")
        var state = EmailCodeState(email: address)
        state.sentTo = address
        // Six digits submit themselves; anything else is submitted as the button would.
        var effects = form.send(.codeChanged(fields.code ?? ""), to: &state)
        if !state.isVerifying { effects += form.send(.submitCode, to: &state) }
        var status = HTTPResponse.Status.unprocessableContent
        while let effect = effects.first {
            effects.removeFirst()
            guard case .verifyCode(let email, let code) = effect else { continue }
            do {
                let signIn = try await services.pipeline.signInToWeb(
                    .emailCode(.code(email: email, code: code)), from: context.client, replacing: request.cookies[WebCookies.session]?.value
                )
                return try signedIn(signIn, request: request)
            } catch let error as GatehouseError {
                status = error.presentation.httpStatus
                effects = form.send(.verifyResponse(.failure(Self.failure(for: error))), to: &state)
            }
        }
        state.notice = messages.text(.emailCodeSent, ["email": address])
        return emailCodePage(state, resendWait: 0, csrf: fields.csrf ?? WebCookies.newToken(), status: status)
    }

    /// The mail's link, signed in with one press.
    @Sendable func submitSignInLink(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let fields = try await WebForm.decode(WebForm.Account.self, from: request, context: context)
        let csrf = fields.csrf ?? WebCookies.newToken()
        let token = fields.token ?? ""
        do {
            let signIn = try await services.pipeline.signInToWeb(
                .emailCode(.token(token)), from: context.client, replacing: request.cookies[WebCookies.session]?.value
            )
            return try signedIn(signIn, request: request)
        } catch let error as GatehouseError {
            let message = error == .linkExpired ? messages.text(.linkExpired) : Self.failure(for: error).message(in: messages)
            return signInLinkPage(token: "", banner: message, csrf: csrf, status: error.presentation.httpStatus)
        }
    }

    /// The address step, or (once a code went out) the code step with "Send a new code" and
    /// "Use a different email".
    func emailCodePage(_ state: EmailCodeState, resendWait: Int? = nil, csrf: String, status: HTTPResponse.Status) -> Response {
        let form = emailCodeForm
        guard let address = state.sentTo else {
            return accountPage(AccountPage(
                title: messages.text(.emailCodeTitle), formID: "email-code-form", action: "/sign-in-code",
                fields: [
                    .init(
                        name: "email", label: messages.text(.emailLabel), type: "email", autocomplete: "email", inputmode: "email",
                        value: state.email, error: state.emailError, checks: form.checks(for: .email)
                    ),
                ],
                submit: messages.text(.emailCodeButton), banner: state.banner, links: [otherWaysLink]
            ), csrf: csrf, status: status)
        }
        var page = AccountPage(
            title: messages.text(.checkEmailTitle), notice: state.notice, formID: "email-code-verify-form", action: "/sign-in-code/verify",
            fields: [
                .init(
                    name: "code", label: messages.text(.codeLabel), autocomplete: "one-time-code", inputmode: "numeric", value: state.code,
                    error: state.codeError, checks: form.checks(for: .code), autosubmit: EmailCodeForm.codeLength,
                    maxlength: EmailCodeForm.codeLength
                ),
            ],
            hidden: ["email": address], submit: messages.text(.emailCodeSubmit), banner: state.banner,
            links: [.init(id: "change-email", text: messages.text(.emailCodeChangeEmail), href: "/sign-in-code?email=\(Self.queryValue(address))"), otherWaysLink]
        )
        page.resend = address
        page.resendAction = "/sign-in-code"
        page.resendWait = state.isExpired ? nil : resendWait ?? services.accounts.resendInterval
        page.focusFirst = true
        return accountPage(page, csrf: csrf, status: status)
    }

    func signInLinkPage(token: String, banner: String?, csrf: String, status: HTTPResponse.Status) -> Response {
        var page = AccountPage(
            title: messages.text(.signInLinkTitle, ["app": configuration.appName]), notice: token.isEmpty ? nil : messages.text(.signInLinkPrompt),
            formID: "sign-in-link-form", action: "/sign-in-link", hidden: ["token": token], submit: messages.text(.signInLinkSubmit),
            banner: banner, showForm: !token.isEmpty, links: [otherWaysLink]
        )
        if token.isEmpty { page.links.insert(.init(id: "email-code-link", text: messages.text(.emailCodeButton), href: "/sign-in-code"), at: 0) }
        return accountPage(page, csrf: csrf, status: status)
    }

    /// Back to the login screen and its other ways in.
    private var otherWaysLink: AccountPage.Link {
        .init(id: "signin-link", text: messages.text(.signInOtherWay), href: "/login")
    }

    /// An address as a query value.
    static func queryValue(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~@"))) ?? ""
    }
}
