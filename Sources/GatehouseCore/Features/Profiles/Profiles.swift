import Foundation
import GatehouseModel

/// An account as its owner sees and edits it: its current record, its identities, its name.
///
/// The surfaces read and write profiles only here, never through a repository.
package struct Profiles: Sendable {
    let context: ServiceContext

    package init(context: ServiceContext) {
        self.context = context
    }

    /// The account as stored now (a token's copy may be older), if it still exists.
    package func account(id: String) async throws -> UserRecord? {
        try await context.users.user(id: id)
    }

    /// The account's identities: email, phone, providers and its passkey handle.
    package func identities(of userID: String) async throws -> [IdentityRecord] {
        try await context.users.identities(userID: userID)
    }

    /// Whether the account has an identity at `provider`.
    package func hasIdentity(_ provider: IdentityProvider, userID: String) async throws -> Bool {
        try await identities(of: userID).contains { $0.provider == provider }
    }

    /// Sets the account's name after the one name rule (the profile step after a first provider
    /// sign-in); a name the rule refuses is thrown as its ``PersonName/Problem`` and nothing is written.
    package func rename(_ user: UserRecord, to typed: String) async throws -> UserRecord {
        let name = try PersonName.checked(typed)
        var renamed = user
        renamed.personName = PersonName(full: name)
        try await context.users.updateUser(renamed)
        return renamed
    }
}
