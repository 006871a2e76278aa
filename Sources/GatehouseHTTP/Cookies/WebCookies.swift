import Crypto
import Foundation
import GatehouseCore
import Hummingbird

/// The web screen's cookies: the session and the CSRF token, both `__Host-`, HttpOnly, Secure
/// and SameSite=Strict, so no script, no other site and no subdomain can read or send them.
package enum WebCookies {
    package static let session = "__Host-gatehouse-session"
    package static let csrf = "__Host-gatehouse-csrf"
    /// A device token: this browser signed in to the account before (see ``AbusePolicy``).
    package static let device = "__Host-gatehouse-device"
    /// The browser's sign-up binding, for the verification link to sign in only here.
    package static let signUp = "__Host-gatehouse-signup"
    /// Set by signing out, cleared by signing in: the login page then starts no biometric prompt.
    package static let signedOut = "__Host-gatehouse-signed-out"
    /// The verification id of the code this browser is entering (phone sign-in).
    package static let phoneCode = "__Host-gatehouse-otp"

    package static func cookie(_ name: String, _ value: String, maxAge: Int? = nil) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/", secure: true, httpOnly: true, sameSite: .strict)
    }

    package static func expired(_ name: String) -> Cookie {
        cookie(name, "", maxAge: 0)
    }

    /// Sets the cookies of a signed-in browser: the web session and the device token.
    ///
    /// The session cookie outlives the session by a day: the server refuses it once the session
    /// ends, but can still tell the user why (seed 003's expired-session message).
    package static func setSignedIn(_ response: inout Response, sessionID: String, deviceToken: String, settings: AuthSettings) {
        response.setCookie(cookie(session, sessionID, maxAge: settings.webSessionLifetime + 24 * 3600))
        response.setCookie(cookie(device, deviceToken, maxAge: Int(settings.abuse.deviceTokenLifetime)))
        response.setCookie(expired(signedOut))
    }

    /// A fresh random CSRF token.
    package static func newToken() -> String {
        SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.base64URLEncoded()
    }

    /// Whether the form's token matches the cookie's, compared in constant time.
    package static func csrfMatches(_ request: Request, formToken: String?) -> Bool {
        guard let expected = request.cookies[csrf]?.value, let formToken, !expected.isEmpty else { return false }
        return ConstantTime.equal(expected, formToken)
    }
}
