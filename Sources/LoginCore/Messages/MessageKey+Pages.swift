extension MessageKey {
    /// The default copy of the shared page components: codes typed from a mail, waits and confirmations.
    var pageDefaultText: String {
        switch self {
        case .codeRequired: "Enter the code from the email"
        case .emailCodeHint: "Or enter the code from the email."
        case .resendEmailCountdown: "Resend email in {time}"
        case .continueLink: "Continue"
        case .linkAlreadyUsed: "This link was already used, and you are signed in."
        case .confirmTitle: "Are you sure?"
        case .confirmRemovePasskey: "Remove the passkey “{name}”? You will no longer be able to sign in with it."
        case .confirmSignOutDevice: "Sign out {device}? It will need to sign in again."
        case .confirmUnlinkProvider: "Unlink {provider}? You will no longer be able to sign in with it."
        case .cancel: "Cancel"
        case .enterCodeLink: "Enter the code we sent"
        case .passkeysElsewhere: "Face ID and fingerprint sign-in work at {url}, not at this address."
        default: secondFactorDefaultText
        }
    }

    /// The default copy of two-step verification (issue 37).
    private var secondFactorDefaultText: String {
        switch self {
        case .mfaTitle: "Two-step verification"
        case .mfaChallengePrompt: "Enter the 6-digit code from your authenticator app"
        case .mfaCodeLabel: "Authentication code"
        case .mfaVerify: "Verify"
        case .mfaTriesLeft: "{attempts} tries left"
        case .mfaWrongCode: "That code didn't work. Check your authenticator app and try again."
        case .mfaChallengeEnded: "Too many wrong codes. Please sign in again."
        case .mfaUseRecoveryCode: "Use a recovery code instead"
        case .mfaRecoveryPrompt: "Enter one of your recovery codes"
        case .mfaRecoveryLabel: "Recovery code"
        case .mfaUseAuthenticator: "Use your authenticator app instead"
        case .mfaUsePasskey: "Use a passkey"
        case .mfaOff: "Protect your account with a second step at sign-in: a code from an authenticator app."
        case .mfaOn: "Two-step verification is on."
        case .mfaSetUp: "Set up two-step verification"
        case .mfaScanPrompt: "Scan this QR code with your authenticator app, or type the setup key."
        case .mfaSecretLabel: "Setup key"
        case .mfaFirstCodePrompt: "Enter the 6-digit code the app shows"
        case .mfaRecoveryCodesTitle: "Save your recovery codes"
        case .mfaRecoveryCodesBody: "If you lose your authenticator app, each of these codes signs you in once. They are shown only now."
        case .mfaCopy: "Copy"
        case .mfaCopied: "Copied"
        case .mfaAuthenticatorApp: "Authenticator app"
        case .mfaDownload: "Download as text"
        case .mfaCodesLeft: "{count} recovery codes left"
        case .mfaRegenerate: "Get new recovery codes"
        case .mfaRemove: "Remove"
        case .mfaConfirmRemove: "Remove “{name}”? Sign-in will no longer ask for its codes."
        case .mfaConfirmRegenerate: "Get new recovery codes? The ones you have stop working."
        case .mfaStepUpNeeded: "Confirm it's you first: enter a code from your authenticator app."
        case .mailRecoveryUsedSubject: "A recovery code was used on your {app} account"
        case .mailRecoveryUsedBody: "Someone signed in to your {app} account with one of its recovery codes; {count} are left. If it was not you, reset your password now and get new recovery codes on Home."
        default: namedProviderDefaultText
        }
    }

    /// The default copy of every provider but Google's button and Home row.
    private var namedProviderDefaultText: String {
        switch self {
        case .namedProviderButton: "Sign in with {provider}"
        case .namedProviderSigningIn: "Signing in with {provider}"
        case .namedProviderFailed: "{provider} sign-in failed. Please try again."
        case .namedProviderLinkRequired: "An account with this email already exists. Sign in with your password, then link {provider}."
        case .namedLinkProvider: "Link {provider}"
        case .namedUnlinkProvider: "Unlink {provider}"
        case .providersTitle: "Connected accounts"
        default: selfServiceDefaultText
        }
    }
}
