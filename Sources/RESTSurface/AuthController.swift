import Foundation
import GatehouseCore
import GatehouseHTTP
import Hummingbird
import HummingbirdAuth

/// Seed 000's REST routes: login, refresh, logout and the current user.
package struct AuthController {
    package let pipeline: SignInPipeline

    /// `POST /api/auth/login`: the server answers it from a hashing thread (``HashingThreadResponder``).
    package static let passwordSignIn = PasswordSignInRoute(path: "/api/auth/login")

    package init(pipeline: SignInPipeline) {
        self.pipeline = pipeline
    }

    package func addRoutes(to router: Router<GatehouseRequestContext>) {
        router.post(RouterPath(Self.passwordSignIn.path), use: login)
        router.post("/api/auth/refresh", use: refresh)
        router.group()
            .add(middleware: BearerAuthenticator(pipeline: pipeline))
            .post("/api/auth/logout", use: logout)
            .get("/api/me", use: me)
    }

    @Sendable package func login(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(LoginRequest.self, from: request, context: context)
        let signIn = try await pipeline.signIn(.password(identifier: body.email, password: body.password), from: context.client)
        return try TokenGrantResponse.make(signIn.grant, device: signIn.deviceToken)
    }

    @Sendable package func refresh(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(RefreshRequest.self, from: request, context: context)
        return try TokenGrantResponse.make(try await pipeline.refresh(body.refreshToken))
    }

    @Sendable package func logout(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let bodyScope = try await JSONBody.decodeIfPresent(LogoutRequest.self, from: request, context: context)?.scope
        let scopeName = request.uri.queryParameters["scope"].map(String.init) ?? bodyScope ?? LogoutScope.local.rawValue
        guard let scope = LogoutScope(rawValue: scopeName) else {
            throw GatehouseError.invalidRequest("scope must be one of: local, global, others")
        }
        try await pipeline.logout(principal, scope: scope)
        return Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }

    @Sendable package func me(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        try JSONBody.response(try context.requirePrincipal().user.profile)
    }
}

/// Token responses: JSON, never cached (RFC 6749 §5.1).
package enum TokenGrantResponse {
    /// The response; a sign-in also hands the client its device token in `Gatehouse-Device`.
    package static func make(_ grant: TokenGrant, device: String? = nil) throws -> Response {
        var response = try JSONBody.response(grant)
        if let device { response.headers[.gatehouseDevice] = device }
        return response
    }
}
