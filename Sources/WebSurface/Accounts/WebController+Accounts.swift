import Foundation
import GatehouseCore
import GatehouseHTTP
import Hummingbird
import LoginCore

/// Sign-up, email verification and password reset as web pages, each working without
/// JavaScript: `/signup`, `/verify-email`, `/verify-email/resend`, `/forgot-password` and
/// `/reset-password`.
///
/// The forms are driven by LoginCore's ``SignUpForm`` and ``PasswordResetForm``. A link from a
/// mail opens a page with one button: mail scanners that fetch links never spend the secret.
extension WebController {
    var accounts: AccountOptions { services.pipeline.settings.accounts }
    var messages: MessageCatalogue { configuration.messages }

    func addAccountRoutes(to pages: RouterGroup<GatehouseRequestContext>) {
        pages.get("/signup") { _, _ in try signUpPage(SignUpState(), csrf: WebCookies.newToken(), status: .ok) }
        pages.post("/signup", use: submitSignUp)
        pages.get("/verify-email", use: showVerify)
        pages.post("/verify-email", use: submitVerify)
        pages.post("/verify-email/resend", use: submitResend)
        pages.get("/forgot-password") { _, _ in try forgotPage(PasswordResetForm.State(), csrf: WebCookies.newToken(), status: .ok) }
        pages.post("/forgot-password", use: submitForgot)
        pages.get("/reset-password", use: showReset)
        pages.post("/reset-password", use: submitReset)
    }

    /// The login page's links to these pages, by the app's `accounts` options.
    package var accountLinks: [String: Any] {
        var values: [String: Any] = [:]
        if accounts.passwordReset { values["forgotLink"] = messages.text(.forgotPassword) }
        if accounts.signUp {
            values["signUpPrompt"] = messages.text(.signUpPrompt)
            values["signUpLink"] = messages.text(.signUpLink)
        }
        return values
    }

    // MARK: Sign-up

    @Sendable func submitSignUp(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard accounts.signUp else { throw GatehouseError.notFound }
        let fields = try await WebForm.decode(WebForm.Account.self, from: request, context: context)
        let form = SignUpForm(configuration: configuration, options: accounts)
        var state = SignUpState()
        _ = form.send(.nameChanged(fields.name ?? ""), to: &state)
        _ = form.send(.emailChanged(fields.email ?? ""), to: &state)
        _ = form.send(.passwordChanged(fields.password ?? ""), to: &state)
        var status = HTTPResponse.Status.unprocessableContent
        var binding: String?
        for case .signUp(let name, let email, let password) in form.send(.submit, to: &state) {
            do {
                let receipt = try await services.accounts.signUp(email: email, password: password, name: name, from: context.client)
                binding = receipt.binding
                _ = form.send(.signUpResponse(.success(receipt.address)), to: &state)
                status = .ok
            } catch let error as GatehouseError {
                status = error.presentation.httpStatus
                _ = form.send(.signUpResponse(.failure(Self.failure(for: error))), to: &state)
            }
        }
        var response = try signUpPage(state, csrf: fields.csrf ?? WebCookies.newToken(), status: status)
        // The mail's link signs in only in this browser, which shows this cookie again.
        if let binding { response.setCookie(WebCookies.cookie(WebCookies.signUp, binding, maxAge: 24 * 3600)) }
        return response
    }

