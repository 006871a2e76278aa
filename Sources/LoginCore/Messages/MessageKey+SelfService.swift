extension MessageKey {
    /// The default copy of account self-service (issue 39): the mailed sign-in code and its link.
    var selfServiceDefaultText: String {
        switch self {
        case .emailCodeButton: "Email me a sign-in code"
        case .emailCodeTitle: "Sign in with a code"
        case .emailCodeSubmit: "Sign in"
        case .emailCodeSent: "We sent a 6-digit code to {email}. It expires in 10 minutes."
        case .emailCodeChangeEmail: "Use a different email"
        case .signInLinkTitle: "Sign in to {app}"
        case .signInLinkPrompt: "Tap Sign in to finish signing in."
        case .signInLinkSubmit: "Sign in"
        case .mailSignInSubject: "Your {app} sign-in code"
        case .mailSignInBody: "Use this code to sign in to {app}: {code}. It expires in 10 minutes and works once."
        case .mailSignInAction: "Sign in"
        case .signInOtherWay: "Sign in another way"
        case .deleteAccountButton: "Delete account"
        case .deleteAccountTitle: "Delete your account?"
        case .deleteAccountBody: "This deletes your {app} account, its sign-in methods, passkeys and two-step verification, and signs out every device. It can't be undone."
        case .deleteAccountPasswordLabel: "Enter your password to confirm"
        case .deleteAccountSubmit: "Delete my account"
        case .deleteAccountWrongPassword: "That password isn't right"
        case .accountDeletedTitle: "Account deleted"
        case .accountDeletedBody: "Your {app} account was deleted. We sent a confirmation to your email."
        case .deleteAccountSignInAgain: "For your security, sign in again, then delete your account within 5 minutes."
        case .mailDeletedSubject: "Your {app} account was deleted"
        case .noticeNotMe: "This wasn't me"
        case .noticeFooter: "We send this to keep your {app} account safe."
        case .noticePasswordChangedSubject: "Your {app} password was changed"
        case .noticePasswordChangedBody: "The password of your {app} account was changed on {device}. If this wasn't you, reset your password now: that signs out every device."
        case .noticePasswordResetSubject: "Your {app} password was reset"
        case .noticePasswordResetBody: "The password of your {app} account was reset with a link we emailed you. If this wasn't you, reset it again now: that signs out every device."
        case .noticeFactorAddedSubject: "Two-step verification was turned on for your {app} account"
        case .noticeFactorAddedBody: "An authenticator app was added to your {app} account on {device}. If this wasn't you, reset your password now."
        case .noticeFactorRemovedSubject: "A two-step verification method was removed from your {app} account"
        case .noticeFactorRemovedBody: "An authenticator app was removed from your {app} account. If this wasn't you, reset your password now."
        case .noticePasskeyAddedSubject: "A passkey was added to your {app} account"
        case .noticePasskeyAddedBody: "A passkey was added to your {app} account on {device}. If this wasn't you, reset your password now: that removes every passkey."
        case .mailDeletedBody: "Your {app} account and everything that signed in to it were deleted, as you asked. If this wasn't you, reply to this email at once."
        default: emailChangeDefaultText
        }
    }
}

extension MessageKey {
    /// The default copy of changing the email: the Home form, the mails' page, the notices.
    var emailChangeDefaultText: String {
        switch self {
        case .changeEmailButton: "Change email"
        case .changeEmailTitle: "Change your email"
        case .changeEmailBody: "We'll send a link and a code to the new address, and a link to your current one. Your email changes once both are confirmed."
        case .changeEmailLabel: "New email"
        case .changeEmailPasswordLabel: "Your password"
        case .changeEmailSubmit: "Send confirmation"
        case .changeEmailSent: "We sent a link and a 6-digit code to {email}. Confirm there, and from your current address if you have one."
        case .changeEmailCodeSubmit: "Confirm"
        case .changeEmailSignInAgain: "For your security, sign in again, then change your email within 5 minutes."
        case .changeEmailPending: "Waiting for confirmation of {email}"
        case .emailChangeTitle: "Confirm your new email"
        case .emailChangePrompt: "Change the email of your {app} account to {email}?"
        case .emailChangeConfirmButton: "Confirm email change"
        case .emailChangeCancelButton: "Cancel this change"
        case .emailChangeReviewButton: "Review email change"
        case .emailChangeWaiting: "Confirmed. Now confirm from the other address too; the change happens when both are confirmed."
        case .emailChangeDone: "Your email is now {email}."
        case .emailChangeCancelled: "The email change was cancelled. Nothing changed."
        case .emailChangeRevertTitle: "Put your email back?"
        case .emailChangeRevertPrompt: "This makes this address your account's email again, signs out every device, and asks you for a new password."
        case .emailChangeRevertButton: "Put my email back"
        case .mailEmailChangeNewSubject: "Confirm your new {app} email"
        case .mailEmailChangeNewBody: "Confirm that {new_email} is the new email of your {app} account. If the account has an email now, confirm from that address too."
        case .mailEmailChangeCurrentSubject: "Confirm your {app} email change"
        case .mailEmailChangeCurrentBody: "Someone asked to change the email of your {app} account to {new_email}. If it was you, confirm it. If not, cancel it from the same page and change your password."
        case .noticeEmailInUseSubject: "Someone tried to use your email on {app}"
        case .noticeEmailInUseBody: "Someone asked to move another {app} account to this address, which already has an account. Nothing changed, and you need do nothing."
        case .noticeEmailChangedSubject: "Your {app} email was changed"
        case .noticeNewDeviceSubject: "New sign-in to your {app} account"
        case .noticeNewDeviceBody: "Your {app} account was signed in to on {device} from {address} at {time}. If this was you, there's nothing to do. If not, reset your password now: that signs out every device."
        case .noticeEmailChangedBody: "The email of your {app} account was changed to {new_email}. If this wasn't you, use the link below within 7 days: it puts this address back, signs out every device and lets you set a new password."
        default: ""
        }
    }
}
