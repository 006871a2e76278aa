import HTTPTypes
import Hummingbird

/// Adds the security headers every response carries: a strict CSP (no inline script or
/// style, no framing), `nosniff` and no referrer.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {

    static var contentSecurityPolicy: String {
        [
            "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
            "connect-src 'self'", "form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "no-referrer"
        return response
    }
}

extension HTTPField.Name {
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
