import GatehouseModel

/// The body of `POST /api/auth/login` (seed 000 C2).
struct LoginRequest: Decodable {
    let email: String
    let password: String
}

/// The body of `POST /api/auth/refresh`.
struct RefreshRequest: Decodable {
    let refreshToken: String

    enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
}

/// The optional body of `POST /api/auth/logout`; `?scope=` takes precedence.
struct LogoutRequest: Decodable {
    let scope: String?
}

/// A token response (seed 000 C2), sent with `Cache-Control: no-store`.
public struct TokenGrant: Codable, Sendable, Equatable {
    public var accessToken: String
    public var refreshToken: String
    public var tokenType = "Bearer"
    /// Seconds until the access token expires.
    public var expiresIn: Int
    public var user: SignedInUser
    /// The stored account behind `user`, for routes that show more of it (Supabase's user);
    /// never encoded.
    var account: UserRecord?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case user
    }
}
