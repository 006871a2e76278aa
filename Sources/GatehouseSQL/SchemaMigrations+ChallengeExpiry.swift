import SQLKit

extension SchemaMigrations {
    /// Version 23: second-factor challenges indexed by their expiry, so the removal of the
    /// expired ones each new challenge makes (``SQLRepository/removeExpiredChallenges(before:)``)
    /// reads only those instead of every challenge of every account.
    package static let challengeExpiry: Step = { db in
        try await db.create(index: "factor_challenges_expires_at").on("factor_challenges").column("expires_at").run()
    }
}
