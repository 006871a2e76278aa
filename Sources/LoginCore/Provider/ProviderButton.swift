import Foundation

/// The provider button's state machine (seeds 002 and 004): press, wait, and the outcomes
/// success, new user, cancelled, failed, invalid code and link required, each in the app's copy.
///
/// Pure: the host runs ``ProviderButtonEffect/startFlow`` and feeds the outcome back.
/// Cancelling is never an error: Peated shows nothing, UrbanNest a quiet "Sign-in cancelled"
/// (its ``MessageKey/providerCancelled`` text; empty means nothing is shown).
public struct ProviderButton: Sendable {
    public let configuration: LoginConfiguration
    /// Which provider: Google speaks the app's copy, the others the named copy.
    public let provider: ProviderDescriptor

    public init(configuration: LoginConfiguration, provider: ProviderDescriptor = .google) {
        self.configuration = configuration
        self.provider = provider
    }

    var messages: MessageCatalogue { configuration.messages }

    /// Applies an event; returns the effects for the host to run.
    public func step(_ event: ProviderButtonEvent, to state: inout ProviderButtonState) -> [ProviderButtonEffect] {
        switch event {
        case .tapped:
            guard !state.isBusy else { return [] }
            state = ProviderButtonState()
            state.isBusy = true
            let busy = provider.text(.signingIn, in: messages)
            state.announcement = busy
            return [.announce(busy), .startFlow]
        case .finished(.signedIn(let isNewUser)):
            state = ProviderButtonState()
            state.announcement = messages.text(.signedIn)
            return [.announce(messages.text(.signedIn)), .navigate(isNewUser ? .profileSetup : .home)]
        case .finished(.cancelled):
            state = ProviderButtonState()
            let notice = messages.text(.providerCancelled)
            guard !notice.isEmpty else { return [] }
            state.notice = notice
            state.announcement = notice
            return [.announce(notice)]
        case .finished(.failed(let failure)):
            state = ProviderButtonState()
            let text = failureText(failure)
            state.error = text
            state.announcement = text
            return [.announce(text)]
        case .reset:
            state = ProviderButtonState()
            return []
        }
    }

    /// A failure in the provider's words: the provider's own failure, a refused code, a needed
    /// link, or the screen's usual network and server copy.
    func failureText(_ failure: AuthFailure) -> String {
        switch failure {
        case .providerFailed, .serverError: provider.text(.failed, in: messages)
        case .providerCodeRejected, .invalidCredentials: messages.text(.providerCodeRejected)
        case .providerLinkRequired: provider.text(.linkRequired, in: messages)
        default: failure.message(in: messages)
        }
    }
}
