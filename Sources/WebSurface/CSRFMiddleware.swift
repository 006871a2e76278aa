import GatehouseCore
import GatehouseHTTP
import Hummingbird

/// Refuses every web form POST whose `csrf` field does not equal its `__Host-gatehouse-csrf`
/// cookie (the double-submit pattern), before any handler runs.
///
/// The body is read here once, up to the request's limit, and kept on the request, so the
/// handler decodes its own typed form from the same bytes. A refusal is 403
/// ``GatehouseError/formExpired``, on every form alike.
package struct CSRFMiddleware: RouterMiddleware {
    package typealias Context = GatehouseRequestContext

    /// Only the field this middleware reads; the screen's own fields are its handler's.
    package struct Token: Decodable {
        package let csrf: String?
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .post else { return try await next(request, context) }
        var request = request
        let body = try await JSONBody.collectKeeping(&request, context: context)
        let token = (try? URLEncodedFormDecoder().decode(Token.self, from: String(buffer: body)))?.csrf
        guard WebCookies.csrfMatches(request, formToken: token) else { throw GatehouseError.formExpired }
        return try await next(request, context)
    }
}
