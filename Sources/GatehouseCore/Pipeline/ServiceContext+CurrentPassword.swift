import Foundation

extension ServiceContext {
    /// Proves a signed-in person's current password before a sensitive change (a new password,
    /// deleting the account).
    ///
    /// Counted against the account like a sign-in (its back-off and hourly budget apply); a
    /// wrong one is reported and is ``GatehouseError/invalidCredentials``, as is any password
    /// for an account that has none.
    func proveCurrentPassword(_ password: String, of user: UserRecord, from client: ClientInfo) async throws {
        let attempt = try await limiter.admit(user.email ?? "user:\(user.id)", from: client, now: now)
        let stored = try await users.passwordHash(userID: user.id)
        guard try await hasher.verify(password, against: stored ?? dummyHash), stored != nil else {
            try await limiter.recordFailure(attempt, now: now)
            report(.passwordChangeRefused(userID: user.id), client: client)
            throw GatehouseError.invalidCredentials
        }
        _ = try await limiter.recordSuccess(attempt, now: now)
    }
}
