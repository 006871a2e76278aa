/// What the login screen shows when the device may sign in with a passkey (seed 003's next launch).
public struct PasskeySignInState: Equatable, Sendable {
    public var phase: PasskeySignInPhase = .form
    /// Why the passkey did not sign in (the app's copy), shown above the password form.
    public var banner: String?
    /// Whether ``banner`` is an error (a cancelled prompt is not).
    public var bannerIsError = false

    public init() {}
}

/// Where the passkey sign-in is.
public enum PasskeySignInPhase: Equatable, Sendable {
    /// The password form (no passkey here, the person chose the password, or the passkey failed).
    case form
    /// The biometric prompt is shown instead of the form and the ceremony is running.
    case prompting
    /// Signed in: Home is next.
    case signedIn
}

/// What happens on the login screen's passkey path.
public enum PasskeySignInEvent: Equatable, Sendable {
    /// The screen opened; `enrolled` when this device accepted the offer (its marker is kept),
    /// `signedOut` when the person signed out here since their last sign-in: seed 003 prompts
    /// on launch only with a stored session, and a sign-out must stick.
    case launched(enrolled: Bool, signedOut: Bool = false)
    /// "Use password instead".
    case usePassword
    /// "Try Face ID or fingerprint again", or the email field's passkey suggestion.
    case retry
    /// The ceremony's and the server's outcome.
    case signInResponse(Result<LoginSuccess, AuthFailure>)
}

/// Work the passkey path asks its host to do.
public enum PasskeySignInEffect: Equatable, Sendable {
    /// Fetch a challenge, run the platform's prompt, and send the assertion; answer with
    /// ``PasskeySignInEvent/signInResponse(_:)``.
    case signInWithPasskey
    /// The server does not know this passkey: forget the device's marker and tell the
    /// platform (`signalUnknownCredential`).
    case forgetPasskey
    /// Go to Home.
    case showHome(LoginSuccess)
    /// Move focus to the email field (the form replaced the prompt).
    case focusEmail
    /// Have assistive technology speak this text.
    case announce(String)
    /// Report this analytics event.
    case track(AnalyticsEvent)
}
