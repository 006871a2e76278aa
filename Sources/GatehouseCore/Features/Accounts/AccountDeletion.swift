import Foundation
import GatehouseModel
import Logging

/// Deleting one's own account (issue 39; GDPR Art. 17, Apple's in-app deletion rule).
///
/// The person proves it is them again: their password where the account has one, or else a
/// sign-in in the last five minutes, with a passkey, a provider or a code; and a recent second
/// factor where the account has one. Then the account goes with everything that signs in to
/// it (identities, password, passkeys, factors, sessions, provider grants, pending mails'
/// secrets), in one statement whose cascade every instance sees at once. Audit rows stay; they
/// name the account only by its id and keyed references. A confirmation is mailed.
package struct AccountDeletion: Sendable {
    let context: ServiceContext
    let mail: AccountMailer?
    /// Runs before the account is removed: provider grants revoked at their providers.
    let beforeDeleting: @Sendable (UserRecord) async throws -> Void

    /// How recent a sign-in proves it is the person, without a password.
    package static var recentSignIn: TimeInterval { ServiceContext.recentSignIn }

    package init(context: ServiceContext, mail: AccountMailer?, beforeDeleting: @escaping @Sendable (UserRecord) async throws -> Void = { _ in }) {
        self.context = context
        self.mail = mail
        self.beforeDeleting = beforeDeleting
    }

    var now: Date { context.now }

    /// Deletes the signed-in account once it is proved again (see the type's discussion).
    /// - Parameter password: the account's password; without one, the session must be a sign-in
    ///   of the last five minutes.
    /// - Returns: when the account goes, where the app keeps it for a grace period; `nil` when it went now.
    @discardableResult
    package func deleteAccount(_ principal: Principal, password: String?, from client: ClientInfo) async throws -> Date? {
        if let password { try PasswordShape.check(password) }
        try await context.requireStepUp(principal)
        let user = principal.user
        if let password {
            try await context.proveCurrentPassword(password, of: user, from: client)
        } else {
            // An account with a password proves it with the password; one without, by having
            // just signed in (a passkey, a provider or a code).
            guard try await !needsPassword(principal) else { throw GatehouseError.invalidRequest("password is required") }
            guard now.timeIntervalSince(principal.session.createdAt) <= Self.recentSignIn else {
                throw GatehouseError.reauthenticationRequired
            }
        }
        if graceDays > 0 {
            return try await schedule(user, from: client)
        }
        try await remove(user, from: client)
        return nil
    }

    /// Removes the account now: provider grants first, then the cascade, then its mail's secrets.
    private func remove(_ user: UserRecord, from client: ClientInfo?, ifDue: Bool = false) async throws {
        try await beforeDeleting(user)
        let removed = ifDue ? try await context.users.deleteUserIfDue(id: user.id, at: now) : try await context.users.deleteUser(id: user.id)
        guard removed else { throw GatehouseError.sessionEnded }
        if let email = user.email, let mail {
            for purpose in [OneTimeSecretPurpose.emailVerification, .passwordReset, .emailSignIn, .reauthentication] {
                if let secret = try await mail.secrets.secret(purpose, target: email) { try await mail.secrets.deleteSecret(purpose, id: secret.id) }
            }
            await mail.notify(mail.compose(.accountDeleted, to: email, secret: nil), for: client, now: now)
        }
        context.logger.notice("Account deleted by its owner", metadata: ["user.id": "\(user.id)", "client.address": "\(client?.address ?? "-")"])
        context.report(.accountDeleted(userID: user.id), address: client?.address, device: client.map { DeviceLabel.make(userAgent: $0.userAgent) })
    }

    /// Deletes the account after the app's grace period: every session ends now, the owner is
    /// mailed the date, and a sign-in before then keeps it (``ServiceContext/keepScheduledAccount(_:client:)``).
    private func schedule(_ user: UserRecord, from client: ClientInfo) async throws -> Date {
        var user = user
        let due = now.addingTimeInterval(TimeInterval(graceDays) * 86400)
        user.deletionDueAt = due
        try await context.users.updateUser(user)
        _ = try await context.sessions.revokeSessions(userID: user.id, keeping: nil, at: now, reason: .deletionScheduled)
        if let email = user.email, let mail {
            let date = due.formatted(date: .long, time: .omitted)
            await mail.notify(mail.compose(.deletionScheduled, to: email, secret: nil, extra: ["date": date]), for: client, now: now)
        }
        context.logger.notice("Account deletion scheduled by its owner", metadata: ["user.id": "\(user.id)", "due": "\(due)"])
        context.report(.accountDeletionScheduled(userID: user.id), client: client)
        return due
    }

    /// When the signed-in account's deletion would take effect: now, or after the grace period.
    package var graceDays: Int { context.settings.accounts.deletionGraceDays }

    /// Removes the accounts whose grace period is over (a sign-in that kept one wins the race);
    /// returns how many went. Run hourly by the server.
    @discardableResult
    package func purgeDue(limit: Int = 100) async throws -> Int {
        var removed = 0
        for user in try await context.users.usersDueForDeletion(at: now, limit: limit) {
            do {
                try await remove(user, from: nil, ifDue: true)
                removed += 1
            } catch GatehouseError.sessionEnded {
                continue
            }
        }
        return removed
    }

    /// Whether the account has a password to prove (the confirmation asks for it then).
    package func needsPassword(_ principal: Principal) async throws -> Bool {
        try await context.users.passwordHash(userID: principal.user.id) != nil
    }
}
