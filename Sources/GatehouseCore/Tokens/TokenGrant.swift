import Foundation
import GatehouseModel

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
    package var account: UserRecord?

    package enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case user
    }
}
