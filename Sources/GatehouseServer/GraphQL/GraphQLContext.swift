import NIOConcurrencyHelpers

/// What every GraphQL resolver sees: the auth service, the caller, and what the response adds.
struct GraphQLContext: Sendable {
    let service: AuthService
    /// The request context: the client's address and device token, and the Bearer principal.
    let request: GatehouseRequestContext
    /// A device token a successful `login` hands back in the `Gatehouse-Device` header.
    let deviceToken = NIOLockedValueBox<String?>(nil)

    /// The user and session of the bearer token; `UNAUTHENTICATED` without one.
    func principal() throws -> Principal {
        try request.requirePrincipal()
    }
}