    func signUpPage(_ state: SignUpState, csrf: String, status: HTTPResponse.Status) throws -> Response {
        guard accounts.signUp else { throw GatehouseError.notFound }
        if let address = state.sentTo {
            return checkEmailPage(address: address, notice: messages.text(.verificationSent, ["email": address]), wait: services.accounts.resendInterval, csrf: csrf, status: status)
        }
        let form = SignUpForm(configuration: configuration, options: accounts)
        return accountPage(AccountPage(
            title: messages.text(.signUpTitle), subtitle: messages.text(.signUpSubtitle), formID: "signup-form", action: "/signup",
            fields: [
                .init(name: "name", label: messages.text(.nameLabel), autocomplete: "name", value: state.name, error: state.nameError, checks: form.checks(for: .name)),
                .init(
                    name: "email", label: messages.text(.emailLabel), type: "email", autocomplete: "email", inputmode: "email",
                    value: state.email, error: state.emailError, checks: form.checks(for: .email)
                ),
                .init(
                    name: "password", label: messages.text(.passwordLabel), type: "password", autocomplete: "new-password",
                    error: state.passwordError, checks: form.checks(for: .password)
                ),
            ],
            submit: messages.text(.signUpSubmit), banner: state.banner, links: [signInLink]
        ), csrf: csrf, status: status)
    }

    /// "Check your email": what was sent, the mailed code's field (the mail says "Or enter this
    /// code"), and "Resend email", counting down while a resend would be refused.
    func checkEmailPage(
        address: String, notice: String, wait: Int, code: String = "", codeError: String? = nil, banner: String? = nil,
        csrf: String, status: HTTPResponse.Status
    ) -> Response {
        let form = SignUpForm(configuration: configuration, options: accounts)
        return accountPage(AccountPage(
            title: messages.text(.checkEmailTitle), notice: notice, formID: "verify-form", action: "/verify-email",
            fields: [
                .init(
                    name: "code", label: messages.text(.codeLabel), autocomplete: "one-time-code", inputmode: "numeric", value: code,
                    error: codeError, hint: messages.text(.emailCodeHint), checks: form.checks(for: .code)
                ),
            ],
            hidden: ["email": address], submit: messages.text(.verifyEmailSubmit), banner: banner, resend: address,
            resendWait: wait > 0 ? wait : nil, links: [signInLink]
        ), csrf: csrf, status: status)
    }

    // MARK: Verification

    @Sendable func showVerify(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let token = request.uri.queryParameters["token"].map(String.init)
        return verifyPage(token: token, email: "", banner: nil, csrf: WebCookies.newToken(), status: .ok)
    }

    @Sendable func submitVerify(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let fields = try await WebForm.decode(WebForm.Account.self, from: request, context: context)
        let csrf = fields.csrf ?? WebCookies.newToken()
        let byLink = fields.token.map { !$0.isEmpty } ?? false
        let proof: MailProof = byLink ? .token(fields.token ?? "") : .code(email: fields.email ?? "", code: fields.code ?? "")
        do {
            let signIn = try await services.pipeline.signInToWeb(.emailLink(proof), from: context.client, replacing: request.cookies[WebCookies.session]?.value)
            var response = try signedIn(signIn, request: request, notice: .emailVerified)
            response.setCookie(WebCookies.expired(WebCookies.signUp))
            return response
        } catch GatehouseError.signInToContinue {
            // Opened away from the browser that signed up: verified, and the person signs in.
            return accountPage(AccountPage(
                title: messages.text(.verifyEmailTitle), notice: messages.text(.emailVerifiedSignIn), noticeIsSuccess: true, action: "", submit: "",
                showForm: false, links: [signInLink]
            ), csrf: csrf, status: .ok)
        } catch GatehouseError.linkExpired where byLink && context.identity != nil {
            // A spent link reopened by someone signed in: nothing is wrong, and Home is one tap away.
            return accountPage(AccountPage(
                title: messages.text(.verifyEmailTitle), notice: messages.text(.linkAlreadyUsed), action: "", submit: "", showForm: false,
                links: [.init(id: "continue-link", text: messages.text(.continueLink), href: "/home")]
            ), csrf: csrf, status: .ok)
        } catch let error as GatehouseError {
            let message = Self.failure(for: error).message(in: messages)
            let email = fields.email ?? ""
            if !byLink, !email.isEmpty {
                // A wrong or spent code: the same page, the message under the code field.
                return checkEmailPage(
                    address: email, notice: messages.text(.verificationSent, ["email": email]), wait: 0, code: fields.code ?? "",
                    codeError: message, csrf: csrf, status: error.presentation.httpStatus
                )
            }
            return verifyPage(token: nil, email: email, banner: message, csrf: csrf, status: error.presentation.httpStatus)
        }
    }

