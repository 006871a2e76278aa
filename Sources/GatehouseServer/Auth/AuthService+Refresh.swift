import Foundation

extension AuthService {
    /// Exchanges a refresh token for a new pair, rotating it.
    ///
    /// The first request with a live token rotates it. A request with a token rotated less than
    /// the grace window ago gets the same successor (following the chain if it moved on), so
    /// racing clients and a client that lost the answer stay signed in. A rotated token after
    /// the grace window means it leaked: the whole session is revoked.
    func refresh(_ presented: String) async throws -> TokenGrant {
        guard var record = try await sessions.refreshToken(hash: RefreshToken.hash(presented)) else {
            throw GatehouseError.refreshRejected(.invalidRefreshToken)
        }
        let (session, user) = try await liveSession(record.sessionID)
        var token = presented
        if record.rotatedAt == nil {
            if let successor = try await rotate(record, presented: presented) {
                return try await grant(user: user, session: session, refreshToken: successor)
            }
            record = try await sessions.refreshToken(hash: record.tokenHash) ?? record
        }
        while let rotatedAt = record.rotatedAt {
            guard now.timeIntervalSince(rotatedAt) <= TimeInterval(configuration.refreshReuseGrace),
                  let sealed = record.sealedSuccessor,
                  let successor = RefreshToken.open(sealed, with: token),
                  let next = try await sessions.refreshToken(hash: RefreshToken.hash(successor))
            else {
                try await sessions.revokeSession(id: session.id, at: now, reason: RefreshFailure.reused.rawValue)
                logger.warning("Refresh token reuse; session revoked", metadata: ["session.id": "\(session.id)"])
                throw GatehouseError.refreshRejected(.reused)
            }
            record = next
            token = successor
        }
        return try await grant(user: user, session: session, refreshToken: token)
    }

    /// Stores a successor and claims the token; `nil` when another request claimed it first.
    private func rotate(_ record: RefreshTokenRecord, presented: String) async throws -> String? {
        let successor = RefreshToken.generate()
        let successorHash = RefreshToken.hash(successor)
        try await sessions.insertRefreshToken(
            RefreshTokenRecord(tokenHash: successorHash, sessionID: record.sessionID, createdAt: now)
        )
        let sealed = try RefreshToken.seal(successor, under: presented)
        if try await sessions.markRotated(hash: record.tokenHash, at: now, sealedSuccessor: sealed) {
            return successor
        }
        try await sessions.deleteRefreshToken(hash: successorHash)
        return nil
    }

    /// The session and its user, if the session may still be used at all.
    private func liveSession(_ id: String) async throws -> (SessionRecord, UserRecord) {
        guard let session = try await sessions.session(id: id) else { throw GatehouseError.refreshRejected(.invalidRefreshToken) }
        if session.revokedAt != nil {
            let reason = session.revokedReason.flatMap(RefreshFailure.init(rawValue:))
            throw GatehouseError.refreshRejected(reason == .reused || reason == .accountLocked ? reason! : .sessionRevoked)
        }
        guard now < session.expiresAt else { throw GatehouseError.refreshRejected(.sessionExpired) }
        guard let user = try await users.user(id: session.userID) else { throw GatehouseError.refreshRejected(.sessionRevoked) }
        guard user.lockedAt == nil else { throw GatehouseError.refreshRejected(.accountLocked) }
        guard user.passwordChangedAt <= session.createdAt else { throw GatehouseError.refreshRejected(.sessionRevoked) }
        return (session, user)
    }
}
