import Foundation
import Hummingbird
import HummingbirdAuth

/// Seed 000's REST routes: login, refresh, logout and the current user.
struct AuthController {
    let service: AuthService

    func addRoutes(to router: Router<GatehouseRequestContext>) {
        router.post("/api/auth/login", use: login)
        router.post("/api/auth/refresh", use: refresh)
        router.post("/api/auth/logout", use: logout)
        router.get("/api/me", use: me)
    }

    @Sendable func login(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(LoginRequest.self, from: request, context: context)
        return try TokenResponse.make(try await service.login(email: body.email, password: body.password))
    }

    @Sendable func refresh(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(RefreshRequest.self, from: request, context: context)
        return try TokenResponse.make(try await service.refresh(body.refreshToken))
    }

    @Sendable func logout(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let principal = try await authenticate(request)
        let bodyScope = try await JSONBody.decodeIfPresent(LogoutRequest.self, from: request, context: context)?.scope
        let scopeName = request.uri.queryParameters["scope"].map(String.init) ?? bodyScope ?? LogoutScope.local.rawValue
        guard let scope = LogoutScope(rawValue: scopeName) else {
            throw APIError.invalidRequest("scope must be one of: local, global, others")
        }
        try await service.logout(principal, scope: scope)
        return Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }

    @Sendable func me(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let principal = try await authenticate(request)
        return try JSONBody.response(principal.user.profile)
    }

    private func authenticate(_ request: Request) async throws -> Principal {
        guard let bearer = request.headers.bearer else {
            throw APIError(
                .unauthorized, code: "unauthorized", message: "A Bearer access token is required",
                headers: [.wwwAuthenticate: "Bearer"]
            )
        }
        return try await service.authenticate(accessToken: bearer.token)
    }
}

/// Token responses: JSON, never cached (RFC 6749 §5.1).
enum TokenResponse {
    static func make(_ grant: TokenGrant) throws -> Response {
        try JSONBody.response(grant)
    }
}
