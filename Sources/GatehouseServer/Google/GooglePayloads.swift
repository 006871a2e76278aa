import GatehouseModel

/// Seed 002's `POST /auth/google` body: `code` (with the app's `redirect_uri` and PKCE
/// `code_verifier`), or, for apps that get an ID token from Google's SDK, `id_token` and `nonce`.
struct GoogleCodeRequest: Decodable {
    let code: String?
    let redirectURI: String?
    let codeVerifier: String?
    let idToken: String?
    let nonce: String?

    enum CodingKeys: String, CodingKey {
        case code, nonce
        case redirectURI = "redirect_uri"
        case codeVerifier = "code_verifier"
        case idToken = "id_token"
    }

    var proof: ProviderProof {
        get throws {
            switch (code, idToken) {
            case (let code?, nil): .authorizationCode(code, redirectURI: redirectURI, codeVerifier: codeVerifier)
            case (nil, let token?): .idToken(token, nonce: nonce)
            default: throw GatehouseError.invalidRequest("give exactly one of code and id_token")
            }
        }
    }
}

/// `POST /auth/google/token`: the code an app's flow returned, and the app's PKCE verifier.
struct FlowCodeRequest: Decodable {
    let authCode: String
    let codeVerifier: String

    enum CodingKeys: String, CodingKey {
        case authCode = "auth_code"
        case codeVerifier = "code_verifier"
    }
}

/// Seed 002's `AuthResponse` (`accessToken`, `refreshToken`, `user`), plus `expires_in` and
/// `isNewUser` so an app knows to show its profile step.
struct GoogleSignInResponse: Encodable {
    let accessToken: String
    let refreshToken: String
    let user: SignedInUser
    let expiresIn: Int
    let isNewUser: Bool

    init(_ signIn: SignIn) {
        accessToken = signIn.grant.accessToken
        refreshToken = signIn.grant.refreshToken
        user = signIn.grant.user
        expiresIn = signIn.grant.expiresIn
        isNewUser = signIn.isNewUser
    }

    enum CodingKeys: String, CodingKey {
        case accessToken, refreshToken, user, isNewUser
        case expiresIn = "expires_in"
    }
}
