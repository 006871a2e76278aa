import Foundation

/// Something that happened to an account's security, as the pipeline decided it.
///
/// Never a password, token or code: an unknown account is named only by its keyed reference
/// (``AccountKeys/reference(for:)``), so a recorded refusal reveals nothing either.
public enum SecurityEvent: Sendable, Equatable {
    /// A grant passed every check and a session opened.
    case signInSucceeded(userID: String, sessionID: String, method: SignInMethodName)
    /// A grant was refused after the limits admitted it; `account` is a keyed reference, and
    /// `userID` is set only when the grant was proved (locked, not verified): a wrong password
    /// names no account, known or not.
    case signInRefused(account: String, method: SignInMethodName, reason: SignInRefusal, userID: String? = nil)
    /// A session ended, with why.
    case sessionEnded(userID: String, sessionID: String?, reason: SessionEndReason)
    /// An account was created by signing up (its email not yet verified).
    case signedUp(userID: String)
    /// An account's email was verified.
    case emailVerified(userID: String)
    /// An account's password was set by a reset or a change; its sessions ended.
    case passwordChanged(userID: String, method: PasswordChangeMethod)
    /// A passkey was added to an account.
    case passkeyAdded(userID: String, passkeyID: String)
    /// A passkey was removed from an account.
    case passkeyRemoved(userID: String, passkeyID: String)
    /// A synced passkey's counter did not grow: accepted, but possibly a cloned authenticator.
    case passkeyCloneWarning(userID: String, passkeyID: String)
    /// A sign-in was refused by a limit before any check; `limit` names it (`address_limit`, `backoff`, `account_limit`).
    case signInThrottled(account: String, limit: LimitKind)
    /// A code or a mail was handed to its channel (`sms`, `email`); `account` is the recipient's keyed reference.
    case messageSent(account: String, channel: MessageChannel, purpose: MessagePurpose, result: MessageResult)
    /// An external identity was linked to an account.
    case identityLinked(userID: String, provider: IdentityProvider)
    /// An external identity was unlinked from an account.
    case identityUnlinked(userID: String, provider: IdentityProvider)
    /// A provider told the server about one of its identities (Apple's server-to-server notices).
    case providerNotice(userID: String, provider: IdentityProvider, notice: ProviderNoticeKind)
    /// A request other than a sign-in (a mail, a sign-up) was refused by `limit`; `account` is
    /// the recipient's keyed reference where there is one.
    case requestThrottled(account: String?, limit: LimitKind)
    /// Someone signed up with an address that has an account; its owner was mailed.
    case signUpOfExistingAccount(userID: String)
    /// A signed-in person's password change named a wrong current password.
    case passwordChangeRefused(userID: String)
    /// An operator did something to an account: `actor` says who (`cli:alice`, `service_role`),
    /// `action` what (`create`, `update`, `delete`, `lock`, `unlock`, `ban`, `set_password`, …).
    case administered(actor: AuditActor, action: AdminAction, userID: String)
    /// A second factor was enrolled (unverified until its first code).
    case factorEnrolled(userID: String, factorID: String)
    /// A second factor's first code was accepted.
    case factorVerified(userID: String, factorID: String)
    /// A second factor was removed, by its owner (`actor` nil) or an operator.
    case factorRemoved(userID: String, factorID: String, actor: AuditActor?)
    /// A recovery code was used to step up; its owner was mailed.
    case recoveryCodeUsed(userID: String, left: Int)
    /// The account's recovery codes were replaced by a new set.
    case recoveryCodesRegenerated(userID: String)
    /// A sensitive action was refused for want of a recent second factor.
    case stepUpRefused(userID: String)
    /// The account's owner deleted it (issue 39).
    case accountDeleted(userID: String)
    /// The account's owner asked to change its email (issue 39).
    case emailChangeRequested(userID: String)
    /// Both addresses confirmed, and the account's email changed.
    case emailChanged(userID: String)
    /// The old address's "This wasn't me" put it back.
    case emailChangeReverted(userID: String)
    /// The owner deleted the account with a grace period (`accounts.deletionGraceDays`).
    case accountDeletionScheduled(userID: String)
    /// A sign-in within the grace period kept the account.
    case accountDeletionCancelled(userID: String)
}

/// Why a sign-in the limits admitted was refused.
public enum SignInRefusal: String, Sendable, Equatable {
    case invalidCredentials = "invalid_credentials"
    case accountLocked = "account_locked"
    case emailNotVerified = "email_not_verified"
    /// A mailed or texted code that was wrong, used up or expired.
    case invalidCode = "invalid_code"
    /// A mail's link that was unknown, used or expired.
    case linkExpired = "link_expired"
}

/// Where the pipeline reports each ``SecurityEvent``: the audit log (issue 24) is one sink.
///
/// A sink must not slow a sign-in: it takes the event and returns, doing any writing off the
/// request path. The pipeline never waits on its result.
public protocol EventSink: Sendable {
    /// Takes one event that happened at `date` for a client at `address` on `device` (a label), where known.
    func record(_ event: SecurityEvent, at date: Date, address: String?, device: String?)
}
