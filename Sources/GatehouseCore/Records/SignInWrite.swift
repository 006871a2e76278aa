import Foundation

/// A write a successful sign-in makes besides its session, stored in the session's own
/// transaction: a sign-in commits once, and never half (issue 41).
///
/// A verifier returns these in ``Verified/writes`` instead of writing them itself; the pipeline
/// hands them to ``SessionRepository/createSession(_:credential:with:)``.
public enum SignInWrite: Sendable, Equatable {
    /// A passkey signed in: its counter (which only grows), its backup state and the time.
    case passkeyUsed(credentialID: [UInt8], signCount: UInt32, backedUp: Bool, at: Date)
    /// The signing-in source's failure streak ends (and its back-off with it): the throttle row
    /// under `key` goes, with the session, so a sign-in that does not commit leaves it.
    case failureStreakCleared(key: String)
}
