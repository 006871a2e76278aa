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
    /// twin), the transaction stores nothing and fails with ``RepositoryError/secretSpent(_:)``.
    case secretConsumed(purpose: OneTimeSecretPurpose, id: String, at: Date)
    /// An authenticator app's code for TOTP step `step` is accepted (and its factor verified, if
    /// this was its first code): only if no code of this step or a later one was accepted
    /// before, so of two requests with one code exactly one stores its sign-in.
    case factorStepAccepted(factorID: String, userID: String, step: Int64, at: Date)
    /// A second-factor challenge is answered at `at`: only if it is still open then.
    case factorChallengeCompleted(id: String, at: Date)
    /// The account's recovery codes become these (a first factor's first code made them): the
    /// old set goes, and none exist unless the factor's verification is stored with them.
    case recoveryCodesReplaced(userID: String, hashes: [String], at: Date)
    /// The session the sign-in takes the place of ends (a step-up's, a browser's previous one).
    case sessionEnded(id: String, reason: SessionEndReason, at: Date)
}

extension SignInWrite {
    /// Whether this write spends a one-time secret, which a refused sign-in stores all the same.
    package var spendsASecret: Bool { refusalWhenSpent != nil }

    /// What a sign-in is refused with when this write finds its secret spent
    /// (``RepositoryError/secretSpent(_:)``), having lost a race with another request presenting
    /// the same proof: a passkey's spent challenge, or an expired second-factor challenge.
    /// `nil` for a write that spends no secret.
    package var refusalWhenSpent: GatehouseError? {
        switch self {
        case .secretConsumed: .passkeyRejected(.challengeExpired)
        case .factorStepAccepted, .factorChallengeCompleted: .codeRejected(.expired)
        case .passkeyUsed, .failureStreakCleared, .recoveryCodesReplaced, .sessionEnded: nil
        }
    }
}
