import Foundation
import GatehouseModel

/// An account about to exist: the one description every way of making an account fills in
/// (the operator's `users create`, phone registration, a first sign-in with a provider), and
/// the one place it is written, in one transaction with its identities and password.
package struct NewAccount: Sendable {
    /// A way to find the account, and whether it was proved.
    package struct Identity: Sendable {
        package let provider: IdentityProvider
        package let subject: String
        package let verified: Bool
    }

    /// Already through ``PersonName/checked(_:)`` at the entry point that took it.
    package let name: PersonName
    package let identities: [Identity]
    package let passwordHash: String?

    /// Writes the account; ``RepositoryError/duplicateIdentity`` when one of its identities is
    /// already another account's (nothing is written then).
    package func create(in users: any UserRepository, at date: Date) async throws -> UserRecord {
        let email = identities.first { $0.provider == .email }?.subject
        // No identity at all: a guest (issue 39), until one is added.
        let user = UserRecord(email: email, name: name, createdAt: date, isAnonymous: identities.isEmpty)
        let records = identities.map {
            IdentityRecord(userID: user.id, provider: $0.provider, subject: $0.subject, verifiedAt: $0.verified ? date : nil, createdAt: date)
        }
        try await users.createUser(user, identities: records, passwordHash: passwordHash)
        return user
    }

    /// An account that signs in with a phone (E.164) its holder proved, and no password.
    package static func phone(_ e164: String, name: PersonName) -> NewAccount {
        NewAccount(name: name, identities: [.init(provider: .phone, subject: e164, verified: true)], passwordHash: nil)
    }
}
