import Foundation
import LoginCore

/// What the pipeline needs to know of the app: how long sessions live, the limits, the ways
/// in it offers and its email rule, where people reach it, and the clock.
///
/// The composition root fills it from the server's configuration. The optional features (phone
/// codes, an external provider) are not here: each is a feature service, built only when enabled.
package struct AuthSettings: Sendable {
    /// Absolute session (refresh token) lifetime in seconds.
    package var refreshTokenLifetime = 7 * 24 * 3600
    /// Absolute lifetime of a web (browser) session in seconds.
    package var webSessionLifetime = 12 * 3600
    /// Seconds a web session may go unused before it ends.
    package var webSessionIdleTimeout = 30 * 60
    /// Seconds after a rotation during which the old refresh token still yields its successor.
    package var refreshReuseGrace = 10
    /// Sign-in limits and back-off.
    package var abuse = AbusePolicy()
    /// The ways in the app offers; a grant for any other is refused on every surface.
    package var signInMethods = SignInMethods()
    /// Sign-up, password reset and whether an unverified email may sign in (the app's `accounts`).
    package var accounts = AccountOptions()
    /// Seed 003's biometric offer and the native apps sharing passkeys (the app's `passkeys`).
    package var passkeys = PasskeyOptions()
    /// How account mail is limited and how long its links live.
    package var mail = MailPolicy()
    /// The app's screen configuration: its email rule checks provider emails too.
    package var login: LoginConfiguration = .standard
    /// The address people reach the server at; return paths must stay on it.
    package var publicURL = "http://127.0.0.1:8080"
    /// The clock every expiry is measured against.
    package var clock: @Sendable () -> Date = { Date() }

    package init() {}
}
