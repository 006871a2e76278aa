import Foundation

/// Something that happened on the phone screen or came back from the network.
public enum PhoneSignInEvent: Equatable, Sendable {
    /// The screen was shown (`screen_view`).
    case appeared
    /// The allowed regions arrived; `preferred` (a code) is selected if it is among them.
    case countriesLoaded([PhoneCountry], preferred: String?)
    /// A region was picked.
    case countrySelected(String)
    /// The number field's text changed; `caret` is where the caret is in `text` (`nil`: at the end).
    case numberChanged(String, caret: Int?)
    case nameChanged(String)
    /// "Send OTP" was pressed, or Return in the number field.
    case submit
    /// The answer to ``PhoneSignInEffect/sendCode(_:)``.
    case sendResponse(Result<PhoneCodeSent, AuthFailure>)
    /// The user came back from code entry ("Change number"): the number is editable again.
    case editNumber
    /// "Create Account" (or "Log in here" on registration) was pressed.
    case switchMode
    /// The host's clock, while a countdown runs.
    case tick(Date)
}

/// Work the phone screen asks its host to do.
public enum PhoneSignInEffect: Equatable, Sendable {
    /// Send a code and feed the answer back as ``PhoneSignInEvent/sendResponse(_:)``.
    case sendCode(PhoneCodeRequest)
    case announce(String)
    case focus(PhoneField)
    /// Shake the number field (a border flash under reduced motion): the error is the user's to fix.
    case shake
    /// Show "Sent ✓" briefly, then the code-entry screen for this code (``CodeEntryForm``).
    case showCodeEntry(PhoneCodeSent)
    /// Open the other screen (registration from sign-in, sign-in from registration),
    /// carrying the number typed so far.
    case openOtherMode(digits: String, country: String?)
    case startClock
    case stopClock
    /// Report this analytics event.
    case track(AnalyticsEvent)
}
