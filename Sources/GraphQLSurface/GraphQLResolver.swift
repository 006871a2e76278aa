import GatehouseCore
import Graphiti
import GatehouseModel

/// Seed 001's GraphQL operations: `login`, `refresh`, `logout` and `me`.
///
/// Each one calls the same feature services as the REST routes, so sign-in has the same dummy-hash
/// timing, the same session rotation rules and the same logging.
package struct GraphQLResolver: Sendable {
    /// `login(data: { email, password })`, seed 001's contract.
    package struct LoginArguments: Codable { let data: LoginInput }
    package struct LoginInput: Codable {
        package let email: String
        package let password: String
    }

    /// `refresh(data: { refreshToken })`.
    package struct RefreshArguments: Codable { let data: RefreshInput }
    package struct RefreshInput: Codable { let refreshToken: String }

    /// `logout(scope: "local" | "global" | "others")`.
    package struct LogoutArguments: Codable { let scope: String? }

    /// The answer to `login` and `refresh`: seed 001's `token` and `user`, plus what refreshing needs.
    package struct AuthPayload: Codable, Sendable {
        package let token: String
        package let refreshToken: String
        package let expiresIn: Int
        package let user: SignedInUser
        /// At `aal1` for an account with a second factor: the factors a challenge may name (else empty).
        package let secondFactors: [FactorSummary]
        /// A first factor's recovery codes, shown once.
        package let recoveryCodes: [String]?

        package init(_ grant: TokenGrant) {
            token = grant.accessToken
            refreshToken = grant.refreshToken
            expiresIn = grant.expiresIn
            user = grant.user
            secondFactors = grant.mfa?.factors ?? []
            recoveryCodes = grant.recoveryCodes
        }
    }

    package func login(context: GraphQLContext, arguments: LoginArguments) async throws -> AuthPayload {
        let grant = Grant.password(identifier: arguments.data.email, password: arguments.data.password)
        let signIn = try await context.services.pipeline.signIn(grant, from: context.request.client)
        context.deviceToken.withLockedValue { $0 = signIn.deviceToken }
        return AuthPayload(signIn.grant)
    }

    package func refresh(context: GraphQLContext, arguments: RefreshArguments) async throws -> AuthPayload {
        AuthPayload(try await context.services.pipeline.refresh(arguments.data.refreshToken))
    }

    package func logout(context: GraphQLContext, arguments: LogoutArguments) async throws -> Bool {
        let name = arguments.scope ?? LogoutScope.local.rawValue
        guard let scope = LogoutScope(rawValue: name) else {
            throw GatehouseError.invalidRequest("scope must be one of: local, global, others")
        }
        try await context.services.pipeline.logout(try context.principal(), scope: scope)
        return true
    }

    package func me(context: GraphQLContext, arguments: NoArguments) async throws -> SignedInUser {
        try context.principal().user.profile
    }
}
