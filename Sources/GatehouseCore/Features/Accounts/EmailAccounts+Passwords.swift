import Foundation
import GatehouseModel
import Logging

extension EmailAccounts {
    /// Mails a reset link and code to the account with this address, if there is one
    /// ("Forgot password?"); the same answer, after the same limits, for every address.
    /// - Returns: the normalised address.
    package func requestPasswordReset(email: String, from client: ClientInfo) async throws -> String {
        guard settings.accounts.passwordReset else { throw GatehouseError.featureNotOffered(.passwordReset) }
        let mail = try requireMail()
        let address = try checkedEmail(email)
        try await mail.admit(recipient: address, purpose: .passwordReset, from: client, now: now)
        if let user = try await context.users.user(email: address) {
            let secret = try await mail.issue(.passwordReset, userID: user.id, email: address, now: now)
            mail.send(mail.compose(.recovery, to: address, secret: secret), now: now)
            context.logger.info("Password reset mailed", metadata: ["user.id": "\(user.id)", "client.address": "\(client.address)"])
        }
        return address
    }

    /// The reset grant's verifier. The new password passes the policy and is hashed before the
    /// secret is spent; then, unless the account is locked (which the pipeline refuses next),
    /// the password is set (ending every session), the email counts as verified (the person
    /// read the mail), and the account's sign-in back-off is cleared.
    func verifyPasswordReset(_ proof: MailProof, newPassword: String?) async throws -> Verified {
        let mail = try requireMail()
        var hash: String?
        if let newPassword {
            try await context.passwords.check(newPassword, logger: context.logger)
            hash = try await context.hasher.hash(newPassword)
        }
        let fields = try await mail.redeem(.passwordReset, proof, now: now)
        guard let user = try await context.users.user(id: fields.userID), user.email == fields.email else { throw GatehouseError.linkExpired }
        guard !user.isLocked(at: now) else { return Verified(user: user) }
        if let hash {
            try await context.users.setPassword(userID: user.id, hash: hash, at: now)
            // Every session ends, even one opened this very millisecond; the pipeline opens the new one next.
            _ = try await context.sessions.revokeSessions(userID: user.id, keeping: nil, at: now, reason: .passwordChanged)
            context.report(.passwordChanged(userID: user.id, method: .reset), address: nil, device: nil)
        }
        _ = try await context.users.verifyIdentity(userID: user.id, provider: .email, subject: fields.email, at: now)
        let account = context.limiter.keys.reference(for: fields.email)
        let cleared = try await context.limiter.throttles.clear(prefix: LimitKey.failureStreaksPrefix(account: account))
            + (try await context.limiter.throttles.clear(LimitKey.accountFailures(account: account).storageKey) ? 1 : 0)
        context.logger.info("Password reset", metadata: [
            "user.id": "\(user.id)", "password.set": "\(hash != nil)", "backoff.cleared": "\(cleared)",
        ])
        return Verified(user: user)
    }

    /// Changes the password of a signed-in account that proves its current one; every other
    /// session ends, this one goes on.
    package func changePassword(_ principal: Principal, current: String, new password: String, from client: ClientInfo) async throws {
        try PasswordShape.check(current, field: "current_password")
        try await context.passwords.check(password, logger: context.logger)
        let user = principal.user
        let attempt = try await context.limiter.admit(user.email ?? "user:\(user.id)", from: client, now: now)
        let stored = try await context.users.passwordHash(userID: user.id)
        guard try await context.hasher.verify(current, against: stored ?? context.dummyHash), stored != nil else {
            try await context.limiter.recordFailure(attempt, now: now)
            throw GatehouseError.invalidCredentials
        }
        _ = try await context.limiter.recordSuccess(attempt, now: now)
        try await replacePassword(principal, with: password, client: client)
    }

    /// Sets a new password for a session that signed in moments ago, without the old one
    /// (Supabase's `PUT /user` after a recovery link); every other session ends.
    /// - Parameter within: how recent the sign-in must be, in seconds.
    package func setRecentPassword(_ principal: Principal, new password: String, from client: ClientInfo, within: TimeInterval) async throws {
        guard now.timeIntervalSince(principal.session.createdAt) <= within else {
            throw GatehouseError.invalidRequest("sign in again (or open a recovery link) to set a new password")
        }
        try PasswordShape.check(password)
        try await context.passwords.check(password, logger: context.logger)
        try await replacePassword(principal, with: password, client: client)
    }

    /// Stores the new password as of this session's start, so sessions older than it end with
    /// the change, then ends the newer ones too: only the caller's session is left.
    private func replacePassword(_ principal: Principal, with password: String, client: ClientInfo) async throws {
        let user = principal.user
        let hash = try await context.hasher.hash(password)
        try await context.users.setPassword(userID: user.id, hash: hash, at: principal.session.createdAt)
        _ = try await context.sessions.revokeSessions(userID: user.id, keeping: principal.session.id, at: now, reason: .passwordChanged)
        context.logger.info("Password changed", metadata: ["user.id": "\(user.id)", "client.address": "\(client.address)"])
        context.report(.passwordChanged(userID: user.id, method: .change), client: client)
    }
}
