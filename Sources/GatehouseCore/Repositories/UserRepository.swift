import Foundation
import GatehouseModel

/// Where accounts, their identities and their password credentials are kept.
public protocol UserRepository: Sendable {
    /// Adds an account with its identities and optional password hash, in one transaction;
    /// throws ``RepositoryError/duplicateIdentity`` when an identity is taken.
    func createUser(_ user: UserRecord, identities: [IdentityRecord], passwordHash: String?) async throws
    /// The account an identity belongs to.
    func user(provider: IdentityProvider, subject: String) async throws -> UserRecord?
    func user(id: String) async throws -> UserRecord?
    func identities(userID: String) async throws -> [IdentityRecord]
    /// The account's password hash; `nil` when it has no password.
    func passwordHash(userID: String) async throws -> String?
    /// The account an identity belongs to, its password hash and whether it has a second
    /// factor, in one read (a password sign-in).
    func passwordAccount(provider: IdentityProvider, subject: String) async throws -> PasswordAccount?
    /// Sets the password and the instant that ends older sessions, in one transaction.
    func setPassword(userID: String, hash: String, at: Date) async throws
    func allUsers() async throws -> [UserRecord]
    /// Replaces an account's name and lock state.
    func updateUser(_ user: UserRecord) async throws
    /// Removes an account with its identities and sessions; returns whether it existed.
    func deleteUser(id: String) async throws -> Bool
    /// Adds an identity to an account; throws ``RepositoryError/duplicateIdentity`` when it is taken.
    func addIdentity(_ identity: IdentityRecord) async throws
    /// Links a provider's identity to an account whose email was never verified, in one
    /// transaction: the identity is added, the email marked verified by the provider, the
    /// password removed and every session ended (the pre-account-takeover defence).
    func claimUnverifiedAccount(userID: String, adding identity: IdentityRecord, emailSubject: String, at: Date) async throws
    /// Marks one identity verified at `date` if it was not; returns whether it changed.
    func verifyIdentity(userID: String, provider: IdentityProvider, subject: String, at date: Date) async throws -> Bool
    /// Removes the account's identities of a provider; returns whether there were any. With
    /// `keepingAWayIn`, as ``PasskeyRepository/deletePasskey(id:userID:keepingAWayIn:)``.
    func removeIdentity(userID: String, provider: IdentityProvider, keepingAWayIn: Bool) async throws -> Bool
    /// Replaces the account's identities of `identity`'s provider with it, in one transaction;
    /// ``RepositoryError/duplicateIdentity`` (nothing changed) when another account has it.
    func replaceIdentity(_ identity: IdentityRecord) async throws
    /// One page of accounts, oldest first, and how many there are in all.
    func users(offset: Int, limit: Int) async throws -> (users: [UserRecord], total: Int)
    /// Removes guest accounts (no identity) made before `date` with no session seen since;
    /// one statement. Returns how many.
    func removeGuests(unusedSince date: Date) async throws -> Int
    /// Accounts whose scheduled deletion is due at `date`, soonest first, at most `limit`.
    func usersDueForDeletion(at date: Date, limit: Int) async throws -> [UserRecord]
    /// Removes the account as ``deleteUser(id:)`` does, in one statement, only if its deletion is
    /// still scheduled and due at `date` (a sign-in that kept it wins); returns whether it went.
    func deleteUserIfDue(id: String, at date: Date) async throws -> Bool
}

extension UserRepository {
    /// The account with this normalised email.
    public func user(email: String) async throws -> UserRecord? {
        try await user(provider: .email, subject: email)
    }
}

/// A repository operation that cannot be carried out.
public enum RepositoryError: Error, Equatable {
    case duplicateIdentity
    /// A statement that must return a row returned none.
    case noRow
    /// A server secret could not be read back after it was stored.
    case missingSecret(String)
    /// `serve --no-migrate` found a schema older (or newer) than this build's.
    case schemaOutOfDate(applied: Int, expected: Int)
    /// The removal would leave the account with no way in; nothing was removed.
    case lastWayIn
    /// A sign-in's one-time secret (the write that found it spent) was used, or expired, before
    /// its session could be stored; nothing of the sign-in was stored.
    case secretSpent(SignInWrite)
}

extension RepositoryError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .duplicateIdentity: "an account with this identity already exists"
        case .noRow: "the database returned no row"
        case .lastWayIn: "this is the account's last way to sign in"
        case .secretSpent: "the sign-in's one-time secret was already used"
        case .missingSecret(let name): "the server secret \(name) could not be read back"
        case .schemaOutOfDate(let applied, let expected):
            "the database schema is at version \(applied) but this build needs \(expected); run `gatehouse migrate`"
        }
    }
}

extension UserRepository {
    /// Removes the account's identities of a provider whatever else it has.
    public func removeIdentity(userID: String, provider: IdentityProvider) async throws -> Bool {
        try await removeIdentity(userID: userID, provider: provider, keepingAWayIn: false)
    }
}

/// What a password sign-in reads about an account, in one statement.
public struct PasswordAccount: Sendable {
    public var user: UserRecord
    /// The password hash; `nil` when the account has none.
    public var passwordHash: String?
    /// Whether the account has a verified second factor: what the sign-in's `mfa` hint needs
    /// to know, read with the account so the sign-in needs no read of its own for it.
    public var hasSecondFactor: Bool

    public init(user: UserRecord, passwordHash: String?, hasSecondFactor: Bool) {
        self.user = user
        self.passwordHash = passwordHash
        self.hasSecondFactor = hasSecondFactor
    }
}
