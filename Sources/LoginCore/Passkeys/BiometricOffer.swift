/// Seed 003's offer as a state machine: after the first email-and-password sign-in on a
/// device with a platform authenticator, Home offers Face ID or fingerprint sign-in.
///
/// The offer appears only when every condition holds (a password sign-in, no passkey yet, not
/// declined here, an authenticator present). Accepting registers a passkey; "Not now" is
/// remembered for the device. A cancelled prompt leaves the offer up, without error styling.
public struct BiometricOffer: Sendable {
    public let configuration: LoginConfiguration

    public init(configuration: LoginConfiguration = .standard) {
        self.configuration = configuration
    }

    var messages: MessageCatalogue { configuration.messages }

    /// The offer's title, text and buttons in the app's copy.
    public var title: String { messages.text(.biometricOfferTitle) }
    public var body: String { messages.text(.biometricOfferBody, ["app": configuration.appName]) }
    public var acceptLabel: String { messages.text(.biometricOfferAccept) }
    public var declineLabel: String { messages.text(.biometricOfferDecline) }

    /// Applies one event; returns the effects to run, in order.
    public func step(_ event: BiometricOfferEvent, to state: inout BiometricOfferState) -> [BiometricOfferEffect] {
        switch (event, state.phase) {
        case (.appeared(let afterPassword, let enrolledHere, let declinedHere), .hidden):
            guard afterPassword, !enrolledHere, !declinedHere else { return [] }
            state.phase = .checking
            return [.checkPlatformAuthenticator]
        case (.platformAuthenticator(let available), .checking):
            state.phase = available ? .offered : .hidden
            return available ? [.announce(title)] : []
        case (.accept, .offered):
            state.phase = .enrolling
            state.banner = nil
            state.bannerIsError = false
            return [.registerPasskey]
        case (.decline, .offered):
            state.phase = .declined
            state.banner = nil
            state.bannerIsError = false
            return [.rememberDeclined]
        case (.enrolled(.success), .enrolling):
            state.phase = .enabled
            let text = messages.text(.biometricEnabled)
            return [.rememberEnrolled, .announce(text)]
        case (.enrolled(.failure(let failure)), .enrolling):
            state.phase = .offered
            state.banner = failure.message(in: messages)
            state.bannerIsError = failure != .passkeyCancelled
            return [.announce(state.banner ?? "")]
        default:
            return []
        }
    }
}