    func verifyPage(token: String?, email: String, banner: String?, csrf: String, status: HTTPResponse.Status) -> Response {
        var page = AccountPage(
            title: messages.text(.verifyEmailTitle), formID: "verify-form", action: "/verify-email", submit: messages.text(.verifyEmailSubmit),
            banner: banner, links: [signInLink]
        )
        if let token, !token.isEmpty {
            page.hidden = ["token": token]
        } else {
            let form = SignUpForm(configuration: configuration, options: accounts)
            page.fields = [
                .init(
                    name: "email", label: messages.text(.emailLabel), type: "email", autocomplete: "email", inputmode: "email", value: email,
                    checks: form.checks(for: .email)
                ),
                .init(name: "code", label: messages.text(.codeLabel), autocomplete: "one-time-code", inputmode: "numeric", checks: form.checks(for: .code)),
            ]
            if !email.isEmpty { page.resend = email }
        }
        return accountPage(page, csrf: csrf, status: status)
    }

    /// "Resend email": the same notice whether or not the address needs one; "Check your email"
    /// again, its button counting down the wait (shown once, with no error beside it).
    @Sendable func submitResend(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let fields = try await WebForm.decode(WebForm.Account.self, from: request, context: context)
        let csrf = fields.csrf ?? WebCookies.newToken()
        let typed = fields.email ?? ""
        do {
            let address = try await services.accounts.resendVerification(email: typed, from: context.client)
            return checkEmailPage(
                address: address, notice: messages.text(.emailResent, ["email": address]), wait: services.accounts.resendInterval, csrf: csrf, status: .ok
            )
        } catch GatehouseError.rateLimited(let seconds), GatehouseError.resendTooSoon(let seconds) {
            let address = EmailAddress.normalized(typed)
            return checkEmailPage(
                address: address, notice: messages.text(.verificationSent, ["email": address]), wait: seconds, csrf: csrf, status: .tooManyRequests
            )
        } catch let error as GatehouseError {
            return accountPage(AccountPage(
                title: messages.text(.checkEmailTitle), notice: Self.failure(for: error).message(in: messages), action: "", submit: "",
                showForm: false, links: [signInLink]
            ), csrf: csrf, status: error.presentation.httpStatus)
        }
    }

    // MARK: Password reset

    @Sendable func submitForgot(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard accounts.passwordReset else { throw GatehouseError.notFound }
        let fields = try await WebForm.decode(WebForm.Account.self, from: request, context: context)
        let form = PasswordResetForm(configuration: configuration, options: accounts)
        var state = PasswordResetForm.State()
        _ = form.send(.emailChanged(fields.email ?? ""), to: &state)
        var status = HTTPResponse.Status.unprocessableContent
        for case .requestReset(let email) in form.send(.requestReset, to: &state) {
            do {
                let address = try await services.accounts.requestPasswordReset(email: email, from: context.client)
                _ = form.send(.requestResponse(.success(address)), to: &state)
                status = .ok
            } catch let error as GatehouseError {
                status = error.presentation.httpStatus
                _ = form.send(.requestResponse(.failure(Self.failure(for: error))), to: &state)
            }
        }
        return try forgotPage(state, csrf: fields.csrf ?? WebCookies.newToken(), status: status)
    }

