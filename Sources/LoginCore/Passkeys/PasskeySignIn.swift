/// The login screen's passkey path as a state machine (seed 003): on a device that accepted
/// the offer, the biometric prompt replaces the form and starts at once; success goes Home.
///
/// Every refusal (cancelled, unknown, tampered, expired) leaves the password form usable with
/// the app's copy; an unknown passkey also makes the device forget it.
public struct PasskeySignIn: Sendable {
    public let configuration: LoginConfiguration

    public init(configuration: LoginConfiguration = .standard) {
        self.configuration = configuration
    }

    var messages: MessageCatalogue { configuration.messages }

    /// The prompt's copy.
    public var title: String { messages.text(.biometricPromptTitle) }
    public var body: String { messages.text(.biometricPromptBody) }
    public var retryLabel: String { messages.text(.biometricPromptRetry) }
    public var usePasswordLabel: String { messages.text(.usePasswordInstead) }

    /// Applies one event; returns the effects to run, in order.
    public func step(_ event: PasskeySignInEvent, to state: inout PasskeySignInState) -> [PasskeySignInEffect] {
        switch (event, state.phase) {
        case (.launched(let enrolled, let signedOut), .form):
            guard enrolled, !signedOut else { return [] }
            state.phase = .prompting
            return [.announce(body), .signInWithPasskey]
        case (.usePassword, .prompting):
            state.phase = .form
            state.banner = nil
            state.bannerIsError = false
            return [.focusEmail]
        case (.retry, .form):
            state.phase = .prompting
            state.banner = nil
            state.bannerIsError = false
            return [.signInWithPasskey]
        case (.signInResponse(.success(let success)), .prompting):
            state.phase = .signedIn
            state.banner = nil
            state.bannerIsError = false
            return [.announce(messages.text(.signedIn)), .showHome(success)]
        case (.signInResponse(.failure(let failure)), .prompting):
            state.phase = .form
            let text = failure.message(in: messages)
            state.banner = text
            state.bannerIsError = failure != .passkeyCancelled
            let forget: [PasskeySignInEffect] = failure == .passkeyUnknown ? [.forgetPasskey] : []
            return forget + [.announce(text), .focusEmail]
        default:
            return []
        }
    }
}
