import Foundation

/// Everything the phone screen shows (seed 004), as plain values a UI binds to.
///
/// One state serves both of seed 004's phone screens: sign-in ("Welcome Back!") and
/// registration (full name, then the number). Create it with ``PhoneSignInForm/initialState(mode:)``.
public struct PhoneSignInState: Equatable, Sendable {
    /// Which of the two screens this is.
    public enum Mode: String, Equatable, Sendable {
        case signIn, register
    }

    public var mode: Mode
    /// The regions offered, the default first (from `GET /api/auth/phone/countries`).
    public var countries: [PhoneCountry] = []
    /// The selected region.
    public var country: PhoneCountry?
    /// Registration only: the full name as typed.
    public var name: String = ""
    /// The message under the name field.
    public var nameError: String?
    /// The number as shown, grouped as you type (`98765 43210`).
    public var number: String = ""
    /// The number's digits, without the dial code.
    public var digits: String = ""
    /// Where the caret goes after the last edit, in characters from the start of ``number``.
    public var caret: Int = 0
    /// Whether ``digits`` make a whole number: the checkmark shows and "Send OTP" is enabled.
    public var isNumberComplete: Bool = false
    /// The message under the number field ("Please enter a valid 10-digit mobile number").
    public var numberError: String?
    /// A message about the request, not the field (the network toast, the rate limit).
    public var banner: String?
    /// After "No account found": the "Create Account" link is emphasised.
    public var suggestsRegistration: Bool = false
    /// A request is in flight: spinner, every input disabled.
    public var isSending: Bool = false
    /// The code went out: the button says "Sent ✓" until the host moves to code entry.
    public var isSent: Bool = false
    /// Whether "Send OTP" can be pressed.
    public var isSendEnabled: Bool = false
    /// After a 429: sending stays disabled until the host's clock passes it.
    public var cooldown: LoginState.Cooldown?
    /// Whether ``cooldown`` is the resend window (a code went out moments ago) rather than a
    /// limit: the countdown then reads "Resend code in 0:33", with no error beside it.
    public var waitsForResend: Bool = false
    /// The countdown shown while ``cooldown`` lasts.
    public var retryCountdown: String?

    public init(mode: Mode = .signIn) {
        self.mode = mode
    }

    /// Whether the fields, the country picker and the links accept input.
    public var areInputsEnabled: Bool { !isSending && !isSent }
}

/// The fields of the phone screen, for focus.
public enum PhoneField: String, Equatable, Sendable, CaseIterable {
    case name, number, country
}

/// What to send to `POST /api/auth/phone/otp` (or `/register`, with a name).
public struct PhoneCodeRequest: Equatable, Sendable {
    /// E.164 (`+919876543210`).
    public var phone: String
    /// The region the number was typed in (`IN`).
    public var country: String
    /// Registration only: the new account's full name.
    public var name: String?

    public init(phone: String, country: String, name: String? = nil) {
        self.phone = phone
        self.country = country
        self.name = name
    }
}
