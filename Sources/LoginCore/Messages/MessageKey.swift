/// A key into the message catalogue: every string the login screen shows or announces.
///
/// The default text of each key is seed 000's copy. Templates may contain `{min}`, `{max}`,
/// `{time}` and `{button}`, which ``MessageCatalogue/text(_:_:)`` fills in. In ``rateLimited``,
/// `{time}` is the wait in words ("15 minutes"); in the countdowns it is `m:ss`.
public enum MessageKey: String, CaseIterable, Codable, Sendable {
    case title
    case subtitle
    case emailLabel
    case emailPlaceholder
    case passwordLabel
    case passwordPlaceholder
    case submit
    case showPassword
    case hidePassword
    case clearEmail
    case clearPassword
    case emailRequired
    case emailInvalid
    case passwordRequired
    case passwordTooShort
    case passwordTooLong
    case invalidCredentials
    case networkUnavailable
    case timeout
    case serverError
    case accountLocked
    case emailNotVerified
    case emailVerifiedSignIn
    case rateLimited
    case sessionExpired
    /// Under the banner while submit is held after a 429; `{time}` is `m:ss`.
    case retryCountdown
    /// Announced when a countdown ends: `{button}` is the label of the button enabled again.
    case retryReady
    case signingIn
    case signedIn
    // Phone sign-in (seed 004). `{digits}`, `{country}`, `{dialCode}`, `{example}`, `{phone}`,
    // `{length}` and `{attempts}` are filled in where they appear.
    case phoneLabel
    case phonePlaceholder
    case countryCodeLabel
    case sendCode
    case codeSentButton
    case phoneInvalid
    case phoneInvalidAnnouncement
    case phoneValid
    case sendingCode
    case codeSent
    case accountNotFound
    case phoneTaken
    case sendCodeOffline
    case smsUnavailable
    case noAccountPrompt
    case createAccount
    case orDivider
    case registerTitle
    case registerSubtitle
    case nameLabel
    case nameRequired
    case haveAccountPrompt
    case signInLink
    // Code entry.
    case codeTitle
    case codeSubtitle
    case codeLabel
    case verifyCode
    case verifyingCode
    case changeNumber
    case resendCode
    case resendCountdown
    /// Announced when a new code was asked for inside the resend window; `{time}` in words.
    case resendWait
    case codeResent
    case codeIncomplete
    case codeIncorrect
    case codeExpired
    case codeAttemptsExceeded
    // Signing in with a provider (seeds 002 and 004).
    case providerButton
    case providerSigningIn
    case providerCancelled
    case providerFailed
    case providerCodeRejected
    case providerLinkRequired
    case profileTitle
    case profileSubtitle
    case profileSave
    case linkProvider
    case unlinkProvider
    case lastSignInMethod
    // Email accounts (seed 002's links): sign-up, verification, reset. `{email}`, `{app}` and
    // `{min}` are filled in where they appear.
    case forgotPassword
    case signUpPrompt
    case signUpLink
    case signUpTitle
    case signUpSubtitle
    case signUpSubmit
    case signingUp
    case checkEmailTitle
    case verificationSent
    case resendEmail
    case emailResent
    case emailVerified
    case verifyEmailTitle
    case verifyEmailSubmit
    case forgotTitle
    case forgotSubtitle
    case forgotSubmit
    case resetSent
    case resetTitle
    case resetSubmit
    case newPasswordLabel
    case newPasswordTooShort
    case passwordTooCommon
    case passwordBreached
    case linkExpired
    case passwordChanged
    case mailVerifySubject
    case mailVerifyBody
    case mailVerifyAction
    case mailResetSubject
    case mailResetBody
    case mailResetAction
    case mailExistingSubject
    case mailExistingBody
    case mailCodeLine
    case mailReauthSubject
    case mailReauthBody
    case mailIgnore
    case mailSignUpIgnore
    // Passkeys and seed 003's biometric offer.
    case biometricOfferTitle
    case biometricOfferBody
    case biometricOfferAccept
    case biometricOfferDecline
    case biometricEnabled
    case biometricPromptTitle
    case biometricPromptBody
    case biometricPromptRetry
    case usePasswordInstead
    case passkeyCancelled
    case passkeyFailed
    case passkeyUnknown
    case passkeysTitle
    case passkeyCreated
    case passkeyLastUsed
    case passkeyNeverUsed
    case passkeySynced
    case passkeyThisDevice
    case passkeyRename
    case passkeyRemove
    case passkeyNameLabel
    case passkeyRemoved
    case devicesTitle
    case deviceCurrent
    case deviceLastActive
    case deviceSignOut
    case deviceSignedOut
    // Every page after the login page (issue 36).
    case codeRequired
    case emailCodeHint
    case resendEmailCountdown
    case continueLink
    case linkAlreadyUsed
    case confirmTitle
    case confirmRemovePasskey
    case confirmSignOutDevice
    case confirmUnlinkProvider
    case cancel
    case enterCodeLink
    case passkeysElsewhere
    // Two-step verification (issue 37). `{attempts}`, `{count}`, `{name}` and `{app}` are filled in.
    case mfaTitle
    case mfaChallengePrompt
    case mfaCodeLabel
    case mfaVerify
    case mfaTriesLeft
    case mfaWrongCode
    case mfaChallengeEnded
    case mfaUseRecoveryCode
    case mfaRecoveryPrompt
    case mfaRecoveryLabel
    case mfaUseAuthenticator
    case mfaUsePasskey
    case mfaOff
    case mfaOn
    case mfaSetUp
    case mfaScanPrompt
    case mfaSecretLabel
    case mfaFirstCodePrompt
    case mfaRecoveryCodesTitle
    case mfaRecoveryCodesBody
    case mfaCopy
    case mfaCopied
    case mfaAuthenticatorApp
    case mfaDownload
    case mfaCodesLeft
    case mfaRegenerate, mfaRemove, mfaConfirmRemove, mfaConfirmRegenerate, mfaStepUpNeeded, mailRecoveryUsedSubject, mailRecoveryUsedBody
    // Every provider but Google, whose copy is the keys above (issue 38). `{provider}` is its label.
    case namedProviderButton
    case namedProviderSigningIn
    case namedProviderFailed
    case namedProviderLinkRequired
    case namedLinkProvider
    case namedUnlinkProvider
    case providersTitle
    // Account self-service (issue 39): the mailed sign-in code, deletion, notices, the email change (copy in MessageKey+SelfService).
    case emailCodeButton, emailCodeTitle, emailCodeSubmit, emailCodeSent, emailCodeChangeEmail, signInLinkTitle, signInLinkPrompt, signInLinkSubmit
    case mailSignInSubject, mailSignInBody, mailSignInAction, signInOtherWay, deleteAccountButton, deleteAccountTitle, deleteAccountBody, noticeFooter
    case deleteAccountPasswordLabel, deleteAccountSubmit, accountDeletedTitle, accountDeletedBody, deleteAccountSignInAgain, mailDeletedSubject, noticeNotMe
    case mailDeletedBody, noticePasswordChangedSubject, noticePasswordChangedBody, noticePasswordResetSubject, noticePasswordResetBody, deleteAccountWrongPassword
    case noticeFactorAddedSubject, noticeFactorAddedBody, noticeFactorRemovedSubject, noticeFactorRemovedBody, noticePasskeyAddedSubject, noticePasskeyAddedBody
    case changeEmailButton, changeEmailTitle, changeEmailBody, changeEmailLabel, changeEmailPasswordLabel, changeEmailSubmit, changeEmailSent
    case changeEmailCodeSubmit, changeEmailSignInAgain, emailChangeTitle, emailChangePrompt, emailChangeConfirmButton, emailChangeCancelButton
    case emailChangeReviewButton, emailChangeWaiting, emailChangeDone, emailChangeCancelled, emailChangeRevertTitle, emailChangeRevertPrompt
    case emailChangeRevertButton, mailEmailChangeNewSubject, mailEmailChangeNewBody, mailEmailChangeCurrentSubject, mailEmailChangeCurrentBody
    case noticeEmailInUseSubject, noticeEmailInUseBody, noticeEmailChangedSubject, noticeEmailChangedBody, changeEmailPending
    case noticeNewDeviceSubject, noticeNewDeviceBody, mailDeletionScheduledSubject, mailDeletionScheduledBody, accountDeletionScheduledBody, deleteAccountBodyGrace

