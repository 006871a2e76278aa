import GatehouseCore
import GatehouseHTTP
import NIOConcurrencyHelpers

/// What every GraphQL resolver sees: the services, the caller, and what the response adds.
package struct GraphQLContext: Sendable {
    package let services: GatehouseServices
    /// The request context: the client's address and device token, and the Bearer principal.
    package let request: GatehouseRequestContext
    /// A device token a successful `login` hands back in the `Gatehouse-Device` header.
    package let deviceToken = NIOLockedValueBox<String?>(nil)
    /// The binding a `signUp` handed out, sent back as `Gatehouse-Sign-Up`.
    package let signUpBinding = NIOLockedValueBox<String?>(nil)

    /// The user and session of the bearer token; `UNAUTHENTICATED` without one.
    package func principal() throws -> Principal {
        try request.requirePrincipal()
    }
}
