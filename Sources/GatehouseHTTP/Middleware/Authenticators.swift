import GatehouseCore
import Hummingbird
import HummingbirdAuth

/// Authenticates `Authorization: Bearer <access token>` (REST, GraphQL, Supabase Auth).
///
/// A missing header leaves the request anonymous. A token that fails is not an error here:
/// its reason is kept on the context, so a route that needs a principal reports it (expired,
/// forged, session ended) while a route that does not (GraphQL's `login`) is unaffected.
package struct BearerAuthenticator: RouterMiddleware {
    package typealias Context = GatehouseRequestContext
    package let pipeline: SignInPipeline

    package init(pipeline: SignInPipeline) {
        self.pipeline = pipeline
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let bearer = request.headers.bearer else { return try await next(request, context) }
        var context = context
        do {
            context.identity = try await pipeline.authenticate(accessToken: bearer.token)
        } catch let error as GatehouseError {
            context.authenticationFailure = error
        }
        return try await next(request, context)
    }
}

/// Authenticates the web screen's session cookie; a dead session leaves the request anonymous.
package struct WebSessionAuthenticator: AuthenticatorMiddleware {
    package typealias Context = GatehouseRequestContext
    package let pipeline: SignInPipeline

    package init(pipeline: SignInPipeline) {
        self.pipeline = pipeline
    }

    package func authenticate(request: Request, context: Context) async throws -> Principal? {
        guard let token = request.cookies[WebCookies.session]?.value, !token.isEmpty else { return nil }
        return try await pipeline.webPrincipal(sessionID: token)
    }
}
