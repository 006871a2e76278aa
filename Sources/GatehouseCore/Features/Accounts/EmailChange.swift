import Foundation
import GatehouseModel
import Logging

/// Changing a signed-in account's email address (issue 39), with both addresses confirming.
///
/// A request mails a link and a code to the new address and, where the account has one, a link
/// and a code to the current address; the change happens when both are confirmed, in either
/// order (Supabase's "secure email change"). A new request replaces a pending one; the current
/// address can cancel it. An address another account has answers exactly as a free one (the
/// same limits, writes and mails to the requester's side), but its owner gets a notice instead
/// of a link, so the change can never finish. When it finishes, the account's email identity
/// moves to the new address (verified), every session but the requester's ends, and the old
/// address gets a notice whose "This wasn't me" puts the address back, ends every session and
/// opens a reset.
package struct EmailChange: Sendable {
    let context: ServiceContext
    let mail: AccountMailer

    package init(context: ServiceContext, mail: AccountMailer) {
        self.context = context
        self.mail = mail
    }

    var now: Date { context.now }

    /// What a pending change will do, kept until both sides confirm.
    struct Pending: Codable, Equatable {
        var userID: String
        var newEmail: String
        /// The address the account had when the change was asked for; `nil` for a guest or a
        /// phone-only account, whose change needs only the new address.
        var previousEmail: String?
        /// The session that asked: it stays signed in when the change finishes.
        var sessionID: String
    }

    /// Starts a change of the signed-in account's email to `newEmail` (see the type's discussion).
    /// - Parameter password: the current password; without it, the session must be a sign-in of
    ///   the last five minutes (a guest's session always suffices).
    /// - Returns: the normalised new address.
    package func request(_ principal: Principal, newEmail: String, password: String?, from client: ClientInfo) async throws -> String {
        let address = try context.checkedEmail(newEmail)
        try await context.proveRecently(principal, password: password, from: client)
        let user = principal.user
        guard address != user.email else { throw GatehouseError.invalidRequest("email is already this account's address") }
        try await mail.admit(recipient: address, purpose: .emailChangeNew, from: client, now: now)
        let changeID = RefreshToken.hash(RefreshToken.generate(prefix: ""))
        let pending = Pending(userID: user.id, newEmail: address, previousEmail: user.email, sessionID: principal.session.id)
        try await mail.secrets.putSecret(OneTimeSecret(
            purpose: .emailChange, id: changeID, target: "user:\(user.id)", data: try JSONEncoder().encode(pending),
            createdAt: now, expiresAt: now.addingTimeInterval(TimeInterval(mail.policy.verificationLifetime))
        ))
        let fields = { (email: String) in MailSecretFields(userID: user.id, email: email, changeID: changeID) }
        let extra = ["new_email": address, "old_email": user.email ?? ""]
        if try await context.users.user(email: address) == nil {
            try await mail.send(.emailChangeNew, .emailChangeNew, fields(address), extra: extra, for: client, now: now)
        } else {
            // The same write a free address gets, so its code answers alike; its owner is told.
            let notice = mail.compose(.emailInUseNotice, to: address, secret: nil, extra: extra)
            try await mail.issueDecoy(.emailChangeNew, email: address, notice: notice, for: client, now: now)
        }
        if let current = user.email {
            try await mail.send(.emailChangeCurrent, .emailChangeCurrent, fields(current), extra: extra, for: client, now: now)
        }
        context.logger.info("Email change requested", metadata: ["user.id": "\(user.id)", "client.address": "\(client.address)"])
        context.report(.emailChangeRequested(userID: user.id), client: client)
        return address
    }

    /// The new address of the account's pending change, if one is waiting.
    package func pendingAddress(userID: String) async throws -> String? {
        guard let secret = try await mail.secrets.secret(.emailChange, target: "user:\(userID)"), secret.isLive(at: now) else { return nil }
        return try? JSONDecoder().decode(Pending.self, from: secret.data).newEmail
    }
}