    /// Seed 000's text for this key (the catalogue's default).
    public var defaultText: String {
        switch self {
        case .title: "Log In"
        case .subtitle: ""
        case .emailLabel: "Email"
        case .emailPlaceholder: "Email"
        case .passwordLabel: "Password"
        case .passwordPlaceholder: "Password"
        case .submit: "Log In"
        case .showPassword: "Show password"
        case .hidePassword: "Hide password"
        case .clearEmail: "Clear email"
        case .clearPassword: "Clear password"
        case .emailRequired: "Email is required"
        case .emailInvalid: "Please enter a valid email"
        case .passwordRequired: "Password is required"
        case .passwordTooShort: "Password must be at least {min} characters"
        case .passwordTooLong: "Password must be at most {max} characters"
        case .invalidCredentials: "Invalid email or password"
        case .networkUnavailable: "Unable to connect. Please try again."
        case .timeout: "The request timed out. Please try again."
        case .serverError: "Something went wrong. Please try again."
        case .accountLocked: "Your account has been locked. Please contact support."
        case .emailNotVerified: "Please verify your email address."
        case .emailVerifiedSignIn: "Email verified. Sign in to continue."
        case .rateLimited: "Too many attempts. Please try again in {time}."
        case .sessionExpired: "Your session has expired. Please sign in again."
        case .retryCountdown: "Try again in {time}"
        case .retryReady: "You can try again now. {button} is enabled again."
        case .signingIn: "Signing in"
        case .signedIn: "Signed in"
        default: phoneDefaultText
        }
    }

