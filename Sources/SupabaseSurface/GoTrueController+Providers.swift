import Foundation
import GatehouseModel
import GatehouseCore
import GatehouseHTTP
import Hummingbird
import LoginCore

extension GoTrueController {
    /// The registry's id for a provider as GoTrue names it: `azure` is Microsoft; `google`,
    /// `github`, `apple` and an app's own OpenID ids (`keycloak`, `acme-sso`) are themselves.
    package static func provider(named name: String?) throws -> SignInMethods.Method {
        guard let name else { throw GoTrueError.validationFailed("provider is required") }
        let id = name == "azure" ? SignInMethods.Method.microsoft : SignInMethods.Method(rawValue: name)
        guard id.isWellFormed, id.isProvider else {
            throw GoTrueError(.badRequest, .validationFailed, "Unsupported provider: Provider \(name.prefix(32)) could not be found")
        }
        return id
    }

    /// `GET /authorize?provider=github&redirect_to=…&code_challenge=…&code_challenge_method=s256`:
    /// opened in a browser, so it takes no `apikey` (Supabase's gateway leaves it open too).
    /// The flow returns to `redirect_to` with `?code=`, which `grant_type=pkce` exchanges.
    @Sendable package func authorize(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let provider = try Self.provider(named: query["provider"].map(String.init))
        guard let target = query["redirect_to"].map(String.init) else {
            throw GoTrueError.validationFailed("redirect_to is required")
        }
        guard query["code_challenge_method"].map({ $0.lowercased() }) == "s256" else {
            throw GoTrueError.validationFailed("code_challenge_method must be s256")
        }
        // `state` is not GoTrue's; it is echoed back for apps that check one (the CLI does).
        let started = try await services.providerSignIn().startFlow(
            provider, purpose: .app, returnTo: target, clientState: query["state"].map(String.init),
            codeChallenge: query["code_challenge"].map(String.init), from: context.client
        )
        return Response.providerRedirect(to: started)
    }

    /// `grant_type=id_token`: an ID token the app got from the provider itself (`google`,
    /// `azure`, an app's own OpenID id), with GoTrue's nonce rule.
    package func idTokenGrant(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(GoTrueIDTokenGrant.self, from: request, context: context)
        let provider = try Self.provider(named: body.provider)
        return try await signedIn(.provider(provider, .idToken(body.idToken, nonce: body.nonce)), context: context)
    }

    /// `grant_type=pkce`: the code a finished `/authorize` flow returned, with the app's verifier.
    package func pkceGrant(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(GoTruePKCEGrant.self, from: request, context: context)
        return try await signedIn(.flowCode(code: body.authCode, verifier: body.codeVerifier), context: context)
    }

    /// `GET /user/identities/authorize?provider=…&redirect_to=…&skip_http_redirect=true` (Bearer):
    /// `link_identity`. Starts a link of the signed-in account and answers `{"url"}`, an address
    /// on this server that hands the flow to the browser; after the provider, the browser goes
    /// to `redirect_to` (an allowed address) or Home.
    @Sendable package func linkIdentity(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard let principal = context.identity else { throw GoTrueError.noAuthorization }
        let query = request.uri.queryParameters
        let provider = try Self.provider(named: query["provider"].map(String.init))
        let started = try await services.providerSignIn().startFlow(
            provider, purpose: .link, returnTo: query["redirect_to"].map(String.init) ?? "/home", userID: principal.user.id,
            from: context.client
        )
        let base = services.pipeline.settings.publicURL.hasSuffix("/")
            ? String(services.pipeline.settings.publicURL.dropLast()) : services.pipeline.settings.publicURL
        let url = ProviderSignIn.appending(
            ["state": Optional(started.state), "binding": Optional(started.binding)], to: base + "/auth/\(provider.rawValue)/continue"
        )
        guard query["skip_http_redirect"] == "true" else { return Response.redirect(to: url, type: .found) }
        return try JSONBody.response(["url": url])
    }

    /// `DELETE /user/identities/{identity_id}` (Bearer): `unlink_identity` for a provider's
    /// identity; the last way in cannot be removed (422 `single_identity_not_deletable`).
    @Sendable package func unlinkIdentity(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard let principal = context.identity else { throw GoTrueError.noAuthorization }
        let id = context.parameters.get("id") ?? ""
        let identities = try await services.profiles.identities(of: principal.user.id)
        guard let identity = identities.first(where: { GoTrueIdentity($0, user: principal.user).identityID == id }),
              identity.provider != .email, identity.provider != .phone
        else { throw GoTrueError(.notFound, .identityNotFound, "Identity doesn't exist") }
        try await services.providerSignIn().unlink(identity.provider, from: principal.user.id)
        return try JSONBody.response([String: String]())
    }
}
