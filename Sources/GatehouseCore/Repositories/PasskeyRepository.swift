import Foundation

/// Where passkeys are kept.
///
/// ``addPasskey(_:handle:)`` and ``deletePasskey(id:userID:)`` each run in one transaction with
/// the account's user handle (its ``IdentityProvider/passkey`` identity), so an account has a
/// handle exactly while it has a passkey.
public protocol PasskeyRepository: Sendable {
    /// Stores a passkey, and the account's user handle if it has none, in one transaction.
    /// Throws ``RepositoryError/duplicateIdentity`` when the credential id is registered already.
    /// - Returns: `false`, storing nothing, when the account has a different handle (the
    ///   credential was made for a handle that lost a race).
    func addPasskey(_ passkey: PasskeyRecord, handle: IdentityRecord) async throws -> Bool
    /// The passkey with this credential id.
    func passkey(credentialID: [UInt8]) async throws -> PasskeyRecord?
    /// The passkey with this credential id, and the account whose user handle is `handle`
    /// (`nil` when no account has it), read together in one statement.
    func passkey(credentialID: [UInt8], handle: String) async throws -> (PasskeyRecord, owner: UserRecord?)?
    /// The account's passkeys, oldest first.
    func passkeys(userID: String) async throws -> [PasskeyRecord]
    /// Renames one of the account's passkeys; returns whether it exists.
    func renamePasskey(id: String, userID: String, to name: String) async throws -> Bool
    /// Removes one of the account's passkeys, and the user handle with the last one, in one
    /// transaction; returns whether it existed. With `keepingAWayIn`, the account must still
    /// have a way in after it (``RepositoryError/lastWayIn``, nothing removed, otherwise),
    /// judged inside the transaction with the account's row locked, so two removals that race
    /// cannot both pass.
    func deletePasskey(id: String, userID: String, keepingAWayIn: Bool) async throws -> Bool
    /// Removes every passkey of the account and its user handle, in one transaction (a reset).
    /// - Returns: the removed passkeys' ids.
    func deletePasskeys(userID: String) async throws -> [String]
}

extension PasskeyRepository {
    /// Removes one of the account's passkeys whatever else it has (an operator's removal).
    public func deletePasskey(id: String, userID: String) async throws -> Bool {
        try await deletePasskey(id: id, userID: userID, keepingAWayIn: false)
    }
}
