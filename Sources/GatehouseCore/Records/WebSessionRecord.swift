import Foundation

/// A browser's sign-in: its own opaque id, known only by its hash, tied to a session.
///
/// It is never a refresh token: the two live in different tables, so neither is accepted
/// where the other is expected. It ends after ``GatehouseConfiguration/webSessionIdleTimeout``
/// without use, or with its session.
public struct WebSessionRecord: Sendable, Equatable {
    public var idHash: String
    public var sessionID: String
    public var createdAt: Date
    /// The last request that used it (updated at most once a minute).
    public var lastSeenAt: Date

    public init(idHash: String, sessionID: String, createdAt: Date, lastSeenAt: Date) {
        self.idHash = idHash
        self.sessionID = sessionID
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
    }
}

/// The secret a new session is opened with: a refresh token for API clients, a web session id
/// for browsers.
public enum SessionCredential: Sendable, Equatable {
    case refreshToken(RefreshTokenRecord)
    case webSession(WebSessionRecord)
}
