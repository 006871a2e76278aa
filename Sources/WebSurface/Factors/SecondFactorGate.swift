import GatehouseCore
import GatehouseHTTP
import Hummingbird

/// Keeps a signed-in browser on the second-factor step until it is done (issue 37).
///
/// A session at `aal1` whose account has a verified factor sees `/login/mfa` instead of Home
/// or any page under it; with `mfa.required`, an account without a factor is sent to set one
/// up (`/home/mfa`) before anything else. Sign-out and the step's own pages pass. A sensitive
/// action refused for want of a recent second factor sends the browser to answer it again.
package struct SecondFactorGate: RouterMiddleware {
    package typealias Context = GatehouseRequestContext
    package let factors: SecondFactors

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard let principal = context.identity, path == "/home" || path.hasPrefix("/home/") || path == "/welcome" else {
            return try await next(request, context)
        }
        if try await factors.challengeDue(for: principal) {
            return Response.redirect(to: "/login/mfa", type: .normal)
        }
        if !path.hasPrefix("/home/mfa"), try await factors.enrolmentDue(for: principal) {
            return Response.redirect(to: "/home/mfa", type: .normal)
        }
        do {
            return try await next(request, context)
        } catch GatehouseError.stepUpRequired {
            // A sensitive action (a device signed out, a passkey removed) of a session that proved
            // its factor too long ago: answer it again, then do the action again from Home.
            return Response.redirect(to: "/login/mfa?confirm=1", type: .normal)
        }
    }
}
