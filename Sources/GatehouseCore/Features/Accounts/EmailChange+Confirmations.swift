import Foundation
import GatehouseModel
import Logging

/// Where a pending email change stands after a confirmation.
package enum EmailChangeProgress: Sendable, Equatable {
    /// This address confirmed; the other has not yet.
    case awaitingOther(newEmail: String)
    /// Both confirmed: the account's email is now `newEmail`.
    case done(userID: String, newEmail: String)
}

/// A pending change as one of its mails' pages shows it, before anything is spent.
package struct EmailChangePreview: Sendable, Equatable {
    package let newEmail: String
    /// Whether the link went to the account's current address, which may cancel the change.
    package let fromCurrentAddress: Bool
}

extension EmailChange {
    /// Confirms one side of a pending change with its mail's link or code; the change finishes
    /// when the other side has confirmed too (or at once for an account with no address).
    ///
    /// Each side's secret is spent atomically; the side that sees both spent then spends the
    /// pending change itself, so a change finishes exactly once however the two race.
    package func confirm(_ proof: MailProof, from client: ClientInfo) async throws -> EmailChangeProgress {
        try proof.checkShape()
        let side = try await side(of: proof)
        let fields = try await mail.redeem(side, proof, now: now)
        guard let changeID = fields.changeID, let pending = try await pending(changeID), pending.userID == fields.userID else {
            throw GatehouseError.linkExpired
        }
        if let previous = pending.previousEmail {
            let (other, address): (OneTimeSecretPurpose, String) = side == .emailChangeNew
                ? (.emailChangeCurrent, previous) : (.emailChangeNew, pending.newEmail)
            let confirmed = try await mail.secrets.secret(other, target: address).map {
                $0.consumedAt != nil && $0.mailFields?.changeID == changeID
            } ?? false
            guard confirmed else { return .awaitingOther(newEmail: pending.newEmail) }
        }
        // Both sides are spent: whichever confirmation spends the change applies it.
        guard try await mail.secrets.consumeSecret(.emailChange, id: changeID, at: now, unexpiredAt: now) != nil else {
            return .done(userID: pending.userID, newEmail: pending.newEmail)
        }
        try await apply(pending, from: client)
        return .done(userID: pending.userID, newEmail: pending.newEmail)
    }

    /// What a mail's link would confirm, without spending it (the page before its buttons).
    package func preview(token: String) async throws -> EmailChangePreview {
        try MailProof.token(token).checkShape()
        for side in [OneTimeSecretPurpose.emailChangeCurrent, .emailChangeNew] {
            guard let secret = try await mail.secrets.secret(side, id: RefreshToken.hash(token)), secret.isLive(at: now),
                  let changeID = secret.mailFields?.changeID, let pending = try await pending(changeID)
            else { continue }
            return EmailChangePreview(newEmail: pending.newEmail, fromCurrentAddress: side == .emailChangeCurrent)
        }
        throw GatehouseError.linkExpired
    }

    /// Cancels a pending change from the current address's link: the change can no longer
    /// finish, whatever the new address does.
    package func cancel(token: String, from client: ClientInfo) async throws {
        try MailProof.token(token).checkShape()
        let fields = try await mail.redeem(.emailChangeCurrent, .token(token), now: now)
        guard let changeID = fields.changeID, try await mail.secrets.consumeSecret(.emailChange, id: changeID, at: now, unexpiredAt: now) != nil
        else { throw GatehouseError.linkExpired }
        context.logger.info("Email change cancelled from the current address", metadata: ["user.id": "\(fields.userID)"])
    }

    /// "This wasn't me" from the old address after a change: the address is put back (verified),
    /// every session ends, and a reset opens for it.
    /// - Returns: the reset's secret, whose token the reset page takes at once (following the
    ///   link proved the address just as a reset mail would).
    package func revert(token: String, from client: ClientInfo) async throws -> IssuedMailSecret {
        try MailProof.token(token).checkShape()
        let fields = try await mail.redeem(.emailChangeRevert, .token(token), now: now)
        guard let user = try await context.users.user(id: fields.userID) else { throw GatehouseError.linkExpired }
        if user.email != fields.email { try await moveEmail(of: user, to: fields.email) }
        _ = try await context.sessions.revokeSessions(userID: user.id, keeping: nil, at: now, reason: .emailChanged)
        context.logger.notice("Email change put back from the old address", metadata: ["user.id": "\(user.id)", "client.address": "\(client.address)"])
        context.report(.emailChangeReverted(userID: user.id), client: client)
        return try await mail.issue(.passwordReset, userID: user.id, email: fields.email, now: now)
    }

    /// Moves the account's email identity and ends every other session; mails the old address.
    private func apply(_ pending: Pending, from client: ClientInfo) async throws {
        guard let user = try await context.users.user(id: pending.userID), user.email == pending.previousEmail else {
            throw GatehouseError.linkExpired
        }
        try await moveEmail(of: user, to: pending.newEmail)
        _ = try await context.sessions.revokeSessions(userID: user.id, keeping: pending.sessionID, at: now, reason: .emailChanged)
        if let previous = pending.previousEmail {
            let extra = ["new_email": pending.newEmail, "old_email": previous]
            // The change has happened: a notice that could not be stored is logged, not answered.
            do {
                let fields = MailSecretFields(userID: user.id, email: previous)
                try await mail.send(.emailChangedNotice, .emailChangeRevert, fields, extra: extra, for: client, now: now)
            } catch {
                context.logger.error("Email-changed notice not queued", metadata: ["user.id": "\(user.id)", "error": "\(error)"])
            }
        }
        context.logger.notice("Email changed", metadata: ["user.id": "\(user.id)", "client.address": "\(client.address)"])
        context.report(.emailChanged(userID: user.id), client: client)
    }

    /// The live pending change with this id.
    private func pending(_ changeID: String) async throws -> Pending? {
        guard let secret = try await mail.secrets.secret(.emailChange, id: changeID), secret.isLive(at: now) else { return nil }
        return try? JSONDecoder().decode(Pending.self, from: secret.data)
    }

    /// Makes `email` the account's verified address; one another account took meanwhile
    /// answers as a spent link.
    private func moveEmail(of user: UserRecord, to email: String) async throws {
        do {
            try await context.users.replaceIdentity(IdentityRecord(userID: user.id, provider: .email, subject: email, verifiedAt: now, createdAt: now))
        } catch RepositoryError.duplicateIdentity {
            throw GatehouseError.linkExpired
        }
    }

    /// Which side a proof confirms: a link's token names its secret; a code's address may be
    /// both a change's new address and another's current one, and the one with a live, usable
    /// secret is tried.
    private func side(of proof: MailProof) async throws -> OneTimeSecretPurpose {
        let sides = [OneTimeSecretPurpose.emailChangeNew, .emailChangeCurrent]
        for side in sides {
            let secret = switch proof {
            case .token(let token): try await mail.secrets.secret(side, id: RefreshToken.hash(token))
            case .code(let email, _): try await mail.secrets.secret(side, target: EmailAddress.normalized(email))
            }
            guard let secret, secret.isLive(at: now) else { continue }
            if secret.mailFields?.isUsable == true { return side }
        }
        return .emailChangeNew
    }
}
