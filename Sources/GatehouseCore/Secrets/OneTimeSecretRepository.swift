import Foundation

/// The one store of one-time secrets, shared by every instance on the database.
///
/// Each operation is one statement, so its guarantee holds across instances and engines:
/// - ``putSecret(_:)`` replaces the live secret of the same purpose and target as it lands;
/// - ``claimAttempt(_:id:maximum:now:)`` counts a try before the caller compares anything, so
///   parallel guesses never get more tries than `maximum`;
/// - ``consumeSecret(_:id:at:unexpiredAt:)`` succeeds once, for one caller;
/// - ``putSecret(_:countingUnder:maximum:window:at:)`` is one transaction (two statements).
public protocol OneTimeSecretRepository: Sendable {
    /// Stores `secret`, replacing any secret with the same purpose and target.
    func putSecret(_ secret: OneTimeSecret) async throws
    /// Counts one event on the throttle counter `key` (as ``ThrottleRepository/hit(_:window:at:)``)
    /// and stores `secret` only if that count is within `maximum`, in one transaction: a stored
    /// challenge and its count commit once. Returns the counter either way.
    func putSecret(_ secret: OneTimeSecret, countingUnder key: String, maximum: Int, window: TimeInterval, at now: Date) async throws -> ThrottleCounter
    /// The secret with this id, whatever its state.
    func secret(_ purpose: OneTimeSecretPurpose, id: String) async throws -> OneTimeSecret?
    /// The current secret for a target, whatever its state.
    func secret(_ purpose: OneTimeSecretPurpose, target: String) async throws -> OneTimeSecret?
    /// Counts one try on a live secret (unexpired at `now`, unused, under `maximum` tries) and
    /// returns it with the new count; `nil`, counting nothing, when it cannot be tried.
    func claimAttempt(_ purpose: OneTimeSecretPurpose, id: String, maximum: Int, now: Date) async throws -> OneTimeSecret?
    /// Marks the secret used at `date` and returns it, if it was unused (and, with
    /// `unexpiredAt`, unexpired then); `nil` for every other caller.
    func consumeSecret(_ purpose: OneTimeSecretPurpose, id: String, at date: Date, unexpiredAt: Date?) async throws -> OneTimeSecret?
    /// Moves a secret's expiry (a finished flow lives as long as the code it returned).
    func setSecretExpiry(_ purpose: OneTimeSecretPurpose, id: String, to date: Date) async throws
    /// Removes a secret (its message could not be sent).
    func deleteSecret(_ purpose: OneTimeSecretPurpose, id: String) async throws
    /// Removes the secrets of these purposes that expired before `before`; returns how many.
    func purgeSecrets(_ purposes: [OneTimeSecretPurpose], before: Date) async throws -> Int
}
