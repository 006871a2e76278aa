import Foundation
import GatehouseModel
import Hummingbird

/// Sign in with Google: the browser flow, seed 002's code exchange, and the code an app's flow returns.
///
/// - `GET /auth/google/start[?return_to=/path]`: the login page's button; or, for an app (the
///   CLI), `?redirect_to=URL&code_challenge=S256&state=…`.
/// - `GET /auth/google/callback`: the provider's answer. A web flow opens a web session and
///   lands on Home (or the profile step for a new account); an app flow returns a one-time code
///   to the app; a denial comes back as cancelled.
/// - `POST /auth/google {"code", "redirect_uri"?, "code_verifier"?}` (seed 002, also under `/api`).
/// - `POST /auth/google/token {"auth_code", "code_verifier"}`: an app's flow code for tokens.
struct GoogleController {
    let service: AuthService

    func addRoutes(to router: Router<GatehouseRequestContext>) {
        let pages = router.group().add(middleware: WebSessionAuthenticator(service: service))
        pages.get("/auth/google/start", use: start)
        pages.get("/auth/google/callback", use: callback)
        router.post("/auth/google", use: exchangeCode)
        router.post("/api/auth/google", use: exchangeCode)
        router.post("/auth/google/token", use: exchangeFlowCode)
    }

    @Sendable func start(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let started: ProviderStart
        if let target = query["redirect_to"].map(String.init) {
            started = try await service.startGoogleFlow(
                purpose: .app, returnTo: target, clientState: query["state"].map(String.init),
                codeChallenge: query["code_challenge"].map(String.init), from: context.client
            )
        } else if let link = query["link"] {
            guard link == "1" else { throw GatehouseError.invalidRequest("link must be 1") }
            guard let principal = context.identity else { return landing("/login") }
            started = try await service.startGoogleFlow(purpose: .link, returnTo: "/home", userID: principal.user.id, from: context.client)
        } else {
            do {
                started = try await service.startGoogleFlow(
                    purpose: .web, returnTo: query["return_to"].map(String.init), from: context.client
                )
            } catch let error as GatehouseError where error != .providerSignIn(.redirectNotAllowed) {
                // The login page says what went wrong, in the app's words; a refused return_to
                // is the caller's error (400), and no flow was started.
                return landing(ProviderLanding(error).url("/login"))
            }
        }
        return Self.redirect(to: started)
    }

    /// The provider's redirect, to the provider's authorization page, with the flow's cookie.
    static func redirect(to started: ProviderStart) -> Response {
        var response = Response.redirect(to: started.url, type: .found)
        response.headers[.cacheControl] = "no-store"
        response.setCookie(Cookie(
            name: GoogleController.flowCookie, value: started.binding, maxAge: Int(ProviderSignIn.flowLifetime), path: "/",
            secure: true, httpOnly: true, sameSite: .lax
        ))
        return response
    }

    /// Binds a flow to the browser that started it; `Lax`, so the provider's redirect carries it.
    static let flowCookie = "__Host-gatehouse-oidc"

    @Sendable func callback(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let state = query["state"].map(String.init) ?? ""
        let binding = request.cookies[Self.flowCookie]?.value
        if let error = query["error"].map(String.init) {
            return try await abandoned(state: state, binding: binding, providerError: error)
        }
        let grant = Grant.google(.callback(state: state, code: query["code"].map(String.init) ?? "", binding: binding))
        let admitted: Admission
        do {
            admitted = try await service.admit(grant, from: context.client)
        } catch let error as GatehouseError {
            // Where the flow began is unknown once its state is refused: the login page says it.
            return landing(ProviderLanding(error).url("/login"))
        }
        guard let flow = admitted.flow else { return landing(ProviderLanding.failed.url("/login")) }
        switch flow.purpose {
        case .app:
            return landing(try await service.returnToApp(admitted), external: true)
        case .link:
            return landing("/home?linked=google")
        case .web:
            let previous = request.cookies[WebCookies.session]?.value
            let id = try await service.openWebSession(for: admitted.user, method: grant.method, client: context.client, replacing: previous)
            // Checked again on the way out: a flow stored before the rule tightened lands on Home.
            let stored = flow.returnTo.flatMap { ReturnPath.validated($0, publicURL: service.configuration.resolvedPublicURL) }
            let next = admitted.isNewUser ? "/welcome" : (stored ?? "/home")
            var response = landing(next)
            WebCookies.setSignedIn(&response, sessionID: id, deviceToken: admitted.deviceToken, configuration: service.configuration)
            return response
        }
    }

    private func abandoned(state: String, binding: String?, providerError: String) async throws -> Response {
        // OAuth's own error code from the provider (RFC 6749 §4.1.2.1): a person's denial is no failure.
        let outcome: ProviderLanding = providerError == "access_denied" ? .cancelled : .failed
        guard let flow = try? await service.abandonGoogleFlow(state: state, binding: binding) else {
            return landing(outcome.url("/login"))
        }
        switch flow.purpose {
        case .app:
            let target = flow.returnTo ?? "/"
            return landing(AuthService.appending(["error": providerError == "access_denied" ? "access_denied" : "server_error", "state": flow.clientState], to: target), external: true)
        case .link: return landing(outcome.url("/home"))
        case .web: return landing(outcome.url("/login"))
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
        response.setCookie(Cookie(name: Self.flowCookie, value: "", maxAge: 0, path: "/", secure: true, httpOnly: true, sameSite: .lax))
        return response
    }

    /// Seed 002's `POST /auth/google`: a code the app got from Google, exchanged by the server.
    @Sendable func exchangeCode(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(GoogleCodeRequest.self, from: request, context: context)
        let signIn = try await service.signIn(.google(try body.proof), from: context.client)
        var response = try JSONBody.response(GoogleSignInResponse(signIn))
        response.headers[.gatehouseDevice] = signIn.deviceToken
        return response
    }

    /// An app's flow code and PKCE verifier for tokens (the CLI's loopback sign-in).
    @Sendable func exchangeFlowCode(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(FlowCodeRequest.self, from: request, context: context)
        let signIn = try await service.signIn(.flowCode(code: body.authCode, verifier: body.codeVerifier), from: context.client)
        var response = try JSONBody.response(GoogleSignInResponse(signIn))
        response.headers[.gatehouseDevice] = signIn.deviceToken
        return response
    }
}
