import GatehouseCore
import GatehouseHTTP
import GatehouseModel

/// Seed 002's `POST /auth/google` body: `code` (with the app's `redirect_uri` and PKCE
/// `code_verifier`), or, for apps that get an ID token from Google's SDK, `id_token` and `nonce`.
package struct GoogleCodeRequest: Decodable {
    package let code: String?
    package let redirectURI: String?
    package let codeVerifier: String?
    package let idToken: String?
    package let nonce: String?

    package enum CodingKeys: String, CodingKey {
        case code, nonce
        case redirectURI = "redirect_uri"
        case codeVerifier = "code_verifier"
        case idToken = "id_token"
    }

    package var proof: ProviderProof {
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
package struct FlowCodeRequest: Decodable {
    package let authCode: String
    package let codeVerifier: String

    package enum CodingKeys: String, CodingKey {
        case authCode = "auth_code"
        case codeVerifier = "code_verifier"
    }
}

/// Seed 002's `AuthResponse` (`accessToken`, `refreshToken`, `user`), plus `expires_in` and
/// `isNewUser` so an app knows to show its profile step.
package struct GoogleSignInResponse: Encodable {
    package let accessToken: String
    package let refreshToken: String
    package let user: SignedInUser
    package let expiresIn: Int
    package let isNewUser: Bool

    package init(_ signIn: SignIn) {
        accessToken = signIn.grant.accessToken
        refreshToken = signIn.grant.refreshToken
        user = signIn.grant.user
        expiresIn = signIn.grant.expiresIn
        isNewUser = signIn.isNewUser
    }

    package enum CodingKeys: String, CodingKey {
        case accessToken, refreshToken, user, isNewUser
        case expiresIn = "expires_in"
    }
}
