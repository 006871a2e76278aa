import Foundation

/// Everything the second step of signing in shows (issue 37): the code field (or the recovery
/// code's), its error and tries left, a banner, and the other ways to answer.
public struct SecondFactorState: Equatable, Sendable {
    /// What the field takes.
    public enum Mode: Equatable, Sendable {
        /// A 6-digit code from the authenticator app; it submits itself when whole.
        case authenticatorCode
        /// One of the account's recovery codes.
        case recoveryCode
    }

    public var mode: Mode = .authenticatorCode
    public var code: String = ""
    /// The message under the field (a wrong code, with the tries left).
    public var codeError: String?
    /// A message about the request (a limit, the network) or the end of the challenge.
    public var banner: String?
    /// Tries the challenge has left, once the server has said.
    public var attemptsLeft: Int?
    public var isVerifying: Bool = false
    /// How the answer being verified was given (`totp`, `recovery_code`, `passkey`).
    public var answeredWith: String?
    /// Whether "Verify" can be pressed.
    public var isVerifyEnabled: Bool = false
    /// Five wrong answers ended the challenge: only signing in again helps.
    public var isEnded: Bool = false
    /// Whether "Use a recovery code instead" is offered.
    public var offersRecoveryCodes: Bool
    /// Whether "Use a passkey" is offered (the account has one, and the device can use it).
    public var offersPasskey: Bool

    public init(offersRecoveryCodes: Bool = true, offersPasskey: Bool = false) {
        self.offersRecoveryCodes = offersRecoveryCodes
        self.offersPasskey = offersPasskey
    }
}

/// What happens on the second step.
public enum SecondFactorEvent: Equatable, Sendable {
    case appeared
    case codeChanged(String)
    case submit
    case useRecoveryCode
    case useAuthenticatorCode
    case usePasskey
    case verifyResponse(Result<LoginSuccess, AuthFailure>)
}

/// What the host does for the second step.
public enum SecondFactorEffect: Equatable, Sendable, TrackableEffect {
    /// An answer to send: the challenge is the host's (it holds the session).
    public enum Answer: Equatable, Sendable {
        case authenticatorCode(String)
        case recoveryCode(String)
    }

    case focusCode
    case announce(String)
    case shake
    case verify(Answer)
    /// Ask the platform for a passkey assertion and send it as the step up.
    case assertPasskey
    case storeSession(LoginSuccess)
    case navigateHome
    case track(AnalyticsEvent)

    public var tracked: AnalyticsEvent? {
        if case .track(let event) = self { event } else { nil }
    }
}