    func forgotPage(_ state: PasswordResetForm.State, csrf: String, status: HTTPResponse.Status) throws -> Response {
        guard accounts.passwordReset else { throw GatehouseError.notFound }
        return accountPage(AccountPage(
            title: messages.text(.forgotTitle), subtitle: messages.text(.forgotSubtitle), notice: state.notice, formID: "forgot-form",
            action: "/forgot-password",
            fields: [
                .init(
                    name: "email", label: messages.text(.emailLabel), type: "email", autocomplete: "email", inputmode: "email",
                    value: state.email, error: state.emailError, checks: PasswordResetForm(configuration: configuration, options: accounts).checks(for: .email)
                ),
            ],
            submit: messages.text(.forgotSubmit), banner: state.banner, showForm: state.notice == nil, links: [signInLink]
        ), csrf: csrf, status: status)
    }

    @Sendable func showReset(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard accounts.passwordReset else { throw GatehouseError.notFound }
        let token = request.uri.queryParameters["token"].map(String.init)
        return resetPage(PasswordResetForm.State(), token: token, code: "", csrf: WebCookies.newToken(), status: .ok)
    }

    @Sendable func submitReset(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard accounts.passwordReset else { throw GatehouseError.notFound }
        let fields = try await WebForm.decode(WebForm.Account.self, from: request, context: context)
        let form = PasswordResetForm(configuration: configuration, options: accounts)
        var state = PasswordResetForm.State()
        _ = form.send(.emailChanged(fields.email ?? ""), to: &state)
        _ = form.send(.passwordChanged(fields.password ?? ""), to: &state)
        let token = fields.token.flatMap { $0.isEmpty ? nil : $0 }
        let proof: MailProof = token.map(MailProof.token) ?? .code(email: fields.email ?? "", code: fields.code ?? "")
        var status = HTTPResponse.Status.unprocessableContent
        for case .resetPassword(let password) in form.send(.submitPassword, to: &state) {
            do {
                let grant = Grant.passwordReset(proof, newPassword: password)
                let signIn = try await services.pipeline.signInToWeb(grant, from: context.client, replacing: request.cookies[WebCookies.session]?.value)
                return try signedIn(signIn, request: request, notice: .passwordChanged)
            } catch let error as GatehouseError {
                status = error.presentation.httpStatus
                _ = form.send(.resetResponse(.failure(Self.failure(for: error))), to: &state)
            }
        }
        return resetPage(state, token: token, code: fields.code ?? "", csrf: fields.csrf ?? WebCookies.newToken(), status: status)
    }

    func resetPage(_ state: PasswordResetForm.State, token: String?, code: String, csrf: String, status: HTTPResponse.Status) -> Response {
        let form = PasswordResetForm(configuration: configuration, options: accounts)
        var page = AccountPage(
            title: messages.text(.resetTitle), formID: "reset-form", action: "/reset-password", submit: messages.text(.resetSubmit),
            banner: state.banner, links: [signInLink]
        )
        if let token {
            page.hidden = ["token": token]
        } else {
            page.fields = [
                .init(
                    name: "email", label: messages.text(.emailLabel), type: "email", autocomplete: "email", inputmode: "email", value: state.email,
                    error: state.emailError, checks: form.checks(for: .email)
                ),
                .init(
                    name: "code", label: messages.text(.codeLabel), autocomplete: "one-time-code", inputmode: "numeric", value: code,
                    checks: form.checks(for: .code)
                ),
            ]
        }
        page.fields.append(.init(
            name: "password", label: messages.text(.newPasswordLabel), type: "password", autocomplete: "new-password", error: state.passwordError,
            checks: form.checks(for: .password)
        ))
        return accountPage(page, csrf: csrf, status: status)
    }

    // MARK: Shared

    var signInLink: AccountPage.Link {
        .init(id: "signin-link", prompt: messages.text(.haveAccountPrompt), text: messages.text(.signInLink), href: "/login")
    }

    func accountPage(_ page: AccountPage, csrf: String, status: HTTPResponse.Status) -> Response {
        html(render(page.context(csrf: csrf, configuration: configuration), "account"), status: status, csrf: csrf)
    }
}
