import Foundation

/// Everything the code-entry screen shows: the one-time code field, the masked number,
/// "Change number", the resend countdown and the tries left.
///
/// Create it with ``CodeEntryForm/begin(_:)``. Its two countdowns (resend and expiry) start as
/// the server's seconds and run on the host's clock through ``CodeEntryEvent/tick(_:)``.
public struct CodeEntryState: Equatable, Sendable {
    /// The code being entered: where it went, how long it lives, its length.
    public var sent: PhoneCodeSent
    /// The digits typed so far.
    public var code: String = ""
    /// The message under the code field (wrong code, expired, burned).
    public var codeError: String?
    /// A message about the request (network, rate limit).
    public var banner: String?
    /// Tries the code has left, once the server has said.
    public var attemptsLeft: Int?
    /// The code can no longer be used (expired or burned): only a resend helps.
    public var isExpired: Bool = false
    public var isVerifying: Bool = false
    public var isResending: Bool = false
    /// Whether "Verify" can be pressed.
    public var isVerifyEnabled: Bool = false
    /// When a resend is allowed again; `nil` once it is.
    public var resendCooldown: LoginState.Cooldown?
    /// "Resend code in 0:42" while ``resendCooldown`` runs.
    public var resendCountdown: String?
    /// A resend was refused (the window or a limit): the end of ``resendCooldown`` is announced.
    public var announcesResendReady: Bool = false
    /// When the code expires.
    public var expiry: LoginState.Cooldown?

    public init(sent: PhoneCodeSent) {
        self.sent = sent
        resendCooldown = sent.resendAfter > 0 ? .starting(seconds: sent.resendAfter) : nil
        expiry = .starting(seconds: sent.expiresIn)
    }

    /// Whether "Resend code" can be pressed.
    public var isResendEnabled: Bool { resendCooldown == nil && !isResending && !isVerifying }
    /// Whether the code field accepts input.
    public var isCodeEnabled: Bool { !isVerifying && !isExpired }
}

/// Something that happened on the code-entry screen or came back from the network.
public enum CodeEntryEvent: Equatable, Sendable {
    /// The field changed (typed, pasted, or filled by the platform's one-time-code autofill).
    case codeChanged(String)
    case submit
    case verifyResponse(Result<LoginSuccess, AuthFailure>)
    case resend
    case resendResponse(Result<PhoneCodeSent, AuthFailure>)
    case changeNumber
    /// The host's clock, once a second while a countdown runs.
    case tick(Date)
}

/// Work the code-entry screen asks its host to do.
public enum CodeEntryEffect: Equatable, Sendable {
    /// `POST /api/auth/phone/verify`; feed the answer back as ``CodeEntryEvent/verifyResponse(_:)``.
    case verify(verificationID: String, code: String)
    /// `POST /api/auth/phone/otp/resend`; answer with ``CodeEntryEvent/resendResponse(_:)``.
    case resend(verificationID: String)
    case announce(String)
    case focusCode
    case shake
    case storeSession(LoginSuccess)
    case navigateHome
    /// Back to the phone screen with the number kept (``PhoneSignInEvent/editNumber``).
    case backToNumber
    case startClock
    case stopClock
    /// Report this analytics event.
    case track(AnalyticsEvent)
}
