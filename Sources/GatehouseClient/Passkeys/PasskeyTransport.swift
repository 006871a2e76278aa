import Foundation
import GatehouseModel

/// A transport that can enrol and use passkeys (REST).
public protocol PasskeyTransport: AuthTransport {
    /// A discoverable sign-in challenge; no account is named.
    func passkeyAuthenticationOptions() async throws -> PasskeyRequestOptions
    /// A challenge to add a passkey to the signed-in account (signed in within 10 minutes).
    func passkeyRegistrationOptions(accessToken: String) async throws -> PasskeyCreationOptions
    /// Stores the new passkey.
    func registerPasskey(_ credential: PasskeyRegistrationJSON, name: String?, accessToken: String) async throws -> PasskeySummary
    /// The account's passkeys.
    func passkeys(accessToken: String) async throws -> [PasskeySummary]
    /// Removes one of the account's passkeys.
    func deletePasskey(id: String, accessToken: String) async throws
}
