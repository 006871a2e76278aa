import Crypto
import Foundation
import GatehouseCore
import GatehouseModel
import HTTPTypes
import Hummingbird
import LoginCore
import NIOCore
import Synchronization

/// Carries the analytics events LoginCore's machines report while a web request is handled to
/// the page the browser shows next.
///
/// Handlers hand every effect list to ``record(_:)``; ``WebAnalyticsMiddleware`` then puts the
/// events where the page's script finds them: in an HTML page at its
/// ``WebAnalytics/placeholder``, in the `Gatehouse-Analytics` header of a JSON answer, or, for a
/// redirect (or a page without the placeholder), in a short-lived cookie the next page reads.
/// The page's `analytics.js` pushes each to `window.dataLayer` as `{...parameters, event}`.
///
/// The cookie is `__Host-`, HttpOnly, and signed (HMAC-SHA256 under a key every instance
/// shares): events only this server deferred are read back, so a planted cookie reports nothing.
package enum WebAnalytics {
    /// Where a page wants its events, just before `</body>`.
    package static let placeholder = "<!--gatehouse:analytics-->"
    package static let cookie = "__Host-gatehouse-analytics"
    /// The name of the cookie's HMAC key in the database's server secrets.
    package static let keyName = "web-analytics-cookie-v1"
    package static let header = HTTPField.Name("Gatehouse-Analytics")!

    /// The events of this request (starting with those an earlier response deferred), and
    /// whether a page has shown them.
    final class Collector: Sendable {
        let events: Mutex<[AnalyticsEvent]>
        let delivered = Mutex(false)
        /// What the page's first keystroke reports (`login_phone_started`): the page's script
        /// pushes these once, since typing happens in the browser.
        let onInput = Mutex<[AnalyticsEvent]>([])

        init(deferred: [AnalyticsEvent]) {
            events = Mutex(deferred)
        }

        /// Takes every event, marking them shown.
        func take() -> [AnalyticsEvent] {
            delivered.withLock { $0 = true }
            return events.withLock { events in
                defer { events.removeAll() }
                return events
            }
        }
    }

    @TaskLocal static var collector: Collector?

    /// A web sign-in as the machines' success: the browser holds a session cookie, not
    /// tokens, so the machine's session effects are not run on the web and carry nothing.
    package static let webSignIn = LoginSuccess(
        user: SignedInUser(id: "", email: "", firstName: "", lastName: ""), tokens: SessionTokens(accessToken: "", refreshToken: "", expiresIn: 0)
    )

    /// Records the analytics reports among `effects` and returns the effects unchanged.
    @discardableResult
    package static func record<Effect: TrackableEffect>(_ effects: [Effect]) -> [Effect] {
        let events = effects.trackedEvents
        if !events.isEmpty { collector?.events.withLock { $0 += events } }
        return effects
    }

    /// The page with this request's events at its placeholder, as a JSON script element the
    /// page's `analytics.js` reads.
    package static func embed(in page: String) -> String {
        guard let collector, page.contains(placeholder) else { return page }
        var script = #"<script type="application/json" id="gatehouse-analytics">\#(json(collector.take()))</script>"#
        let onInput = collector.onInput.withLock { $0 }
        if !onInput.isEmpty { script += #"<script type="application/json" id="gatehouse-analytics-input">\#(json(onInput))</script>"# }
        return page.replacingOccurrences(of: placeholder, with: script)
    }

    /// Sets what the page's first keystroke reports, from the machine's own answer to one.
    package static func onFirstInput<Effect: TrackableEffect>(_ effects: [Effect]) {
        collector?.onInput.withLock { $0 = effects.trackedEvents }
    }

    /// Events as the page's JSON: ASCII only, `<` escaped so it cannot close the script element.
    static func json(_ events: [AnalyticsEvent]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = (try? encoder.encode(events)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        return text.unicodeScalars.map { $0 == "<" ? "\\u003c" : $0.isASCII ? String($0) : String(format: "\\u%04x", $0.value) }.joined()
    }

    /// Events a previous response deferred to this one (at most 32, from a cookie we set and
    /// signed); a cookie without our signature is nothing.
    static func deferred(in request: Request, key: SymmetricKey) -> [AnalyticsEvent] {
        guard let value = request.cookies[cookie]?.value, value.utf8.count <= 4096 else { return [] }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let data = Data(base64URLEncoded: String(parts[0])), let mac = Data(base64URLEncoded: String(parts[1])),
              HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: data, using: key),
              let events = try? JSONDecoder().decode([AnalyticsEvent].self, from: data)
        else { return [] }
        return Array(events.prefix(32))
    }

    /// The cookie's value for `events`: the JSON and its HMAC, each base64url.
    static func signed(_ events: [AnalyticsEvent], key: SymmetricKey) -> String {
        let data = (try? JSONEncoder().encode(Array(events.suffix(32)))) ?? Data()
        let mac = Data(HMAC<SHA256>.authenticationCode(for: data, using: key))
        return data.base64URLEncoded() + "." + mac.base64URLEncoded()
    }
}

/// Puts the events of ``WebAnalytics`` where the next page's script finds them.
package struct WebAnalyticsMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Signs the deferred events' cookie.
    let key: SymmetricKey

    package init(key: SymmetricKey) {
        self.key = key
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let hadCookie = request.cookies[WebAnalytics.cookie] != nil
        let collector = WebAnalytics.Collector(deferred: WebAnalytics.deferred(in: request, key: key))
        var response = try await WebAnalytics.$collector.withValue(collector) { try await next(request, context) }
        let delivered = collector.delivered.withLock { $0 }
        let events = collector.take()
        if (response.headers[.contentType] ?? "").hasPrefix("application/json") {
            if !events.isEmpty { response.headers[WebAnalytics.header] = WebAnalytics.json(events) }
            if hadCookie { response.setCookie(Self.cookie("", maxAge: 0)) }
        } else if !events.isEmpty {
            // A redirect, or a page without a place for them: the next page shows them.
            response.setCookie(Self.cookie(WebAnalytics.signed(events, key: key), maxAge: 120))
        } else if hadCookie, delivered {
            response.setCookie(Self.cookie("", maxAge: 0))
        }
        return response
    }

    private static func cookie(_ value: String, maxAge: Int) -> Cookie {
        Cookie(name: WebAnalytics.cookie, value: value, maxAge: maxAge, path: "/", secure: true, httpOnly: true, sameSite: .lax)
    }
}
