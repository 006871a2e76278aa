/// An `error` code from the server's JSON body; open, so new server codes need no SDK update.
public struct ServerErrorCode: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }

    public static let invalidRequest: Self = "invalid_request"
    public static let invalidCredentials: Self = "invalid_credentials"
    public static let accountLocked: Self = "account_locked"
    public static let emailNotVerified: Self = "email_not_verified"
    public static let invalidToken: Self = "invalid_token"
    public static let invalidRefreshToken: Self = "invalid_refresh_token"
    public static let refreshTokenReused: Self = "refresh_token_reused"
    public static let sessionExpired: Self = "session_expired"
    public static let sessionRevoked: Self = "session_revoked"
    public static let rateLimited: Self = "rate_limited"
}

extension ServerErrorCode {
    /// The server's hashing queue is full; try again after `Retry-After` (503).
    public static let serverBusy: Self = "server_busy"
}