    /// The default copy of the phone and code screens: seed 004's where it has some.
    private var phoneDefaultText: String {
        switch self {
        case .phoneLabel: "Mobile Number"
        case .phonePlaceholder: "{example}"
        case .countryCodeLabel: "Country code, {country} {dialCode}"
        case .sendCode: "Send OTP"
        case .codeSentButton: "Sent ✓"
        case .phoneInvalid: "Please enter a valid {digits}-digit mobile number"
        case .phoneInvalidAnnouncement: "Error. Please enter a valid phone number"
        case .phoneValid: "Valid phone number"
        case .sendingCode: "Sending verification code"
        case .codeSent: "Code sent"
        case .accountNotFound: "No account found. Create one?"
        case .phoneTaken: "This number already has an account. Sign in instead."
        case .sendCodeOffline: "Unable to send OTP. Check your connection."
        case .smsUnavailable: "We could not send a code just now. Please try again in a minute."
        case .noAccountPrompt: "Don't have an account?"
        case .createAccount: "Create Account"
        case .orDivider: "OR"
        case .registerTitle: "Create Account"
        case .registerSubtitle: "Sign up with your mobile number"
        case .nameLabel: "Full Name"
        case .nameRequired: "Please enter your name"
        case .haveAccountPrompt: "Already have an account?"
        case .signInLink: "Log in"
        case .codeTitle: "Enter verification code"
        case .codeSubtitle: "We sent a {length}-digit code to {phone}"
        case .codeLabel: "Verification code"
        case .verifyCode: "Verify"
        case .verifyingCode: "Verifying code"
        case .changeNumber: "Change number"
        case .resendCode: "Resend code"
        case .resendCountdown: "Resend code in {time}"
        case .resendWait: "A code was just sent. You can ask for a new one in {time}."
        case .codeResent: "A new code was sent"
        case .codeIncomplete: "Enter the {length}-digit code"
        case .codeIncorrect: "Incorrect code. Tries left: {attempts}"
        case .codeExpired: "This code has expired. Request a new one."
        case .codeAttemptsExceeded: "Too many incorrect tries. Request a new code."
        default: providerDefaultText
        }
    }

    private var providerDefaultText: String {
        switch self {
        case .providerButton: "Sign in with Google"
        case .providerSigningIn: "Signing in with Google"
        // Empty: seed 002 shows nothing when the person cancels.
        case .providerCancelled: ""
        case .providerFailed: "Google sign-in failed. Please try again."
        case .providerCodeRejected: "Authentication failed. Please try again."
        case .providerLinkRequired: "An account with this email already exists. Sign in with your password, then link Google."
        case .profileTitle: "Profile Setup"
        case .profileSubtitle: "Confirm the name people will see"
        case .profileSave: "Continue"
        case .linkProvider: "Link Google"
        case .unlinkProvider: "Unlink Google"
        case .lastSignInMethod: "Add another way to sign in before removing this one."
        default: accountDefaultText
        }
    }

