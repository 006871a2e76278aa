import GatehouseCore
import Graphiti
import GatehouseModel

/// Sign in with Google for GraphQL apps (seed 001's style): an authorization code for the
/// server to exchange, or an ID token the app got itself; answers like `login`.
extension GraphQLResolver {
    /// `signInWithGoogle(data: { code, redirectUri, codeVerifier } | { idToken, nonce })`.
    package struct GoogleSignInArguments: Codable { let data: GoogleSignInInput }
    package struct GoogleSignInInput: Codable {
        package let code: String?
        package let redirectUri: String?
        package let codeVerifier: String?
        package let idToken: String?
        package let nonce: String?
    }

    package func signInWithGoogle(context: GraphQLContext, arguments: GoogleSignInArguments) async throws -> AuthPayload {
        let input = arguments.data
        let proof: ProviderProof
        switch (input.code, input.idToken) {
        case (let code?, nil): proof = .authorizationCode(code, redirectURI: input.redirectUri, codeVerifier: input.codeVerifier)
        case (nil, let token?): proof = .idToken(token, nonce: input.nonce)
        default: throw GatehouseError.invalidRequest("give exactly one of code and idToken")
        }
        let signIn = try await context.services.pipeline.signIn(.provider(.google, proof), from: context.request.client)
        context.deviceToken.withLockedValue { $0 = signIn.deviceToken }
        return AuthPayload(signIn.grant)
    }

    /// `signInWithApple(data: { idToken, nonce, name })`: the identity token from Apple's sheet.
    package struct AppleSignInArguments: Codable { let data: AppleSignInInput }
    package struct AppleSignInInput: Codable {
        package let idToken: String
        package let nonce: String?
        package let name: String?
    }

    package func signInWithApple(context: GraphQLContext, arguments: AppleSignInArguments) async throws -> AuthPayload {
        let input = arguments.data
        let grant = Grant.provider(.apple, .idToken(input.idToken, nonce: input.nonce, name: input.name))
        let signIn = try await context.services.pipeline.signIn(grant, from: context.request.client)
        context.deviceToken.withLockedValue { $0 = signIn.deviceToken }
        return AuthPayload(signIn.grant)
    }
}
