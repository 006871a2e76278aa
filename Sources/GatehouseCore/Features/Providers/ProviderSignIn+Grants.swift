import Foundation
import LoginCore

extension ProviderSignIn {
    /// Keeps what a provider gave with an identity: Apple's relay flag, and its refresh token
    /// sealed under the key-encryption key (bound to the identity), to revoke access later.
    func remember(_ identity: ExternalIdentity, userID: String) async throws {
        guard identity.isPrivateEmail || identity.refreshToken != nil else { return }
        let bound = Self.sealBinding(identity.provider, identity.subject)
        let sealed = try identity.refreshToken.map { try FactorSecret.seal(Array($0.utf8), factorID: bound, kek: kek) }
        try await grants.saveProviderGrant(ProviderGrantRecord(
            userID: userID, provider: identity.provider, subject: identity.subject, privateEmail: identity.isPrivateEmail,
            sealedToken: sealed, updatedAt: now
        ))
    }

    /// What a sealed token is bound to: its identity, so a row copied to another cannot be opened.
    static func sealBinding(_ provider: IdentityProvider, _ subject: String) -> String { provider.rawValue + ":" + subject }

    /// Revokes at each provider the refresh tokens kept for the account (of one provider when
    /// given), and forgets them: on unlinking, and before the account is deleted. A provider
    /// that cannot be reached is logged; the removal goes on.
    package func revokeGrants(userID: String, provider: IdentityProvider? = nil) async throws {
        for grant in try await grants.takeProviderGrants(userID: userID, provider: provider) {
            guard let sealed = grant.sealedToken,
                  let configured = self.provider(vouchingFor: grant.provider),
                  let token = FactorSecret.open(sealed, factorID: Self.sealBinding(grant.provider, grant.subject), kek: kek)
            else { continue }
            do {
                let revoked = try await configured.provider.revoke(refreshToken: String(decoding: token, as: UTF8.self), now: now)
                context.logger.notice("Provider access revoked", metadata: [
                    "user.id": "\(userID)", "provider": "\(grant.provider.rawValue)", "revoked": "\(revoked)",
                ])
            } catch {
                context.logger.warning("Provider access not revoked", metadata: [
                    "user.id": "\(userID)", "provider": "\(grant.provider.rawValue)", "error": "\(type(of: error))",
                ])
            }
        }
    }

    /// Acts on a provider's signed server-to-server notice (`POST /auth/apple/notifications`).
    ///
    /// `consent-revoked` and `account-delete` end every session of the account and unlink the
    /// identity; an account with no other way in is deleted. `email-disabled` and
    /// `email-enabled` are recorded. Each is audited; a notice about nobody we know is ignored.
    package func receiveNotice(_ signed: String, from id: SignInMethods.Method) async throws {
        let configured = try provider(id)
        guard !signed.isEmpty, signed.utf8.count <= ConfiguredProvider.maximumIDTokenBytes else {
            throw GatehouseError.invalidRequest("payload must be 1 to \(ConfiguredProvider.maximumIDTokenBytes) bytes")
        }
        let notice: ProviderNotice
        do {
            notice = try await configured.provider.notice(signed, now: now)
        } catch let failure as ProviderFailure {
            context.logger.notice("Provider notice refused", metadata: ["provider": "\(id.rawValue)", "reason": "\(failure)"])
            throw GatehouseError.providerSignIn(failure)
        }
        let identity = configured.settings.identityProvider
        guard let user = try await context.users.user(provider: identity, subject: notice.subject) else {
            context.logger.info("Provider notice about no account", metadata: ["provider": "\(id.rawValue)", "notice": "\(notice.kind.rawValue)"])
            return
        }
        context.report(.providerNotice(userID: user.id, provider: identity, notice: notice.kind), address: nil, device: nil)
        guard notice.kind.endsTheIdentity else { return }
        _ = try await context.sessions.revokeSessions(userID: user.id, keeping: nil, at: now, reason: .providerRevoked)
        _ = try await grants.takeProviderGrants(userID: user.id, provider: identity)
        do {
            _ = try await context.users.removeIdentity(userID: user.id, provider: identity, keepingAWayIn: true)
            context.report(.identityUnlinked(userID: user.id, provider: identity), address: nil, device: nil)
        } catch RepositoryError.lastWayIn {
            _ = try await context.users.deleteUser(id: user.id)
            context.logger.notice("Account deleted: its provider identity was its only way in", metadata: [
                "user.id": "\(user.id)", "provider": "\(id.rawValue)",
            ])
        }
    }
}
