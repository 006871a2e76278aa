import Foundation

/// A feature service that holds a way into an account a password reset must end.
///
/// A reset by mail proves the address and nothing else: whoever had the old password (an
/// attacker who signed the address up first, or one who guessed it) may have added passkeys or
/// second factors meanwhile. Each service that keeps such a credential registers here, and
/// ``EmailAccounts`` calls every participant once the reset's secret is spent.
package protocol RecoveryParticipant: Sendable {
    /// Removes every credential of this kind from the account, reporting each removal.
    /// - Returns: how many were removed, for the log.
    func accountRecovered(userID: String, from client: ClientInfo?) async throws -> Int
}
