import Foundation

/// Where second factors are kept.
///
/// Atomicity: ``addFactor(_:maximum:unverifiedSince:)`` counts and inserts in one transaction
/// with the account's row locked, so racing enrolments never pass the limit. A code's step is
/// accepted in the sign-in's own transaction
/// (``SignInWrite/factorStepAccepted(factorID:userID:step:at:)``, one conditional `UPDATE`), so
/// of two requests presenting the same code (or two codes of one step) exactly one is accepted.
public protocol FactorRepository: Sendable {
    /// Stores a new factor unless the account already has `maximum` factors (verified ones, and
    /// unverified ones created at or after `unverifiedSince`); returns whether it was stored.
    func addFactor(_ factor: FactorRecord, maximum: Int, unverifiedSince: Date) async throws -> Bool
    /// The account's factors, oldest first.
    func factors(userID: String) async throws -> [FactorRecord]
    /// One of the account's factors.
    func factor(id: String, userID: String) async throws -> FactorRecord?
    /// Removes one of the account's factors; returns whether it existed.
    func deleteFactor(id: String, userID: String) async throws -> Bool
    /// Removes every factor of the account (an operator's reset); returns their ids.
    func deleteFactors(userID: String) async throws -> [String]
    /// Removes unverified factors created before `date`; returns how many.
    func deleteUnverifiedFactors(createdBefore date: Date) async throws -> Int
}
