/// A refresh token with its session and user, and whether this request claimed (rotated) it.
public struct RefreshClaim: Sendable {
    /// The token as it was before this request's claim.
    public let token: RefreshTokenRecord
    public let session: SessionRecord
    public let user: UserRecord
    /// Whether this request rotated the token (and stored the successor it offered).
    public let claimed: Bool

    public init(token: RefreshTokenRecord, session: SessionRecord, user: UserRecord, claimed: Bool) {
        self.token = token
        self.session = session
        self.user = user
        self.claimed = claimed
    }
}
