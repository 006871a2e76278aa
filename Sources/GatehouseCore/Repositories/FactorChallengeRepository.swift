import Foundation

/// Where second-factor challenges and recovery codes are kept.
///
/// Atomicity: ``recordChallengeFailure(id:at:)`` is one conditional `UPDATE` on an open
/// challenge, so racing wrong answers never pass ``FactorChallengeRecord/maximumFailures``; a
/// right answer completes it in the sign-in's own transaction
/// (``SignInWrite/factorChallengeCompleted(id:at:)``, conditional too), so it completes once;
/// ``useRecoveryCode(userID:hash:at:)`` is one conditional `UPDATE`, so a code works once;
/// ``replaceRecoveryCodes(userID:hashes:at:)`` deletes and inserts in one transaction, as
/// ``createChallenge(_:)`` removes the expired ones with the new one.
public protocol FactorChallengeRepository: Sendable {
    /// Stores a new challenge and removes every challenge that expired before it was made, in
    /// one transaction.
    func createChallenge(_ challenge: FactorChallengeRecord) async throws
    /// One of the account's challenges, in any state.
    func challenge(id: String, userID: String) async throws -> FactorChallengeRecord?
    /// Counts a wrong answer on a challenge still open at `date`; returns the failures so far,
    /// or `nil` when it was no longer open.
    func recordChallengeFailure(id: String, at date: Date) async throws -> Int?

    /// Replaces the account's recovery codes with new ones (their hashes).
    func replaceRecoveryCodes(userID: String, hashes: [String], at date: Date) async throws
    /// Marks an unused code of the account used; returns whether it was one.
    func useRecoveryCode(userID: String, hash: String, at date: Date) async throws -> Bool
    /// How many of the account's recovery codes are unused.
    func unusedRecoveryCodes(userID: String) async throws -> Int
    /// Removes every recovery code of the account (an operator's reset).
    func deleteRecoveryCodes(userID: String) async throws
}
