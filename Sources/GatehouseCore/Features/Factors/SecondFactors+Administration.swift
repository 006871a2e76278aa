import Foundation

extension SecondFactors {
    /// Any account's live factors, for an operator (the admin API, the CLI).
    package func factors(ofUser userID: String) async throws -> [FactorRecord] {
        try await list(userID: userID)
    }

    /// Removes one factor of an account for an operator; audited with the actor.
    package func remove(factorID: String, ofUser userID: String, actor: AuditActor) async throws -> Bool {
        guard try await factors.deleteFactor(id: factorID, userID: userID) else { return false }
        context.report(.factorRemoved(userID: userID, factorID: factorID, actor: actor), address: nil, device: nil)
        if try await !context.hasVerifiedFactor(userID: userID) { try await factors.deleteRecoveryCodes(userID: userID) }
        return true
    }

    /// Removes every factor and recovery code of an account (someone locked out of both);
    /// audited with the actor. Returns the removed factors' ids.
    package func reset(userID: String, actor: AuditActor) async throws -> [String] {
        let removed = try await factors.deleteFactors(userID: userID)
        try await factors.deleteRecoveryCodes(userID: userID)
        for id in removed { context.report(.factorRemoved(userID: userID, factorID: id, actor: actor), address: nil, device: nil) }
        return removed
    }
}
