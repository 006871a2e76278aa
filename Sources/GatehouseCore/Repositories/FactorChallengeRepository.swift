import Foundation

/// Where second-factor challenges and recovery codes are kept.
///
/// Atomicity: ``recordChallengeFailure(id:at:)`` and ``completeChallenge(id:at:)`` are each one
/// conditional `UPDATE` on an open challenge, so racing answers never pass
/// ``FactorChallengeRecord/maximumFailures`` and a challenge completes once;
/// ``useRecoveryCode(userID:hash:at:)`` is one conditional `UPDATE`, so a code works once;
/// ``replaceRecoveryCodes(userID:hashes:at:)`` deletes and inserts in one transaction.
public protocol FactorChallengeRepository: Sendable {
    func createChallenge(_ challenge: FactorChallengeRecord) async throws
    /// One of the account's challenges, in any state.
    func challenge(id: String, userID: String) async throws -> FactorChallengeRecord?
    /// Counts a wrong answer on a challenge still open at `date`; returns the failures so far,
    /// or `nil` when it was no longer open.
    func recordChallengeFailure(id: String, at date: Date) async throws -> Int?
    /// Completes a challenge still open at `date`; returns whether this call completed it.
    func completeChallenge(id: String, at date: Date) async throws -> Bool
    /// Removes challenges that expired before `date`; returns how many.
    func deleteChallenges(expiredBefore date: Date) async throws -> Int

    /// Replaces the account's recovery codes with new ones (their hashes).
    func replaceRecoveryCodes(userID: String, hashes: [String], at date: Date) async throws
    /// Marks an unused code of the account used; returns whether it was one.
    func useRecoveryCode(userID: String, hash: String, at date: Date) async throws -> Bool
    /// How many of the account's recovery codes are unused.
    func unusedRecoveryCodes(userID: String) async throws -> Int
    /// Removes every recovery code of the account (an operator's reset).
    func deleteRecoveryCodes(userID: String) async throws
}
