import GatehouseModel
/// The typed words security events are made of. Each raw value is the string stored in audit
/// rows and sent to the audit webhook, unchanged from before these types existed, so existing
/// rows and the dashboards reading them still match.

/// How a session was signed in to, as events, logs and metrics name it.
public enum SignInMethodName: String, Sendable, Equatable, CaseIterable {
    case password
    case phone
    case google
    case apple
    case github
    case microsoft
    /// Any other OpenID Connect provider the app file configures.
    case oidc
    case emailLink = "email_link"
    /// A sign-in code or link mailed to the address (issue 39).
    case emailCode = "email_code"
    case passwordReset = "password_reset"
    case passkey
    /// A second factor's step up: an authenticator-app code.
    case totp
    /// A second factor's step up: a recovery code.
    case recoveryCode = "recovery_code"
    /// A guest account's sign-in (issue 39).
    case anonymous

    /// The method as a token's `amr` names it.
    package var authenticationMethod: AuthenticationMethod {
        switch self {
        case .password: .password
        case .phone: .otp
        case .google, .apple, .github, .microsoft, .oidc: .oauth
        case .emailLink: .magiclink
        case .emailCode: .otp
        case .passwordReset: .recovery
        case .passkey: .webauthn
        case .totp: .totp
        case .recoveryCode: .recoveryCode
        case .anonymous: .anonymous
        }
    }
}

/// How a password came to be set.
public enum PasswordChangeMethod: String, Sendable, Equatable, CaseIterable {
    /// With a reset mail's link or code.
    case reset
    /// By a signed-in person proving the current one.
    case change
}

/// The channel a message leaves by.
public enum MessageChannel: String, Sendable, Equatable, CaseIterable {
    case sms
    case email
    /// Written audit entries, forwarded to a SIEM's webhook. Its sends are never themselves
    /// audited (each would be exported again).
    case auditWebhook = "audit_webhook"
}

/// What happened to a message handed to its channel.
public enum MessageResult: String, Sendable, Equatable, CaseIterable {
    case sent
    case failed
    /// Not sent: the service's hourly budget was spent.
    case dropped
    /// Not sent, and not to be tried again: a permanent refusal, the retry limit or an expired
    /// secret. The outbox keeps it for an operator (`gatehouse outbox retry`).
    case deadLettered = "dead_lettered"
}

/// What a message was for: a phone code, or one of the account mails.
public enum MessagePurpose: String, Sendable, Equatable, CaseIterable {
    case code
    case signUp = "signup"
    case verify = "email"
    case recovery
    case existingAccount = "existing_account"
    case reauthentication
    case recoveryCodeUsed = "recovery_code_used"
    case signInCode = "magiclink"
    case accountDeleted = "account_deleted"
    case emailChange = "email_change"
    /// A notice of a change to how the account is signed in to.
    case securityNotice = "security_notice"
    /// A batch of written audit entries for the audit webhook.
    case auditExport = "audit_export"
}

/// Which limit refused an attempt: the `limit` of `sign_in.throttled` rows and of
/// `gatehouse_throttled_total`.
public enum LimitKind: String, Sendable, Equatable, CaseIterable {
    case addressLimit = "address_limit"
    case backoff
    case accountLimit = "account_limit"
    case phoneAddress = "phone_address"
    case phoneSends = "phone_sends"
    case phoneDay = "phone_day"
    case smsBudget = "sms_budget"
    case providerStarts = "provider_starts"
    case spentIDToken = "spent_id_token"
    case signUpAddress = "sign_up_address"
    case mailAddress = "mail_address"
    case mailRecipient = "mail_recipient"
    case mailBudget = "mail_budget"
    case passkeyChallenges = "passkey_challenges"
    case mailCodeGuesses = "mail_code_guesses"
    case mailDomain = "mail_domain"
    /// The hashing queue was full (503, not a 429).
    case hashingQueue = "hashing_queue"
    /// Guest accounts made from one address per hour (issue 39).
    case anonymousAddress = "anonymous_address"
}

/// What an operator did to an account.
public enum AdminAction: String, Sendable, Equatable, CaseIterable {
    case create
    case update
    case delete
    case lock
    case unlock
    case ban
    case unban
    case setPassword = "set_password"

    /// The audit row's type for this action.
    public var auditType: AuditEventType {
        switch self {
        case .create: .adminCreate
        case .update: .adminUpdate
        case .delete: .adminDelete
        case .lock: .adminLock
        case .unlock: .adminUnlock
        case .ban: .adminBan
        case .unban: .adminUnban
        case .setPassword: .adminSetPassword
        }
    }
}

/// Who did an operator's action: the service role (the admin API) or a CLI user.
public struct AuditActor: RawRepresentable, Sendable, Equatable, Hashable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The admin API, called with the service role key.
    public static let serviceRole = AuditActor(rawValue: "service_role")
    /// The CLI run by someone the system could not name.
    public static let cli = AuditActor(rawValue: "cli")

    /// The CLI run by `login` (letters, digits, `.`, `_` and `-` kept, at most 64).
    public static func cli(login: String) -> AuditActor {
        AuditActor(rawValue: "cli:" + String(login.filter { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }.prefix(64)))
    }
}

/// The type of an audit row: a dotted name, stable across versions.
public enum AuditEventType: String, Sendable, Equatable, CaseIterable {
    case signInSucceeded = "sign_in.succeeded"
    case signInRefused = "sign_in.refused"
    case signInThrottled = "sign_in.throttled"
    case sessionEnded = "session.ended"
    case refreshTokenReused = "session.refresh_token_reused"
    case signedUp = "account.signed_up"
    case emailVerified = "account.email_verified"
    case passwordChanged = "password.changed"
    case passkeyAdded = "passkey.added"
    case passkeyRemoved = "passkey.removed"
    case passkeyCloneWarning = "passkey.clone_warning"
    case messageSent = "message.sent"
    case identityLinked = "identity.linked"
    case identityUnlinked = "identity.unlinked"
    case providerNotice = "identity.provider_notice"
    case adminCreate = "admin.create"
    case adminUpdate = "admin.update"
    case adminDelete = "admin.delete"
    case adminLock = "admin.lock"
    case adminUnlock = "admin.unlock"
    case adminBan = "admin.ban"
    case adminUnban = "admin.unban"
    case adminSetPassword = "admin.set_password"
    case requestThrottled = "request.throttled"
    case signUpOfExistingAccount = "account.sign_up_existing"
    case passwordChangeRefused = "password.change_refused"
    case factorEnrolled = "mfa.factor_enrolled"
    case factorVerified = "mfa.factor_verified"
    case factorRemoved = "mfa.factor_removed"
    case recoveryCodeUsed = "mfa.recovery_code_used"
    case recoveryCodesRegenerated = "mfa.recovery_codes_regenerated"
    case stepUpRefused = "mfa.step_up_refused"
    case accountDeleted = "account.deleted"
    case emailChangeRequested = "account.email_change_requested"
    case emailChanged = "account.email_changed"
    case emailChangeReverted = "account.email_change_reverted"
    case accountDeletionScheduled = "account.deletion_scheduled"
    case accountDeletionCancelled = "account.deletion_cancelled"
}
