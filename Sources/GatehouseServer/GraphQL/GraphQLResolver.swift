import Graphiti
import GatehouseModel

/// Seed 001's GraphQL operations: `login`, `refresh`, `logout` and `me`.
///
/// Each one calls the same ``AuthService`` as the REST routes, so sign-in has the same dummy-hash
/// timing, the same session rotation rules and the same logging.
struct GraphQLResolver: Sendable {
    /// `login(data: { email, password })`, seed 001's contract.
    struct LoginArguments: Codable { let data: LoginInput }
    struct LoginInput: Codable {
        let email: String
        let password: String
    }

    /// `refresh(data: { refreshToken })`.
    struct RefreshArguments: Codable { let data: RefreshInput }
    struct RefreshInput: Codable { let refreshToken: String }

    /// `logout(scope: "local" | "global" | "others")`.
    struct LogoutArguments: Codable { let scope: String? }

    /// The answer to `login` and `refresh`: seed 001's `token` and `user`, plus what refreshing needs.
    struct AuthPayload: Codable, Sendable {
        let token: String
        let refreshToken: String
        let expiresIn: Int
        let user: SignedInUser

        init(_ grant: TokenGrant) {
            token = grant.accessToken
            refreshToken = grant.refreshToken
            expiresIn = grant.expiresIn
            user = grant.user
        }
    }

    func login(context: GraphQLContext, arguments: LoginArguments) async throws -> AuthPayload {
        let grant = Grant.password(identifier: arguments.data.email, password: arguments.data.password)
        let signIn = try await context.service.signIn(grant, from: context.request.client)
        context.deviceToken.withLockedValue { $0 = signIn.deviceToken }
        return AuthPayload(signIn.grant)
    }

    func refresh(context: GraphQLContext, arguments: RefreshArguments) async throws -> AuthPayload {
        AuthPayload(try await context.service.refresh(arguments.data.refreshToken))
    }

    func logout(context: GraphQLContext, arguments: LogoutArguments) async throws -> Bool {
        let name = arguments.scope ?? LogoutScope.local.rawValue
        guard let scope = LogoutScope(rawValue: name) else {
            throw GatehouseError.invalidRequest("scope must be one of: local, global, others")
        }
        try await context.service.logout(try context.principal(), scope: scope)
        return true
    }

    func me(context: GraphQLContext, arguments: NoArguments) async throws -> SignedInUser {
        try context.principal().user.profile
    }
}
