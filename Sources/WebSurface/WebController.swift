import Crypto
import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import Hummingbird
import LoginCore
import Mustache

/// The login screen as web pages: `/`, `/login`, `/home`, `/logout`, `/assets/…`, and `/openapi.yaml`.
///
/// Without JavaScript the form posts and the server validates with LoginCore and re-renders;
/// with JavaScript the same POST answers JSON. The web session is an HttpOnly `__Host-`
/// cookie, never visible to scripts.
package struct WebController {
    package let services: GatehouseServices
    package let resources: WebResources
    package let form: LoginForm
    /// The rules and copy for the page's script; fixed for the life of the server.
    package let configJSON: String
    /// The app's colours as CSS custom properties (`/assets/theme.css`).
    package let themeCSS: String
    /// The regions the phone screens offer, the default first (empty without phone sign-in).
    package let phoneCountries: [PhoneCountry]
    /// The copy and countries for the phone and code screens' script, built once.
    package let phoneConfigJSON: String
    /// The app's logo file (`login.logo`), read once; `nil` shows Gatehouse's mark.
    package let logo: (type: String, data: Data)?
    /// Signs the cookie that carries analytics events to the next page.
    package let analyticsKey: SymmetricKey
    package var configuration: LoginConfiguration { form.configuration }

    /// `POST /login`, the login form: the server answers it from a hashing thread (``HashingThreadResponder``).
    package static let passwordSignIn = PasswordSignInRoute(path: "/login")

    package init(services: GatehouseServices, resources: WebResources, analyticsKey: SymmetricKey) {
        self.services = services
        self.resources = resources
        self.analyticsKey = analyticsKey
        let login = services.pipeline.settings.login
        form = LoginForm(configuration: login)
        configJSON = LoginPage.configJSON(login)
        themeCSS = LoginPage.themeCSS(login.theme)
        phoneCountries = services.phone?.countries() ?? []
        phoneConfigJSON = PhonePage.configJSON(login, countries: phoneCountries)
        logo = login.logo.flatMap { logo in
            (try? Data(contentsOf: URL(fileURLWithPath: logo.path))).map { (type: logo.mediaType, data: $0) }
        }
    }

    package func addRoutes(to router: Router<GatehouseRequestContext>) {
        var pages = router.group().add(middleware: WebSessionAuthenticator(pipeline: services.pipeline)).add(middleware: CSRFMiddleware())
            .add(middleware: WebAnalyticsMiddleware(key: analyticsKey))
        if let factors = services.factors { pages = pages.add(middleware: SecondFactorGate(factors: factors)) }
        pages.get("/") { _, context in
            Response.redirect(to: context.identity != nil ? "/home" : "/login", type: .normal)
        }
        pages.get("/login") { request, context in
            phoneFirst ? try await showPhone(request, context: context, mode: .signIn) : try await showLogin(request, context: context)
        }
        pages.post(RouterPath(Self.passwordSignIn.path), use: submitLogin)
        addPhoneRoutes(to: pages)
        pages.get("/home", use: showHome)
        addProviderRoutes(to: pages)
        pages.post("/logout", use: logout)
        addAccountRoutes(to: pages)
        addEmailCodeRoutes(to: pages)
        addDeletionRoutes(to: pages)
        addEmailChangeRoutes(to: pages)
        addPasskeyRoutes(to: pages)
        addDeviceRoutes(to: pages)
        addConfirmRoutes(to: pages)
        addSecondFactorRoutes(to: pages)
        router.get("/assets/logo") { _, _ in try logoResponse() }
        router.get("/assets/{name}") { _, context in try asset(context.parameters.get("name") ?? "") }
        router.get("/openapi.yaml") { _, _ in try asset("openapi.yaml") }
    }

    /// One of the module's files, revalidated on every use.
    package func asset(_ name: String) throws -> Response {
        let generated = name == "theme.css" ? (type: "text/css; charset=utf-8", body: themeCSS) : nil
        guard let asset = generated ?? resources.assets[name] else {
            throw GatehouseError.notFound
        }
        return Response(
            status: .ok, headers: [.contentType: asset.type, .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: asset.body))
        )
    }

    @Sendable package func showLogin(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        if context.identity != nil { return Response.redirect(to: "/home", type: .normal) }
        var state = form.initialState()
        WebAnalytics.record(form.send(.appeared, to: &state))
        var typing = state
        WebAnalytics.onFirstInput(form.send(.emailChanged("@"), to: &typing))
        if request.uri.queryParameters["reason"] == "expired" {
            _ = form.send(.sessionEnded(.sessionExpired), to: &state)
        }
        var response = try page(
            state: state, csrf: WebCookies.newToken(), status: .ok, retryAfter: nil, provider: providerState(request),
            passkey: loginPasskeyContext(request)
        )
        if request.cookies[WebCookies.session] != nil { response.setCookie(WebCookies.expired(WebCookies.session)) }
        return response
    }

    @Sendable package func showHome(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard let user = context.identity?.user.profile else {
            let reason = request.cookies[WebCookies.session] != nil ? "?reason=expired" : ""
            return Response.redirect(to: "/login" + reason, type: .normal)
        }
        let csrf = WebCookies.newToken()
        var values: [String: Any] = [
            "appName": configuration.appName, "name": user.name, "csrf": csrf, "deleteAccount": configuration.messages.text(.deleteAccountButton),
        ]
        if let done = request.uri.queryParameters["done"].flatMap({ HomeNotice(rawValue: String($0)) }) {
            values["homeNotice"] = configuration.messages.text(done.key, ["email": user.email])
        }
        // A phone-only account has no email to show, and its number is what identifies it.
        if !user.email.isEmpty { values["email"] = user.email }
        if let emailChange = services.emailChange, let principal = context.identity {
            values["changeEmail"] = configuration.messages.text(.changeEmailButton)
            if let pending = try await emailChange.pendingAddress(userID: principal.user.id) {
                values["pendingEmail"] = configuration.messages.text(.changeEmailPending, ["email": pending])
            }
        }
        if let principal = context.identity,
           let phone = try await services.profiles.identities(of: principal.user.id).first(where: { $0.provider == .phone })?.subject {
            values["phone"] = services.phone?.displayed(phone) ?? phone
        }
        if let principal = context.identity {
            values.merge(try await homeProviderContext(request, user: principal.user)) { _, new in new }
            values.merge(try await homePasskeyContext(request, principal: principal)) { _, new in new }
            values.merge(try await homeDeviceContext(request, principal: principal)) { _, new in new }
            values.merge(try await homeFactorContext(principal: principal)) { _, new in new }
        }
        let body = render(values, "home")
        return html(body, status: .ok, csrf: csrf)
    }

    @Sendable package func logout(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        if let principal = context.identity {
            try await services.pipeline.logout(principal, scope: .local)
        }
        var response = Response.redirect(to: "/login", type: .normal)
        response.setCookie(WebCookies.expired(WebCookies.session))
        // The sign-out sticks: the login page starts no biometric prompt until the next sign-in.
        response.setCookie(WebCookies.cookie(WebCookies.signedOut, "1", maxAge: 365 * 24 * 3600))
        response.headers[.cacheControl] = "no-store"
        return response
    }

    package func page(
        state: LoginState, csrf: String, status: HTTPResponse.Status, retryAfter: Int?, provider: ProviderLanded = ProviderLanded(),
        resendTo: String? = nil, passkey: [String: Any] = [:]
    ) throws -> Response {
        let page = LoginPage(configuration: configuration, state: state, csrf: csrf, configJSON: configJSON, retryAfter: retryAfter)
        var values = page.context.merging(providerContext(provider)) { _, new in new }.merging(accountLinks) { _, new in new }
            .merging(emailCodeLinks) { _, new in new }
        values.merge(passkey) { _, new in new }
        values["resendLabel"] = configuration.messages.text(.resendEmail)
        if let resendTo { values["resendTo"] = resendTo }
        let body = render(values, "login")
        return html(body, status: status, csrf: csrf)
    }

    /// A page from its template, with what every page shows: the app's name and its logo (or
    /// Gatehouse's mark, labelled with the app's name).
    package func render(_ values: [String: Any], _ template: String) -> String {
        var all = values
        if all["appName"] == nil { all["appName"] = configuration.appName }
        if let logo = configuration.logo, self.logo != nil { all["logoLabel"] = logo.label }
        return resources.templates.render(all, withTemplate: template) ?? ""
    }

    /// The app's logo file, revalidated on every use.
    package func logoResponse() throws -> Response {
        guard let logo else { throw GatehouseError.notFound }
        return Response(
            status: .ok, headers: [.contentType: logo.type, .cacheControl: "no-cache"], body: .init(byteBuffer: ByteBuffer(bytes: logo.data))
        )
    }

    /// An HTML page that is never cached, with a fresh CSRF cookie.
    package func html(_ body: String, status: HTTPResponse.Status, csrf: String) -> Response {
        var response = Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: WebAnalytics.embed(in: body)))
        )
        response.setCookie(WebCookies.cookie(WebCookies.csrf, csrf))
        return response
    }
}
