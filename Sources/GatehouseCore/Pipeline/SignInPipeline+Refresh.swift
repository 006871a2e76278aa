import Foundation

extension SignInPipeline {
    /// Exchanges a refresh token for a new pair, rotating it.
    ///
    /// The first request with a live token rotates it. A request with a token rotated less than
    /// the grace window ago gets the same successor (following the chain if it moved on), so
    /// racing clients and a client that lost the answer stay signed in. A rotated token after
    /// the grace window means it leaked: the whole session is revoked.
    package func refresh(_ presented: String) async throws -> TokenGrant {
        do {
            let grant = try await rotating(presented)
            AuthMetrics.refresh(outcome: .success)
            return grant
        } catch {
            AuthMetrics.refresh(outcome: AuthMetrics.outcome(of: error))
            throw error
        }
    }

    private func rotating(_ presented: String) async throws -> TokenGrant {
        // The successor is offered with the claim, so a live token rotates in one round trip.
        let successor = RefreshToken.generate()
        guard let claim = try await context.sessions.claimRefreshToken(
            hash: RefreshToken.hash(presented), successorHash: RefreshToken.hash(successor),
            sealedSuccessor: try RefreshToken.seal(successor, under: presented), at: now
        ) else {
            throw GatehouseError.refreshRejected(.invalidRefreshToken)
        }
        let session = claim.session, user = claim.user
        try requireLive(session, of: user)
        // Last seen, at most once a minute, so the device list is current without a write per refresh.
        if session.lastSeenAt.map({ now.timeIntervalSince($0) >= 60 }) ?? true {
            try await context.sessions.touchSession(id: session.id, at: now)
        }
        if claim.claimed { return try await grant(user: user, session: session, refreshToken: successor) }
        // Another request rotated it first (now, or before): follow the chain within the grace window.
        var record = claim.token.rotatedAt == nil ? try await context.sessions.refreshToken(hash: claim.token.tokenHash) ?? claim.token : claim.token
        var token = presented
        while let rotatedAt = record.rotatedAt {
            guard now.timeIntervalSince(rotatedAt) <= TimeInterval(settings.refreshReuseGrace),
                  let sealed = record.sealedSuccessor,
                  let successor = RefreshToken.open(sealed, with: token),
                  let next = try await context.sessions.refreshToken(hash: RefreshToken.hash(successor))
            else {
                try await context.sessions.revokeSession(id: session.id, at: now, reason: .refreshTokenReused)
                context.logger.warning("Refresh token reuse; session revoked", metadata: ["session.id": "\(session.id)"])
                context.report(
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
