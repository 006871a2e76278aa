import HTTPTypes
import Hummingbird

/// Adds the security headers every response carries: a strict CSP (no inline script or
/// style, no framing, also said as `X-Frame-Options` for older browsers), `nosniff`, no
/// referrer, no powerful browser features, and HSTS when the client came over HTTPS.
package struct SecurityHeadersMiddleware: RouterMiddleware {
    package typealias Context = GatehouseRequestContext
    /// The policy every response carries.
    package let contentSecurityPolicy: String

    /// - Parameter formTargets: origins a form may lead to besides this server (a sign-in
    ///   provider: its button's form is redirected there, and `form-action` covers redirects).
    package init(formTargets: [String] = []) {
        contentSecurityPolicy = Self.contentSecurityPolicy(formTargets: formTargets)
    }

    package static func contentSecurityPolicy(formTargets: [String] = []) -> String {
        [
            "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
            "connect-src 'self'", (["form-action 'self'"] + formTargets).joined(separator: " "), "base-uri 'none'",
            "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    /// The login page needs none of these; `publickey-credentials-get` stays for passkeys.
    package static let permissionsPolicy = [
        "accelerometer=()", "camera=()", "geolocation=()", "gyroscope=()", "magnetometer=()", "microphone=()",
        "payment=()", "usb=()", "interest-cohort=()", "publickey-credentials-get=(self)",
    ].joined(separator: ", ")

    /// Two years, subdomains included: the header browsers' preload lists ask for.
    package static let strictTransportSecurity = "max-age=63072000; includeSubDomains"

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[.contentSecurityPolicy] = contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "no-referrer"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.permissionsPolicy] = Self.permissionsPolicy
        if context.overHTTPS { response.headers[.strictTransportSecurity] = Self.strictTransportSecurity }
        return response
    }
}

extension HTTPField.Name {
    package static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    package static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
    package static let permissionsPolicy = HTTPField.Name("Permissions-Policy")!
}
