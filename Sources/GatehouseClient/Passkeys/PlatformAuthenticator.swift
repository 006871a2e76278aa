import GatehouseModel

/// The device's passkey authenticator (Face ID, Touch ID, a fingerprint): creates and uses
/// passkeys for the options the server sends.
///
/// ``ApplePlatformAuthenticator`` is Apple's, on AuthenticationServices; the test support
/// module has a software one (P-256 and RSA-2048) that the Linux tests drive.
public protocol PlatformAuthenticator: Sendable {
    /// Whether the device has an authenticator that verifies the user (biometrics or a passcode).
    func isAvailable() async -> Bool
    /// Creates a passkey; throws ``AuthError/passkeyCancelled`` when the person dismisses the prompt.
    func register(_ options: PasskeyCreationOptions) async throws -> PasskeyRegistrationJSON
    /// Signs the challenge with one of the device's passkeys for the relying party.
    func authenticate(_ options: PasskeyRequestOptions) async throws -> PasskeyAssertionJSON
    /// Tells the platform the server no longer knows a credential (`signalUnknownCredential`).
    func forget(credentialID: String, relyingParty: String) async
}

extension PlatformAuthenticator {
    public func forget(credentialID: String, relyingParty: String) async {}
}

/// Whether this device accepted seed 003's offer: not a secret (it says only that a passkey
/// exists here), so it lives beside the session rather than in the secure store.
public protocol PasskeyMarker: Sendable {
    func isEnrolled() async -> Bool
    func setEnrolled(_ enrolled: Bool) async
}

/// A marker that forgets when the process ends; for tests and previews.
public actor InMemoryPasskeyMarker: PasskeyMarker {
    private var enrolled: Bool

    public init(enrolled: Bool = false) {
        self.enrolled = enrolled
    }

    public func isEnrolled() -> Bool { enrolled }
    public func setEnrolled(_ enrolled: Bool) { self.enrolled = enrolled }
}

/// What a launch shows (seed 003): the biometric prompt on a device that accepted the offer,
/// else Home with a restored session, else the login form.
public enum LaunchScreen: Equatable, Sendable {
    case biometricPrompt
    case home(Session)
    case login(RestoreResult)
}
