import Foundation
import GatehouseModel

extension ProviderSignIn {
    /// The account an external identity signs in to, linked or created by GoTrue's rules.
    ///
    /// Keyed on the provider's `sub`, never on email alone:
    /// 1. an account that already has this identity signs in;
    /// 2. a verified provider email that matches an account with a verified email links to it;
    /// 3. a verified provider email that matches an account whose email was never verified
    ///    links too, but that account's password is removed and its sessions end (whoever
    ///    registered the address without proving it loses the account: the pre-account-takeover
    ///    defence);
    /// 4. an unverified provider email never links: when its address is taken the person must
    ///    sign in with their password first and link from Home (``ProviderFailure/linkRequired``);
    /// 5. otherwise a new account is created, with the email if the provider verified it.
    package func account(for identity: ExternalIdentity) async throws -> Verified {
        // A provider's email passes the same rule as a local one (normalised by the verifier),
        // so `user@example.com\0` can never become an account that displays as another's.
        if let email = identity.email, context.settings.login.rules.validateEmail(email) != nil {
            throw GatehouseError.providerSignIn(.invalidToken("email is malformed"))
        }
        if let user = try await context.users.user(provider: identity.provider, subject: identity.subject) { return Verified(user: user) }
        let at = now
        if let email = identity.email, let existing = try await context.users.user(email: email) {
            guard identity.emailVerified else { throw GatehouseError.providerSignIn(.linkRequired) }
            let record = IdentityRecord(userID: existing.id, provider: identity.provider, subject: identity.subject, verifiedAt: at, createdAt: at)
            let emailVerified = try await context.users.identities(userID: existing.id)
                .contains { $0.provider == .email && $0.subject == email && $0.verifiedAt != nil }
            do {
                if emailVerified {
                    try await context.users.addIdentity(record)
                } else {
                    try await context.users.claimUnverifiedAccount(userID: existing.id, adding: record, emailSubject: email, at: at)
                }
            } catch RepositoryError.duplicateIdentity {
                return try await racedIdentity(identity)
            }
            context.logger.notice("Identity linked", metadata: [
                "user.id": "\(existing.id)", "provider": "\(identity.provider.rawValue)",
                "rule": "\(emailVerified ? "verified_email" : "unverified_account_claimed")",
            ])
            context.report(.identityLinked(userID: existing.id, provider: identity.provider), address: nil, device: nil)
            if !emailVerified {
                context.logger.warning("Unverified account claimed by a verified provider email; password removed, sessions ended", metadata: [
                    "user.id": "\(existing.id)", "provider": "\(identity.provider.rawValue)",
                ])
            }
            return Verified(user: try await context.users.user(id: existing.id) ?? existing)
        }
        let verifiedEmail = identity.emailVerified ? identity.email : nil
        // The provider's name passes the one name rule; one that fails is left empty for the
        // profile step to ask for, rather than refusing a sign-in the person cannot fix.
        let name = (try? PersonName.checked(identity.name ?? "")) ?? ""
        var identities = [NewAccount.Identity(provider: identity.provider, subject: identity.subject, verified: true)]
        if let verifiedEmail { identities.append(.init(provider: .email, subject: verifiedEmail, verified: true)) }
        let user: UserRecord
        do {
            user = try await NewAccount(name: PersonName(full: name), identities: identities, passwordHash: nil).create(in: context.users, at: at)
        } catch RepositoryError.duplicateIdentity {
            return try await racedIdentity(identity)
        }
        context.logger.info("Account registered", metadata: ["user.id": "\(user.id)", "method": "\(identity.provider.rawValue)"])
        return Verified(user: user, isNewUser: true)
    }

    /// Adds an external identity to a signed-in account (Home's "Link Google").
    package func link(_ identity: ExternalIdentity, toUser userID: String) async throws -> Verified {
        guard let user = try await context.users.user(id: userID) else { throw GatehouseError.providerSignIn(.invalidFlow) }
        if let owner = try await context.users.user(provider: identity.provider, subject: identity.subject) {
            guard owner.id == userID else { throw GatehouseError.providerSignIn(.identityTaken) }
            return Verified(user: user)
        }
        let at = now
        do {
            try await context.users.addIdentity(IdentityRecord(
                userID: userID, provider: identity.provider, subject: identity.subject, verifiedAt: at, createdAt: at
            ))
        } catch RepositoryError.duplicateIdentity {
            throw GatehouseError.providerSignIn(.identityTaken)
        }
        context.logger.notice("Identity linked", metadata: ["user.id": "\(userID)", "provider": "\(identity.provider.rawValue)", "rule": "signed_in"])
        context.report(.identityLinked(userID: userID, provider: identity.provider), address: nil, device: nil)
        return Verified(user: user)
    }

    /// Removes a provider from an account, unless it is the account's last way in.
    ///
    /// A way in is a phone, an external identity, a passkey, or an email with a password; what
    /// is left is judged in the removal's own transaction, so two removals that race cannot
    /// both pass.
    package func unlink(_ provider: IdentityProvider, from userID: String) async throws {
        let removed: Bool
        do {
            removed = try await context.users.removeIdentity(userID: userID, provider: provider, keepingAWayIn: true)
        } catch RepositoryError.lastWayIn {
            throw GatehouseError.lastSignInMethod
        }
        if removed {
            try await revokeGrants(userID: userID, provider: provider)
            context.logger.notice("Identity unlinked", metadata: ["user.id": "\(userID)", "provider": "\(provider.rawValue)"])
            context.report(.identityUnlinked(userID: userID, provider: provider), address: nil, device: nil)
        }
    }

    /// Two first sign-ins with one identity raced: the winner's account is the answer.
    private func racedIdentity(_ identity: ExternalIdentity) async throws -> Verified {
        guard let user = try await context.users.user(provider: identity.provider, subject: identity.subject) else {
            throw GatehouseError.providerSignIn(.linkRequired)
        }
        return Verified(user: user)
    }
}