    /// The default copy of sign-up, verification and reset: seed 002's links, the rest plain.
    private var accountDefaultText: String {
        switch self {
        case .forgotPassword: "Forgot password?"
        case .signUpPrompt: "Don't have an account?"
        case .signUpLink: "Sign up"
        case .signUpTitle: "Create your account"
        case .signUpSubtitle: ""
        case .signUpSubmit: "Sign Up"
        case .signingUp: "Creating your account"
        case .checkEmailTitle: "Check your email"
        case .verificationSent: "We sent a link to {email}. Open it to verify your email address."
        case .resendEmail: "Resend email"
        case .emailResent: "If {email} needs verifying, a new link is on its way."
        case .emailVerified: "Your email address is verified."
        case .verifyEmailTitle: "Verify your email"
        case .verifyEmailSubmit: "Verify"
        case .forgotTitle: "Reset your password"
        case .forgotSubtitle: "Enter your email and we'll send you a link to reset your password."
        case .forgotSubmit: "Send reset link"
        case .resetSent: "If an account exists for {email}, we sent it a link to reset the password."
        case .resetTitle: "Choose a new password"
        case .resetSubmit: "Save password"
        case .newPasswordLabel: "New password"
        case .newPasswordTooShort: "Password must be at least {min} characters"
        case .passwordTooCommon: "This password is too common. Please choose another."
        case .passwordBreached: "This password has appeared in a data breach. Please choose another."
        case .linkExpired: "This link has expired or was already used. Please request a new one."
        case .passwordChanged: "Your password was changed."
        case .mailVerifySubject: "Verify your email for {app}"
        case .mailVerifyBody: "Welcome to {app}. Please confirm that this is your email address."
        case .mailVerifyAction: "Verify email"
        case .mailResetSubject: "Reset your {app} password"
        case .mailResetBody: "Someone asked to reset the password of your {app} account. If it was you, choose a new one. A reset signs you out everywhere and removes your passkeys, so that nobody who had your old password keeps a way in; you can add them again after."
        case .mailResetAction: "Reset password"
        case .mailExistingSubject: "You already have a {app} account"
        case .mailExistingBody: "Someone tried to sign up to {app} with this email address, which already has an account. Sign in, or reset your password if you forgot it."
        case .mailCodeLine: "Or enter this code: {code}"
        case .mailReauthSubject: "Confirm it's you on {app}"
        case .mailReauthBody: "Someone signed in to your {app} account asked to change its password. To confirm it was you, enter this code: {code}"
        case .mailIgnore: "If you did not ask for this, you can ignore this email."
        case .mailSignUpIgnore: "If you did not sign up for {app}, you can ignore this email."
        default: passkeyDefaultText
        }
    }

    /// The default copy of passkeys and seed 003's biometric offer.
    private var passkeyDefaultText: String {
        switch self {
        case .biometricOfferTitle: "Sign in faster next time"
        case .biometricOfferBody: "Use Face ID or your fingerprint to sign in to {app} on this device."
        case .biometricOfferAccept: "Enable Face ID or fingerprint"
        case .biometricOfferDecline: "Not now"
        case .biometricEnabled: "Face ID or fingerprint sign-in is on for this device."
        case .biometricPromptTitle: "Welcome back"
        case .biometricPromptBody: "Confirm with Face ID or your fingerprint to continue."
        case .biometricPromptRetry: "Try Face ID or fingerprint again"
        case .usePasswordInstead: "Use password instead"
        case .passkeyCancelled: "Face ID or fingerprint sign-in was cancelled."
        case .passkeyFailed: "We couldn't verify your passkey. Please sign in with your password."
        case .passkeyUnknown: "This passkey is no longer registered. Please sign in with your password."
        case .passkeysTitle: "Passkeys"
        case .passkeyCreated: "Added {date}"
        case .passkeyLastUsed: "Last used {date}"
        case .passkeyNeverUsed: "Not used yet"
        case .passkeySynced: "Synced"
        case .passkeyThisDevice: "This device only"
        case .passkeyRename: "Rename"
        case .passkeyRemove: "Remove"
        case .passkeyNameLabel: "Passkey name"
        case .passkeyRemoved: "The passkey was removed."
        case .devicesTitle: "Your devices"
        case .deviceCurrent: "This device"
        case .deviceLastActive: "Last active {date}"
        case .deviceSignOut: "Sign out"
        case .deviceSignedOut: "That device was signed out."
        default: pageDefaultText
        }
    }
}
