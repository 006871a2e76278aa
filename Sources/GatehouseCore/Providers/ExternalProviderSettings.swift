import Foundation

/// An OpenID Connect provider a server trusts for sign-in (Google, or any provider that speaks
/// OpenID Connect): `serve --google-issuer --google-client-id --google-client-secret`.
///
/// The issuer must be `https`, except on loopback, where tests run a local provider over plain
/// `http`. Client ids are every app's (web, iOS, Android): an ID token must name one of them
/// as its audience. The web flow uses the first with the client secret.
public struct ExternalProviderSettings: Sendable, Equatable {
    /// Google's issuer, the default.
    public static let googleIssuer = "https://accounts.google.com"

    public var issuer: String
    public var clientIDs: [String]
    public var clientSecret: String?
    /// When set, only accounts of this Google Workspace domain (`hd`) may sign in.
    public var hostedDomain: String?
    /// Seconds of clock difference allowed on `exp` and `iat` (at most 60).
    public var leeway: TimeInterval = 60
    /// Where the app may send people back after a flow: exact URLs; a loopback URL matches any port.
    public var redirectAllowList: [String] = []

    public init(
        issuer: String = Self.googleIssuer, clientIDs: [String], clientSecret: String? = nil, hostedDomain: String? = nil,
        leeway: TimeInterval = 60, redirectAllowList: [String] = []
    ) throws {
        guard let url = URL(string: issuer), let host = url.host, url.query == nil,
              url.scheme == "https" || (url.scheme == "http" && Self.isLoopback(host))
        else {
            throw ExternalProviderError("the issuer must be an https URL (plain http only on loopback): \(issuer)")
        }
        guard !clientIDs.isEmpty, clientIDs.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 256 }) else {
            throw ExternalProviderError("at least one client id is required")
        }
        guard (0...60).contains(leeway) else { throw ExternalProviderError("the clock leeway must be 0 to 60 seconds") }
        self.issuer = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        self.clientIDs = clientIDs
        self.clientSecret = clientSecret
        self.hostedDomain = hostedDomain
        self.leeway = leeway
        self.redirectAllowList = redirectAllowList
    }

    /// The `iss` values an ID token may carry: the issuer, and for Google its second spelling.
    package var acceptedIssuers: Set<String> {
        issuer == Self.googleIssuer ? [issuer, "accounts.google.com"] : [issuer]
    }

    /// The issuer's origin (`scheme://host[:port]`), where its sign-in page is.
    package var origin: String? {
        guard let url = URLComponents(string: issuer), let scheme = url.scheme, let host = url.host else { return nil }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }

    /// Whether `host` is a loopback address or `localhost`.
    package static func isLoopback(_ host: String) -> Bool {
        ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host.lowercased())
    }

    /// Whether an app may be sent to `target`: an exact match of the allow-list, where a loopback
    /// target matches an entry of the same scheme, host and path on any port (RFC 8252 §7.3).
    package func allowsRedirect(to target: String) -> Bool {
        guard let url = URLComponents(string: target), url.fragment == nil, let scheme = url.scheme, let host = url.host else {
            return false
        }
        return redirectAllowList.contains { entry in
            if entry == target { return true }
            guard Self.isLoopback(host), scheme == "http", let allowed = URLComponents(string: entry) else { return false }
            return allowed.scheme == scheme && allowed.host == host && allowed.path == url.path
                && (allowed.percentEncodedQuery ?? "") == (url.percentEncodedQuery ?? "")
        }
    }
}

/// A provider setting that cannot work; `serve` prints it as one line.
public struct ExternalProviderError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
