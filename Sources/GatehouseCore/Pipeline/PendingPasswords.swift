/// Where the password sign-in finds a pending sign-up's password for an address (issue 35,
/// point 6): a sign-up of a taken address leaves one, so that signing in with it answers
/// `email_not_verified` exactly as a new address's unverified account does, and never signs in.
///
/// ``EmailAccounts`` keeps them with the sign-up's verification secret; the hash is made with
/// the account's own salt and cost, so one argon2id computation serves both comparisons.
package protocol PendingPasswords: Sendable {
    /// The live pending sign-up's password hash for a normalised address, if there is one.
    func pendingPasswordHash(for email: String) async throws -> String?
}
