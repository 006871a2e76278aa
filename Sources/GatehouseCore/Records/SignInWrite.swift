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
    /// The grant's one-time secret (a passkey's challenge) is used at `at`: in the session's
    /// transaction, so a sign-in costs one commit less, and only if it is still unused and
    /// unexpired then. When another request used it first (a replayed assertion racing its
    /// twin), the transaction stores nothing and fails with ``RepositoryError/secretSpent``.
    case secretConsumed(purpose: OneTimeSecretPurpose, id: String, at: Date)
}

extension SignInWrite {
    /// Whether this write spends a one-time secret, which a refused sign-in stores all the same.
    package var spendsASecret: Bool {
        switch self {
        case .secretConsumed: true
        case .passkeyUsed, .failureStreakCleared: false
        }
    }
}
