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
        case .accountDeletedTitle: "Account deleted"
        case .accountDeletedBody: "Your {app} account was deleted. We sent a confirmation to your email."
        case .deleteAccountSignInAgain: "For your security, sign in again, then delete your account within 5 minutes."
        case .mailDeletedSubject: "Your {app} account was deleted"
        case .mailDeletedBody: "Your {app} account and everything that signed in to it were deleted, as you asked. If this wasn't you, reply to this email at once."
        default: ""
        }
    }
}
