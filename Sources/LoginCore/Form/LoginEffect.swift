/// Work the login screen asks its host to do; LoginCore itself does no IO.
public enum LoginEffect: Equatable, Sendable {
    /// Send these credentials to the auth server and feed the answer back as
    /// ``LoginEvent/loginResponse(_:)``.
    case authenticate(Credentials)
    /// Have assistive technology speak this text (a live region, a VoiceOver announcement).
    case announce(String)
    /// Move input focus to this field.
    case focus(LoginField)
    /// Persist the session in secure storage (seed 000 R7).
    case storeSession(LoginSuccess)
    /// Replace the login screen with the home screen (A12).
    case navigateHome
    /// Send ``LoginEvent/tick(_:)`` now and about once a second: a countdown is running.
    case startClock
    /// The countdown is over; stop sending ticks.
    case stopClock
    /// Report this analytics event (``AnalyticsEvent``); never sent when the app turns analytics off.
    case track(AnalyticsEvent)
}
