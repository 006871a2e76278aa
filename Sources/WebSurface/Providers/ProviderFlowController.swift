import Crypto
import Foundation
import GatehouseCore
import GatehouseHTTP
import Hummingbird
import LoginCore

/// The browser half of signing in with each provider of the registry (`:provider` is its id:
/// `google`, `github`, `microsoft`, `acme-sso`).
///
/// - `GET /auth/:provider/start[?return_to=/path]`: the login page's button; `?link=1`, Home's
///   "Link"; or, for an app (the CLI), `?redirect_to=URL&code_challenge=S256&state=…`.
/// - `GET /auth/:provider/callback`: the provider's answer. A web flow opens a web session and
///   lands on Home (or the profile step for a new account); an app flow returns a one-time code
///   to the app; a denial comes back as cancelled. A flow begun with one provider is never
///   finished by another's callback.
package struct ProviderFlowController {
    package let pipeline: SignInPipeline
    package let providers: ProviderSignIn
    /// Signs the cookie that carries analytics events to the next page.
    package let analyticsKey: SymmetricKey

    package init(pipeline: SignInPipeline, providers: ProviderSignIn, analyticsKey: SymmetricKey) {
        self.pipeline = pipeline
        self.providers = providers
        self.analyticsKey = analyticsKey
    }

    package func addRoutes(to router: Router<GatehouseRequestContext>) {
        let pages = router.group().add(middleware: WebSessionAuthenticator(pipeline: pipeline)).add(middleware: WebAnalyticsMiddleware(key: analyticsKey))
        pages.get("/auth/:provider/start", use: start)
        pages.get("/auth/:provider/callback", use: callback)
        pages.get("/auth/:provider/continue", use: handedOver)
        // Apple's `form_post`: a cross-site POST, bound by its state and the flow cookie (no CSRF
        // token can come from another site), so it is outside the web forms' CSRF check.
        pages.post("/auth/:provider/callback", use: postedCallback)
    }

    /// The route's provider, when the registry has it; otherwise the route does not exist.
    private func provider(_ context: GatehouseRequestContext) throws -> ConfiguredProvider {
        let id = SignInMethods.Method(rawValue: context.parameters.get("provider") ?? "")
        guard id.isWellFormed, let provider = providers.registry.first(where: { $0.id == id }) else { throw GatehouseError.notFound }
        return provider
    }

    /// The button's machine for provider `id`, in the app's words.
    private func button(_ provider: ConfiguredProvider) -> ProviderButton {
        ProviderButton(configuration: pipeline.settings.login, provider: provider.descriptor)
    }

    @Sendable package func start(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let provider = try provider(context)
        let id = provider.id
        let query = request.uri.queryParameters
        let started: ProviderStart
        if let target = query["redirect_to"].map(String.init) {
            started = try await providers.startFlow(
                id, purpose: .app, returnTo: target, clientState: query["state"].map(String.init),
                codeChallenge: query["code_challenge"].map(String.init), from: context.client
            )
        } else if let link = query["link"] {
            guard link == "1" else { throw GatehouseError.invalidRequest("link must be 1") }
            guard let principal = context.identity else { return landing("/login") }
            started = try await providers.startFlow(id, purpose: .link, returnTo: "/home", userID: principal.user.id, from: context.client)
        } else {
            do {
                started = try await providers.startFlow(
                    id, purpose: .web, returnTo: query["return_to"].map(String.init), from: context.client
                )
                var state = ProviderButtonState()
                WebAnalytics.record(button(provider).send(.tapped, to: &state))
            } catch let error as GatehouseError where error != .providerSignIn(.redirectNotAllowed) {
                // The login page says what went wrong, in the app's words; a refused return_to
                // is the caller's error (400), and no flow was started.
                return landing(ProviderLanding(error).url("/login", provider: id))
            }
        }
        return Response.providerRedirect(to: started)
    }

    /// A flow an app started and handed to a browser (Supabase's `link_identity` answers this
    /// address): the browser takes the flow's binding and goes on to the provider. The binding
    /// came in the address, so whoever holds it may finish the flow once, within 5 minutes, as
    /// GoTrue's signed state allows.
    @Sendable package func handedOver(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let provider = try provider(context)
        let query = request.uri.queryParameters
        guard let state = query["state"].map(String.init), let binding = query["binding"].map(String.init),
              (1...128).contains(binding.utf8.count)
        else { throw GatehouseError.invalidRequest("state and binding are required") }
        let url = try await providers.authorizationURL(provider.id, state: state)
        return Response.providerRedirect(to: ProviderStart(url: url, binding: binding, answeredByPost: provider.kind.postsItsAnswer))
    }

    @Sendable package func callback(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let provider = try provider(context)
        guard !provider.kind.postsItsAnswer else { throw GatehouseError.methodNotAllowed }
        let query = request.uri.queryParameters
        return try await finish(
            provider, answer: ProviderAnswer(
                state: query["state"].map(String.init), code: query["code"].map(String.init), error: query["error"].map(String.init), user: nil
            ), request: request, context: context
        )
    }

    /// Apple's answer: `state`, `code` (or `error`) and, at a first authorisation only, `user`
    /// (`{"name": {"firstName", "lastName"}, "email"}`), posted as a form.
    @Sendable package func postedCallback(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let provider = try provider(context)
        guard provider.kind.postsItsAnswer else { throw GatehouseError.methodNotAllowed }
        var request = request
        let body = try await JSONBody.collectKeeping(&request, context: context)
        guard let answer = try? URLEncodedFormDecoder().decode(ProviderAnswer.self, from: String(buffer: body)) else {
            throw GatehouseError.invalidRequest("the callback takes a form with state and code")
        }
        return try await finish(provider, answer: answer, request: request, context: context)
    }

    private func finish(
        _ provider: ConfiguredProvider, answer: ProviderAnswer, request: Request, context: GatehouseRequestContext
    ) async throws -> Response {
        let id = provider.id
        let state = answer.state ?? ""
        let binding = request.cookies[WebCookies.providerFlow]?.value
        if let error = answer.error {
            return try await abandoned(id, state: state, binding: binding, providerError: error)
        }
        let grant = Grant.provider(id, .callback(state: state, code: answer.code ?? "", binding: binding, name: answer.postedName))
        let admitted: Admission
        do {
            admitted = try await pipeline.admit(grant, from: context.client)
        } catch let error as GatehouseError {
            // Where the flow began is unknown once its state is refused: the login page says it.
            return landing(ProviderLanding(error).url("/login", provider: id))
        }
        let previous = request.cookies[WebCookies.session]?.value
        switch try await providers.complete(admitted, from: context.client, replacing: previous, through: pipeline) {
        case nil:
            return landing(ProviderLanding.failed.url("/login", provider: id))
        case .app(let redirect):
            return landing(redirect, external: true)
        case .linked:
            return landing("/home?linked=\(id.rawValue)")
        case .web(let signIn, let next):
            let button = button(provider)
            var buttonState = ProviderButtonState()
            _ = button.send(.tapped, to: &buttonState)
            WebAnalytics.record(button.send(.finished(.signedIn(isNewUser: signIn.isNewUser)), to: &buttonState))
            var response = landing(next)
            WebCookies.setSignedIn(&response, sessionID: signIn.sessionID, deviceToken: signIn.deviceToken, settings: pipeline.settings)
            return response
        }
    }

    private func abandoned(_ id: SignInMethods.Method, state: String, binding: String?, providerError: String) async throws -> Response {
        // OAuth's own error code from the provider (RFC 6749 §4.1.2.1), or Apple's: a person's denial is no failure.
        let denied = providerError == "access_denied" || providerError == "user_cancelled_authorize"
        let outcome: ProviderLanding = denied ? .cancelled : .failed
        guard let flow = try? await providers.abandonFlow(id, state: state, binding: binding) else {
            return landing(outcome.url("/login", provider: id))
        }
        switch flow.purpose {
        case .app:
            let target = flow.returnTo ?? "/"
            return landing(ProviderSignIn.appending(["error": denied ? "access_denied" : "server_error", "state": flow.clientState], to: target), external: true)
        case .link: return landing(outcome.url("/home", provider: id))
        case .web: return landing(outcome.url("/login", provider: id))
        }
    }

    /// The page the callback answers with. A same-site page moves the browser on, so the
    /// `SameSite=Strict` session cookie is sent with the next request (a redirect chain that
    /// began at the provider counts as cross-site). The flow cookie is spent.
    private func landing(_ target: String, external: Bool = false) -> Response {
        var response: Response
        if external {
            response = Response.redirect(to: target, type: .found)
        } else {
            let escaped = target.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            let html = """
                <!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=\(escaped)">\
                <title>Signing in</title></head><body><p><a href="\(escaped)">Continue</a></p></body></html>
                """
            response = Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: html)))
        }
        response.headers[.cacheControl] = "no-store"
        response.setCookie(Cookie(name: WebCookies.providerFlow, value: "", maxAge: 0, path: "/", secure: true, httpOnly: true, sameSite: .lax))
        return response
    }
}

/// A provider's answer to the callback: in the query, or (Apple) a posted form.
struct ProviderAnswer: Decodable {
    let state: String?
    let code: String?
    let error: String?
    /// Apple's first-authorisation `user` field: JSON with the person's name and email.
    let user: String?

    /// The name in Apple's `user` field, "First Last"; `nil` when it did not come.
    var postedName: String? {
        struct User: Decodable {
            struct Name: Decodable { let firstName: String?; let lastName: String? }
            let name: Name?
        }
        guard let user, user.utf8.count <= 4096, let parsed = try? JSONDecoder().decode(User.self, from: Data(user.utf8)),
              let name = parsed.name
        else { return nil }
        let full = [name.firstName, name.lastName].compactMap { $0?.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return full.isEmpty ? nil : full.joined(separator: " ")
    }
}
