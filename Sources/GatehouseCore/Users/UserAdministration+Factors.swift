import Foundation

extension UserAdministration {
    /// An account's second factors, verified and unverified, oldest first (the admin API's
    /// `mfa.list_factors`, `gatehouse users mfa list`).
    public func factors(of user: UserRecord) async throws -> [FactorRecord] {
        try await requireFactors().factors(userID: user.id)
    }

    /// Removes one factor of an account, audited with the actor; with its last verified factor
    /// go its recovery codes. Returns whether it existed.
    public func removeFactor(_ id: String, of user: UserRecord) async throws -> Bool {
        let store = try requireFactors()
        guard try await store.deleteFactor(id: id, userID: user.id) else { return false }
        events?.record(.factorRemoved(userID: user.id, factorID: id, actor: actor), at: clock(), address: nil, device: nil)
        if try await !store.factors(userID: user.id).contains(where: { $0.status == .verified }) {
            try await store.deleteRecoveryCodes(userID: user.id)
        }
        return true
    }

    /// Removes every factor and recovery code of an account (someone who lost both), each
    /// removal audited with the actor; returns the removed factors' ids.
    public func resetFactors(of user: UserRecord) async throws -> [String] {
        let store = try requireFactors()
        let removed = try await store.deleteFactors(userID: user.id)
        try await store.deleteRecoveryCodes(userID: user.id)
        for id in removed { events?.record(.factorRemoved(userID: user.id, factorID: id, actor: actor), at: clock(), address: nil, device: nil) }
        return removed
    }

    private func requireFactors() throws -> any FactorRepository & FactorChallengeRepository {
        guard let factors else { throw GatehouseError.featureNotOffered(.secondFactors) }
        return factors
    }
}
