import Foundation

/// One analytics event a screen reports, with seed 004's names and parameters
/// (`Analytics.logEvent("login_otp_requested", parameters: ["phone_country_code": "+91"])`).
///
/// Machines return it as ``AnalyticsEvent`` data in a `.track` effect; the host hands it to
/// its analytics (the web page pushes `{event: name, ...parameters}` to `window.dataLayer`, the
/// SDK yields it on an `AsyncStream`). No event carries personal data: no phone number, email
/// or name, only codes such as a country's calling code or an error's kind.
public struct AnalyticsEvent: Equatable, Sendable, Codable {
    public let name: String
    public let parameters: [String: AnalyticsValue]

    public init(_ name: String, _ parameters: [String: AnalyticsValue] = [:]) {
        self.name = name
        self.parameters = parameters
    }
}

/// A parameter's value: text, a flag or a whole number, as analytics SDKs take them.
public enum AnalyticsValue: Equatable, Sendable, Codable {
    case text(String)
    case flag(Bool)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) { self = .flag(flag) } else { self = .text(try container.decode(String.self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .flag(let flag): try container.encode(flag)
        }
    }
}

extension AnalyticsEvent {
    /// `screen_view {screen_name}`: `login`, `register`, `otp`, `signup`, `biometric_prompt`.
    public static func screenView(_ screen: String) -> Self { Self("screen_view", ["screen_name": .text(screen)]) }

    // Seed 004's phone screen.
    public static let loginPhoneStarted = Self("login_phone_started")
    public static func loginOTPRequested(countryCode: String) -> Self { Self("login_otp_requested", ["phone_country_code": .text(countryCode)]) }
    public static let loginOTPSuccess = Self("login_otp_success")
    public static func loginOTPFailed(_ failure: AuthFailure) -> Self { Self("login_otp_failed", ["error": .text(failure.analyticsError)]) }
    public static let loginCreateAccountTapped = Self("login_create_account_tapped")

    // Seed 004's Google button, and any provider's.
    public static let loginGoogleStarted = Self("login_google_started")
    public static func loginGoogleSuccess(isNewUser: Bool) -> Self { Self("login_google_success", ["is_new_user": .flag(isNewUser)]) }
    public static let loginGoogleCancelled = Self("login_google_cancelled")
    public static func loginGoogleFailed(_ failure: AuthFailure) -> Self { Self("login_google_failed", ["error": .text(failure.analyticsError)]) }
    public static func loginProviderStarted(_ provider: SignInMethods.Method) -> Self {
        Self("login_provider_started", ["provider": .text(provider.rawValue)])
    }
    public static func loginProviderSuccess(_ provider: SignInMethods.Method, isNewUser: Bool) -> Self {
        Self("login_provider_success", ["provider": .text(provider.rawValue), "is_new_user": .flag(isNewUser)])
    }
    public static func loginProviderCancelled(_ provider: SignInMethods.Method) -> Self {
        Self("login_provider_cancelled", ["provider": .text(provider.rawValue)])
    }
    public static func loginProviderFailed(_ provider: SignInMethods.Method, _ failure: AuthFailure) -> Self {
        Self("login_provider_failed", ["provider": .text(provider.rawValue), "error": .text(failure.analyticsError)])
    }

    // The equivalents for the email screen.
    public static let loginEmailStarted = Self("login_email_started")
    public static let loginEmailSubmitted = Self("login_email_submitted")
    public static let loginEmailSuccess = Self("login_email_success")
    public static func loginEmailFailed(_ failure: AuthFailure) -> Self { Self("login_email_failed", ["error": .text(failure.analyticsError)]) }

    // The code screen.
    public static let loginOTPVerified = Self("login_otp_verified")
    public static func loginOTPVerifyFailed(_ failure: AuthFailure) -> Self { Self("login_otp_verify_failed", ["error": .text(failure.analyticsError)]) }

