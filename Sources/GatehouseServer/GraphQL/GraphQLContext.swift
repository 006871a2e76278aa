import LoginCore

/// What every GraphQL resolver sees: the auth service, the caller's token and the copy.
struct GraphQLContext: Sendable {
    let service: AuthService
    /// The `Authorization: Bearer` token of the request, if any.
    let bearerToken: String?

    /// The user and session of the bearer token; `UNAUTHENTICATED` without one.
    func principal() async throws -> Principal {
        guard let bearerToken else {
            throw APIError(.unauthorized, code: "unauthorized", message: "A Bearer access token is required")
        }
        return try await service.authenticate(accessToken: bearerToken)
    }
}
