import GatehouseHTTP
import Hummingbird

/// What a browser keeps of seed 003's offer: not secrets, but HttpOnly like every cookie here,
/// since only the server reads them.
enum PasskeyCookies {
    /// This device accepted the offer (or signed in with a passkey): `/login` shows the biometric prompt.
    static let enrolled = "__Host-gatehouse-passkey"
    /// "Not now" on this device: the offer is not shown again.
    static let declined = "__Host-gatehouse-passkey-declined"
    /// The last sign-in here was with a password, within 10 minutes: Home may offer.
    static let afterPassword = "__Host-gatehouse-after-password"

    static let year = 365 * 24 * 3600

    static func isSet(_ name: String, in request: Request) -> Bool {
        request.cookies[name]?.value == "1"
    }

    static func set(_ name: String, on response: inout Response, maxAge: Int = year) {
        response.setCookie(WebCookies.cookie(name, "1", maxAge: maxAge))
    }
}
