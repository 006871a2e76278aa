import Foundation
import LoginCore

/// One provider a server trusts for sign-in: Google, Apple, GitHub, Microsoft or any OpenID
/// Connect issuer, with its client ids and what the app file says about it.
///
/// The issuer (GitHub's: its base URL) must be `https`, except on loopback, where tests run a
/// local provider over plain `http`. Client ids are every app's (web, iOS, Android): an ID token
/// must name one of them as its audience. The web flow uses the first with the client secret.
public struct ExternalProviderSettings: Sendable, Equatable {
    /// Google's issuer, the default.
    public static let googleIssuer = "https://accounts.google.com"
    /// Where Microsoft's tenants are.
    public static let microsoftAuthority = "https://login.microsoftonline.com"
    /// The tenant id every personal Microsoft account's token carries.
    public static let microsoftConsumersTenant = "9188040d-6c67-4c5b-b112-36a304b66dad"

    /// The app file's id (`google`, `acme-sso`); the button, routes and callback use it.
    public var id: SignInMethods.Method
    public var kind: ProviderKind
    /// The OpenID issuer; GitHub's base URL; Microsoft's `<authority>/<tenant>/v2.0`.
    public var issuer: String
    public var clientIDs: [String]
    public var clientSecret: String?
    /// When set, only accounts of this Google Workspace domain (`hd`) may sign in.
    public var hostedDomain: String?
    /// Seconds of clock difference allowed on `exp` and `iat` (at most 60).
    public var leeway: TimeInterval = 60
    /// Where the app may send people back after a flow: exact URLs; a loopback URL matches any port.
    public var redirectAllowList: [String] = []
    /// What the button says after "Sign in with" (the app file's `label`; else the kind's name).
    public var label: String
    /// Whether a verified email from this provider may link to an existing account.
    public var trustEmailVerified: Bool
    /// Microsoft's tenant: `common`, `organizations`, `consumers` or a tenant id.
    public var tenant: String?
    /// Apple's team key, which signs the client secret (Apple has no static secret).
    public var appleKey: AppleSigningKey?

    public init(
        id: SignInMethods.Method = .google, kind: ProviderKind = .google, issuer: String = Self.googleIssuer, clientIDs: [String],
        clientSecret: String? = nil, hostedDomain: String? = nil, leeway: TimeInterval = 60, redirectAllowList: [String] = [],
        label: String? = nil, trustEmailVerified: Bool? = nil, tenant: String? = nil
    ) throws {
        guard id.isWellFormed else { throw ExternalProviderError("a provider id is 1 to 32 lowercase letters, digits and dashes: \(id)") }
        guard let url = URL(string: issuer), let host = url.host, url.query == nil,
              url.scheme == "https" || (url.scheme == "http" && Self.isLoopback(host))
        else {
            throw ExternalProviderError("the issuer must be an https URL (plain http only on loopback): \(issuer)")
        }
        guard !clientIDs.isEmpty, clientIDs.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 256 }) else {
            throw ExternalProviderError("at least one client id is required")
        }
        guard (0...60).contains(leeway) else { throw ExternalProviderError("the clock leeway must be 0 to 60 seconds") }
        if let label, label.isEmpty || label.count > 40 { throw ExternalProviderError("a provider's label is 1 to 40 characters") }
        self.id = id
        self.kind = kind
        self.issuer = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        self.clientIDs = clientIDs
        self.clientSecret = clientSecret
        self.hostedDomain = hostedDomain
        self.leeway = leeway
        self.redirectAllowList = redirectAllowList
        self.label = label ?? (kind == .oidc ? id.rawValue : id.displayName)
        self.trustEmailVerified = trustEmailVerified ?? kind.trustsEmailByDefault
        self.tenant = tenant
    }

    /// Apple's issuer, the default for Sign in with Apple.
    public static let appleIssuer = "https://appleid.apple.com"

    /// Sign in with Apple: the web flow's Services ID, the native apps' bundle ids (every one an
    /// accepted audience), and the team key that signs the client secret.
    public static func apple(
        servicesID: String, bundleIDs: [String] = [], key: AppleSigningKey, issuer: String = appleIssuer, label: String? = nil,
        redirectAllowList: [String] = []
    ) throws -> ExternalProviderSettings {
        guard key.teamID.count == 10, key.teamID.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) else {
            throw ExternalProviderError("the Apple team id is 10 upper-case letters and digits")
        }
        guard key.keyID.count == 10, key.keyID.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) else {
            throw ExternalProviderError("the Apple key id is 10 upper-case letters and digits")
        }
        var settings = try ExternalProviderSettings(
            id: .apple, kind: .apple, issuer: issuer, clientIDs: [servicesID] + bundleIDs, redirectAllowList: redirectAllowList,
            label: label
        )
        settings.appleKey = key
        return settings
    }

    /// Microsoft Entra ID: the v2 issuer of `tenant` under `authority` (another for tests).
    public static func microsoft(
        tenant: String = "common", authority: String = microsoftAuthority, clientIDs: [String], clientSecret: String? = nil,
        label: String? = nil, trustEmailVerified: Bool? = nil, redirectAllowList: [String] = []
    ) throws -> ExternalProviderSettings {
        guard !tenant.isEmpty, tenant.count <= 64, tenant.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." }) else {
            throw ExternalProviderError("the Microsoft tenant is common, organizations, consumers or a tenant id: \(tenant)")
        }
        let base = authority.hasSuffix("/") ? String(authority.dropLast()) : authority
        return try ExternalProviderSettings(
            id: .microsoft, kind: .microsoft, issuer: "\(base)/\(tenant)/v2.0", clientIDs: clientIDs, clientSecret: clientSecret,
            redirectAllowList: redirectAllowList, label: label, trustEmailVerified: trustEmailVerified, tenant: tenant
        )
    }

    /// Who vouches for identities this provider asserts.
    package var identityProvider: IdentityProvider { kind.identityProvider(for: id) }

    /// Microsoft's rule for a token's `iss`: the discovery document's issuer, with the
    /// token's own `tid` in place of `{tenantid}` for the multi-tenant endpoints, and the tenant
    /// kind respected (`consumers` only personal accounts, `organizations` none).
    package func acceptsMicrosoftIssuer(_ iss: String, tenantID: String?, discoveredIssuer: String) -> Bool {
        guard discoveredIssuer.contains("{tenantid}") else { return iss == discoveredIssuer }
        guard let tenantID, !tenantID.isEmpty, tenantID.count <= 64,
              tenantID.allSatisfy({ $0.isHexDigit || $0 == "-" })
        else { return false }
        switch tenant {
        case "consumers": guard tenantID == Self.microsoftConsumersTenant else { return false }
        case "organizations": guard tenantID != Self.microsoftConsumersTenant else { return false }
        default: break
        }
        return iss == discoveredIssuer.replacingOccurrences(of: "{tenantid}", with: tenantID)
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

/// The `.p8` key of an Apple developer team, with which the server signs its client secret.
public struct AppleSigningKey: Sendable, Equatable {
    public var teamID: String
    public var keyID: String
    /// The key's PEM text (`-----BEGIN PRIVATE KEY-----`), read from the app file's `privateKeyFile`.
    public var privateKeyPEM: String

    public init(teamID: String, keyID: String, privateKeyPEM: String) {
        self.teamID = teamID
        self.keyID = keyID
        self.privateKeyPEM = privateKeyPEM
    }
}
