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
    package func deleteAccount(_ principal: Principal, password: String?, from client: ClientInfo) async throws {
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
        try await beforeDeleting(user)
        guard try await context.users.deleteUser(id: user.id) else { throw GatehouseError.sessionEnded }
        if let email = user.email, let mail {
            for purpose in [OneTimeSecretPurpose.emailVerification, .passwordReset, .emailSignIn, .reauthentication] {
                if let secret = try await mail.secrets.secret(purpose, target: email) { try await mail.secrets.deleteSecret(purpose, id: secret.id) }
            }
            mail.send(mail.compose(.accountDeleted, to: email, secret: nil), for: client, now: now)
        }
        context.logger.notice("Account deleted by its owner", metadata: ["user.id": "\(user.id)", "client.address": "\(client.address)"])
        context.report(.accountDeleted(userID: user.id), client: client)
    }

    /// Whether the account has a password to prove (the confirmation asks for it then).
    package func needsPassword(_ principal: Principal) async throws -> Bool {
        try await context.users.passwordHash(userID: principal.user.id) != nil
    }
}