    // Sign-up.
    public static let signUpSubmitted = Self("signup_submitted")
    public static let signUpSuccess = Self("signup_success")
    public static func signUpFailed(_ failure: AuthFailure) -> Self { Self("signup_failed", ["error": .text(failure.analyticsError)]) }

    // Passkeys: seed 003's offer and the biometric prompt.
    public static let biometricOfferShown = Self("biometric_offer_shown")
    public static let biometricOfferAccepted = Self("biometric_offer_accepted")
    public static let biometricOfferDeclined = Self("biometric_offer_declined")
    public static let biometricEnabled = Self("biometric_enabled")
    public static let loginPasskeyStarted = Self("login_passkey_started")
    public static let loginPasskeySuccess = Self("login_passkey_success")
    public static let loginPasskeyCancelled = Self("login_passkey_cancelled")
    public static func loginPasskeyFailed(_ failure: AuthFailure) -> Self { Self("login_passkey_failed", ["error": .text(failure.analyticsError)]) }
}

extension AuthFailure {
    /// The failure's kind as analytics reports it (seed 004: `account_not_found`, `network_error`):
    /// a fixed word, never a message.
    public var analyticsError: String {
        switch self {
        case .invalidCredentials: "invalid_credentials"
        case .networkUnavailable, .timeout: "network_error"
        case .serverError: "server_error"
        case .accountLocked: "account_locked"
        case .emailNotVerified: "email_not_verified"
        case .emailVerifiedSignIn: "email_verified_sign_in"
        case .rateLimited, .resendTooSoon: "rate_limited"
        case .sessionExpired: "session_expired"
        case .invalidPhone: "invalid_phone"
        case .accountNotFound: "account_not_found"
        case .phoneTaken: "phone_taken"
        case .smsUnavailable: "sms_unavailable"
        case .codeIncorrect: "code_incorrect"
        case .codeExpired: "code_expired"
        case .codeAttemptsExceeded: "code_attempts_exceeded"
        case .providerCancelled: "cancelled"
        case .providerFailed, .providerCodeRejected: "provider_failed"
        case .providerLinkRequired: "link_required"
        case .passwordRejected: "password_rejected"
        case .linkExpired: "link_expired"
        case .passkeyCancelled: "cancelled"
        case .passkeyFailed: "passkey_failed"
        case .passkeyUnknown: "passkey_unknown"
        }
    }
}

/// An effect that may be an analytics report: hosts collect ``tracked`` from every effect list.
public protocol TrackableEffect: Equatable, Sendable {
    /// The event this effect reports, if it is a `.track` effect.
    var tracked: AnalyticsEvent? { get }
}

extension Array where Element: TrackableEffect {
    /// The analytics events among these effects, in order.
    public var trackedEvents: [AnalyticsEvent] { compactMap(\.tracked) }
}

extension LoginEffect: TrackableEffect {
    public var tracked: AnalyticsEvent? { if case .track(let event) = self { event } else { nil } }
}

extension PhoneSignInEffect: TrackableEffect {
    public var tracked: AnalyticsEvent? { if case .track(let event) = self { event } else { nil } }
}

extension CodeEntryEffect: TrackableEffect {
    public var tracked: AnalyticsEvent? { if case .track(let event) = self { event } else { nil } }
}

extension ProviderButtonEffect: TrackableEffect {
    public var tracked: AnalyticsEvent? { if case .track(let event) = self { event } else { nil } }
}

extension SignUpEffect: TrackableEffect {
    public var tracked: AnalyticsEvent? { if case .track(let event) = self { event } else { nil } }
}

extension PasskeySignInEffect: TrackableEffect {
    public var tracked: AnalyticsEvent? { if case .track(let event) = self { event } else { nil } }
}

extension BiometricOfferEffect: TrackableEffect {
    public var tracked: AnalyticsEvent? { if case .track(let event) = self { event } else { nil } }
}
