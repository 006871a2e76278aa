import Foundation

/// One account mail: what it is for, who gets it, its secrets, and the app's copy for it.
///
/// The message carries data, not markup: the SMTP and outbox adapters render its text and HTML
/// parts from templates, and the Standard Webhooks adapter passes the fields on as Supabase's
/// Send Email hook does, for a receiver that renders its own.
public struct EmailMessage: Sendable, Equatable, Codable {
    /// What the mail asks the person to do; the raw values are Supabase's `email_action_type`.
    public enum Action: String, Sendable, Codable {
        /// Verify the address of a new account.
        case signUp = "signup"
        /// Verify the address of an existing account (a resend).
        case verify = "email"
        /// Reset the password.
        case recovery
        /// Someone signed up with an address that already has an account.
        case existingAccount = "existing_account"
        /// A code confirming a signed-in person's password change.
        case reauthentication
        /// A recovery code was used to sign in (issue 37).
        case recoveryCodeUsed = "recovery_code_used"
        /// A sign-in code and link (Supabase's magic link).
        case signInCode = "magiclink"
        /// The account was deleted by its owner.
        case accountDeleted = "account_deleted"
        /// Security notices (issue 39), each with "This wasn't me" to the reset flow.
        case passwordChangedNotice = "password_changed_notification"
        case passwordResetNotice = "password_reset_notification"
        case factorAddedNotice = "mfa_factor_enrolled_notification"
        case factorRemovedNotice = "mfa_factor_unenrolled_notification"
        case passkeyAddedNotice = "passkey_added_notification"
        /// An email change's link and code to the new address, and to the current one.
        case emailChangeNew = "email_change_new"
        case emailChangeCurrent = "email_change"
        /// Someone asked to move another account to this address, which has an account.
        case emailInUseNotice = "email_in_use_notification"
        /// The account's email changed; to the old address, whose "This wasn't me" puts it back.
        case emailChangedNotice = "email_changed_notification"
        /// A sign-in from a device and address not seen lately (`notifications.newDevice`).
        case newDeviceNotice = "new_sign_in_notification"
        /// The owner deleted the account with a grace period: it goes on `{date}` unless they sign in.
        case deletionScheduled = "account_deletion_scheduled"

        /// What the audit log says the mail was for.
        public var purpose: MessagePurpose {
            switch self {
            case .signUp: .signUp
            case .verify: .verify
            case .recovery: .recovery
            case .existingAccount: .existingAccount
            case .reauthentication: .reauthentication
            case .recoveryCodeUsed: .recoveryCodeUsed
            case .signInCode: .signInCode
            case .accountDeleted, .deletionScheduled: .accountDeleted
            case .emailChangeNew, .emailChangeCurrent: .emailChange
            case .passwordChangedNotice, .passwordResetNotice, .factorAddedNotice, .factorRemovedNotice, .passkeyAddedNotice, .emailInUseNotice,
                 .emailChangedNotice, .newDeviceNotice:
                .securityNotice
            }
        }
    }

    public var action: Action
    /// The recipient's address.
    public var to: String
    /// The link to open (the web page that verifies or resets), if any.
    public var link: String?
    /// The 6-digit code for apps where people type it, if any.
    public var code: String?
    /// The token the link carries, for receivers that build their own link.
    public var token: String?
    /// A second link: the reset page, in the mail to an existing account.
    public var secondaryLink: String?
    /// The second link's label ("Forgot password?").
    public var secondaryLabel: String?
    /// The app's name and its copy for this mail.
    public var appName: String
    public var subject: String
    /// The paragraph that says why the mail came.
    public var body: String
    /// The label of the link's button.
    public var actionLabel: String
    /// The line that gives the code.
    public var codeLine: String?
    /// The closing line ("If you did not ask for this, …").
    public var footer: String
    /// The server's public address, where the links point.
    public var siteURL: String
    /// The outbox's id for it, the same on every try: the `Message-ID`'s local part and the
    /// `webhook-id`, so a receiver can drop a repeat.
    public var id: String?

    public init(
        action: Action, to: String, link: String?, code: String?, token: String?, secondaryLink: String? = nil, secondaryLabel: String? = nil, appName: String,
        subject: String, body: String, actionLabel: String, codeLine: String?, footer: String, siteURL: String
    ) {
        self.action = action
        self.to = to
        self.link = link
        self.code = code
        self.token = token
        self.secondaryLink = secondaryLink
        self.secondaryLabel = secondaryLabel
        self.appName = appName
        self.subject = subject
        self.body = body
        self.actionLabel = actionLabel
        self.codeLine = codeLine
        self.footer = footer
        self.siteURL = siteURL
    }
}
