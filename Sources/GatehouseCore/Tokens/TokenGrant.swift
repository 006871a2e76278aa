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
    /// At `aal1` for an account with a second factor: that a challenge comes next, and its factors.
    public var mfa: SecondFactorHint?
    /// Recovery codes a first factor's verification made, shown this once.
    public var recoveryCodes: [String]?

    package enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case user, mfa
        case recoveryCodes = "recovery_codes"
    }
}
