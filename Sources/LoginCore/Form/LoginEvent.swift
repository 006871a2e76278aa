import Foundation

/// Something that happened on the login screen or came back from the network.
public enum LoginEvent: Equatable, Sendable {
    /// The screen was shown (`screen_view {screen_name: "login"}`).
    case appeared
    case emailChanged(String)
    case emailBlurred
    case passwordChanged(String)
    case passwordBlurred
    case togglePasswordVisibility
    /// The field's clear button was pressed.
    case clear(LoginField)
    /// The sign-in button was pressed, or Return was pressed in the password field.
    case submit
    /// The answer to an ``LoginEffect/authenticate(_:)`` effect.
    case loginResponse(Result<LoginSuccess, AuthFailure>)
    /// A stored session could not be restored; the screen explains why (seed 003).
    case sessionEnded(AuthFailure)
    /// The host's clock: sent after ``LoginEffect/startClock`` and then about once a second
    /// until ``LoginEffect/stopClock``.
    case tick(Date)
}
