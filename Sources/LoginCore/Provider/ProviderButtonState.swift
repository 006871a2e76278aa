import Foundation

/// A "Sign in with Google" button's state: whether its flow is running and what it last said.
///
/// While ``isBusy`` the host disables every other input of the screen (seed 004: the phone
/// field and Send OTP); the button keeps its name and shows a spinner.
public struct ProviderButtonState: Equatable, Sendable {
    /// The provider's flow is running.
    public var isBusy = false
    /// A failure to show as an error (a toast or banner), or `nil`.
    public var error: String?
    /// A quiet, non-error note (UrbanNest's "Sign-in cancelled"); `nil` when the app shows none.
    public var notice: String?
    /// What a screen reader should hear now, if anything.
    public var announcement: String?

    public init() {}
}

/// Something that happened to the provider button.
public enum ProviderButtonEvent: Equatable, Sendable {
    /// The button was pressed.
    case tapped
    /// The flow ended: signed in, cancelled or failed.
    case finished(ProviderOutcome)
    /// The screen came back without an answer (the browser's back button restored the page):
    /// the button is usable again and says nothing.
    case reset
}

/// How a provider flow ended.
public enum ProviderOutcome: Equatable, Sendable {
    /// Signed in; `isNewUser` when the account was just created (seed 004: Profile Setup).
    case signedIn(isNewUser: Bool)
    /// The person closed the provider's page or declined.
    case cancelled
    case failed(AuthFailure)
}

/// Work the provider button asks its host to do.
public enum ProviderButtonEffect: Equatable, Sendable {
    /// Start the provider's flow (a browser redirect, the system's sheet) and feed the result back.
    case startFlow
    case announce(String)
    /// Leave the screen: Home, or the profile step for a new account.
    case navigate(ProviderDestination)
    /// Report this analytics event.
    case track(AnalyticsEvent)
}

/// Where a successful provider sign-in goes.
public enum ProviderDestination: Equatable, Sendable {
    case home
    case profileSetup
}
