/// What Home shows of seed 003's offer: "use Face ID or your fingerprint next time".
public struct BiometricOfferState: Equatable, Sendable {
    public var phase: BiometricOfferPhase = .hidden
    /// Why the last enrolment did not finish (the app's copy); `nil` when there is nothing to say.
    public var banner: String?
    /// Whether ``banner`` is an error (a cancelled prompt is not).
    public var bannerIsError = false

    public init() {}
}

/// Where the offer is.
public enum BiometricOfferPhase: Equatable, Sendable {
    /// Not shown: not after a password sign-in, a passkey exists, the offer was declined on
    /// this device, or the device has no platform authenticator.
    case hidden
    /// Asking the device whether it has a platform authenticator that verifies the user.
    case checking
    /// The offer is on screen.
    case offered
    /// The platform's prompt is up and the passkey is being registered.
    case enrolling
    /// Done: this device signs in with Face ID or a fingerprint from now on.
    case enabled
    /// "Not now": not offered again on this device.
    case declined
}

/// What happens to the offer.
public enum BiometricOfferEvent: Equatable, Sendable {
    /// Home appeared after a sign-in.
    /// - Parameters:
    ///   - afterPassword: the sign-in was with email and password (seed 003's trigger).
    ///   - enrolledHere: this device already signs in with a passkey (seed 003 offers per device: a passkey on another device does not stop the offer here).
    ///   - declinedHere: "Not now" was chosen on this device before.
    case appeared(afterPassword: Bool, enrolledHere: Bool, declinedHere: Bool)
    /// The device's answer to `isUserVerifyingPlatformAuthenticatorAvailable()`.
    case platformAuthenticator(available: Bool)
    case accept
    case decline
    /// The registration's outcome.
    case enrolled(Result<Bool, AuthFailure>)
}

/// Work the offer asks its host to do.
public enum BiometricOfferEffect: Equatable, Sendable {
    /// Ask the platform whether a user-verifying authenticator exists; answer with ``BiometricOfferEvent/platformAuthenticator(available:)``.
    case checkPlatformAuthenticator
    /// Register a passkey on the platform authenticator; answer with ``BiometricOfferEvent/enrolled(_:)``.
    case registerPasskey
    /// Keep "declined" for this device.
    case rememberDeclined
    /// Keep "enrolled" for this device, so the next launch shows the biometric prompt.
    case rememberEnrolled
    /// Have assistive technology speak this text.
    case announce(String)
    /// Report this analytics event.
    case track(AnalyticsEvent)
}
