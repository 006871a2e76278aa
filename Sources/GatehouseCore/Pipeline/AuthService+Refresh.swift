import Foundation

extension AuthService {
    /// Exchanges a refresh token for a new pair, rotating it.
    ///
    /// The first request with a live token rotates it. A request with a token rotated less than
    /// the grace window ago gets the same successor (following the chain if it moved on), so
    /// racing clients and a client that lost the answer stay signed in. A rotated token after
    /// the grace window means it leaked: the whole session is revoked.
    package func refresh(_ presented: String) async throws -> TokenGrant {
        do {
            let grant = try await rotating(presented)
            AuthMetrics.refresh(outcome: "success")
            return grant
        } catch {
            AuthMetrics.refresh(outcome: AuthMetrics.outcome(of: error))
            throw error
        }
    }

    private func rotating(_ presented: String) async throws -> TokenGrant {
        guard let (found, session, user) = try await sessions.refreshTokenChain(hash: RefreshToken.hash(presented)) else {
            throw GatehouseError.refreshRejected(.invalidRefreshToken)
        }
        try requireLive(session, of: user)
        // Last seen, at most once a minute, so the device list is current without a write per refresh.
        if session.lastSeenAt.map({ now.timeIntervalSince($0) >= 60 }) ?? true {
            try await sessions.touchSession(id: session.id, at: now)
        }
        var record = found
        var token = presented
        if record.rotatedAt == nil {
            if let successor = try await rotate(record, presented: presented) {
                return try await grant(user: user, session: session, refreshToken: successor)
            }
            record = try await sessions.refreshToken(hash: record.tokenHash) ?? record
        }
        while let rotatedAt = record.rotatedAt {
            guard now.timeIntervalSince(rotatedAt) <= TimeInterval(settings.refreshReuseGrace),
                  let sealed = record.sealedSuccessor,
                  let successor = RefreshToken.open(sealed, with: token),
                  let next = try await sessions.refreshToken(hash: RefreshToken.hash(successor))
            else {
                try await sessions.revokeSession(id: session.id, at: now, reason: .refreshTokenReused)
                logger.warning("Refresh token reuse; session revoked", metadata: ["session.id": "\(session.id)"])
                report(
                    .sessionEnded(userID: session.userID, sessionID: session.id, reason: .refreshTokenReused),
                    address: session.address, device: session.deviceLabel
                )
                throw GatehouseError.refreshRejected(.reused)
            }
            record = next
            token = successor
        }
        return try await grant(user: user, session: session, refreshToken: token)
    }

    /// Claims the token and stores a successor; `nil` when another request claimed it first.
    private func rotate(_ record: RefreshTokenRecord, presented: String) async throws -> String? {
        let successor = RefreshToken.generate()
        let sealed = try RefreshToken.seal(successor, under: presented)
        let claimed = try await sessions.rotate(
            hash: record.tokenHash, successorHash: RefreshToken.hash(successor), at: now, sealedSuccessor: sealed
        )
        return claimed ? successor : nil
    }

    /// Throws unless the session may still be used at all.
    private func requireLive(_ session: SessionRecord, of user: UserRecord) throws {
        if session.revokedAt != nil {
            throw GatehouseError.refreshRejected(session.revokedReason?.refreshFailure ?? .sessionRevoked)
        }
        guard now < session.expiresAt else { throw GatehouseError.refreshRejected(.sessionExpired) }
        guard !user.isLocked(at: now) else { throw GatehouseError.refreshRejected(.accountLocked) }
        guard user.passwordChangedAt <= session.createdAt else { throw GatehouseError.refreshRejected(.sessionRevoked) }
    }
}
