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
            try await mail.send(.recovery, .passwordReset, MailSecretFields(userID: user.id, email: address), for: client, now: now)
            context.logger.info("Password reset mailed", metadata: ["user.id": "\(user.id)", "client.address": "\(client.address)"])
        } else {
            // The same write, so an unknown address costs the same time and its codes answer alike.
            try await mail.issueDecoy(.passwordReset, email: address, standingIn: .recovery, for: client, now: now)
        }
        return address
    }

    /// The reset grant's verifier. The link or code is checked first (a bogus one costs no
    /// hash), then the new password passes the policy and is hashed, and only then is the
    /// secret spent. Unless the account is locked (which the pipeline refuses next), every
    /// session ends and every passkey (and second factor) goes, since the mail proves the address
    /// and not who added them; the new password is set, the email counts as verified (the
    /// person read the mail), and the account's sign-in back-off is cleared.
    func verifyPasswordReset(_ proof: MailProof, newPassword: String?) async throws -> Verified {
        let mail = try requireMail()
        let live = try await mail.check(.passwordReset, proof, now: now)
        var hash: String?
        if let newPassword {
            try await context.passwords.check(newPassword, logger: context.logger)
            hash = try await context.hasher.hash(newPassword)
        }
        let fields = try await mail.consume(live, now: now)
        guard let user = try await context.users.user(id: fields.userID), user.email == fields.email else { throw GatehouseError.linkExpired }
        guard !user.isLocked(at: now) else { return Verified(user: user) }
        if let hash {
            try await context.users.setPassword(userID: user.id, hash: hash, at: now)
            context.report(.passwordChanged(userID: user.id, method: .reset), address: nil, device: nil)
        }
        // Every session ends, even one opened this very millisecond; the pipeline opens the new one next.
        _ = try await context.sessions.revokeSessions(
            userID: user.id, keeping: nil, at: now, reason: hash == nil ? .accountRecovered : .passwordChanged
        )
        var removed = 0
        for participant in recovery { removed += try await participant.accountRecovered(userID: user.id, from: nil) }
        _ = try await context.users.verifyIdentity(userID: user.id, provider: .email, subject: fields.email, at: now)
        let account = context.limiter.keys.reference(for: fields.email)
        let cleared = try await context.limiter.throttles.clear(prefix: LimitKey.failureStreaksPrefix(account: account))
            + (try await context.limiter.throttles.clear(LimitKey.accountFailures(account: account).storageKey) ? 1 : 0)
        context.logger.info("Password reset", metadata: [
            "user.id": "\(user.id)", "password.set": "\(hash != nil)", "backoff.cleared": "\(cleared)", "credentials.removed": "\(removed)",
        ])
        return Verified(user: user)
    }

    /// Changes the password of a signed-in account that proves its current one; every other
    /// session ends, this one goes on.
    package func changePassword(_ principal: Principal, current: String, new password: String, from client: ClientInfo) async throws {
        try PasswordShape.check(current, field: "current_password")
        try await context.requireStepUp(principal)
        try await context.passwords.check(password, logger: context.logger)
        try await context.proveCurrentPassword(current, of: principal.user, from: client)
        try await replacePassword(principal, with: password, client: client)
    }

    /// Sets a new password for a signed-in person who proves it is them again (Supabase's
    /// `PUT /user`, with secure password change): the current password, a code mailed by
    /// ``sendReauthentication(_:from:)`` (GoTrue's `nonce`), or, once, the session a recovery
    /// link opened in the last 30 minutes. Without one: ``GatehouseError/reauthenticationRequired``.
    /// Every other session ends. Once the account has a second factor, the current password and
    /// the mailed code also need a session that proved it lately; the recovery link's session
    /// does not, as a reset mail resets the password without it (and stays at `aal1`).
    package func setPassword(_ principal: Principal, new password: String, proof: PasswordProof?, from client: ClientInfo) async throws {
        switch proof {
        case .currentPassword(let current):
            try await changePassword(principal, current: current, new: password, from: client)
        case .nonce(let nonce):
            try PasswordShape.check(password)
            let mail = try requireMail()
            guard let email = principal.user.email else { throw GatehouseError.reauthenticationRequired }
            guard !nonce.isEmpty, nonce.utf8.count <= 16 else { throw GatehouseError.invalidRequest("nonce must be 1 to 16 bytes") }
            try await context.requireStepUp(principal)
            let live = try await mail.check(.reauthentication, .code(email: email, code: nonce), now: now)
            try await context.passwords.check(password, logger: context.logger)
            guard try await mail.consume(live, now: now).userID == principal.user.id else { throw GatehouseError.codeRejected(.expired) }
            try await replacePassword(principal, with: password, client: client)
        case nil:
            try PasswordShape.check(password)
            let mail = try requireMail()
            let id = principal.session.id
            guard let marker = try await mail.secrets.secret(.recoverySession, id: id), marker.isLive(at: now) else {
                throw GatehouseError.reauthenticationRequired
            }
            try await context.passwords.check(password, logger: context.logger)
            guard try await mail.secrets.consumeSecret(.recoverySession, id: id, at: now, unexpiredAt: now) != nil else {
                throw GatehouseError.reauthenticationRequired
            }
            try await replacePassword(principal, with: password, client: client)
        }
    }

    /// Lets the session a recovery link just opened set the password once, within `within`
    /// seconds, without another proof (GoTrue's `verify type=recovery`, then `PUT /user`).
    package func allowPasswordSet(sessionID: String, within: TimeInterval) async throws {
        let mail = try requireMail()
        try await mail.secrets.putSecret(OneTimeSecret(
            purpose: .recoverySession, id: sessionID, target: sessionID, createdAt: now, expiresAt: now.addingTimeInterval(within)
        ))
    }

    /// Mails the signed-in person a code that confirms a password change (GoTrue's
    /// `GET /reauthenticate`); the mail limits apply as to any account mail.
    package func sendReauthentication(_ principal: Principal, from client: ClientInfo) async throws {
        let mail = try requireMail()
        guard let email = principal.user.email else {
            throw GatehouseError.invalidRequest("this account has no email address to send a code to")
        }
        try await mail.admit(recipient: email, purpose: .reauthentication, from: client, now: now)
        try await mail.send(.reauthentication, .reauthentication, MailSecretFields(userID: principal.user.id, email: email), for: client, now: now)
        context.logger.info("Reauthentication code mailed", metadata: ["user.id": "\(principal.user.id)", "client.address": "\(client.address)"])
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

/// How a signed-in person proves it is them before a password change.
package enum PasswordProof: Sendable, Equatable {
    /// The current password (`current_password`).
    case currentPassword(String)
    /// The code a reauthentication mail carried (GoTrue's `nonce`).
    case nonce(String)
}
