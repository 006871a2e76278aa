import Foundation

/// What passkeys need besides the pipeline: the relying party, and where credentials and
/// challenges are kept (the one one-time secret store).
public struct PasskeyStore: Sendable {
    package let party: RelyingParty
    package let credentials: any PasskeyRepository
    package let challenges: any OneTimeSecretRepository

    /// Seconds since its sign-in within which a session may add a passkey.
    package static let reauthenticationWindow: TimeInterval = 600

    package init(party: RelyingParty, repository: some PasskeyRepository & OneTimeSecretRepository) {
        self.party = party
        credentials = repository
        challenges = repository
    }
}

/// The fields a registration challenge keeps: who asked, from which session, with which user handle.
struct RegistrationChallenge: Codable {
    var userID: String
    var sessionID: String
    var handle: String
}
