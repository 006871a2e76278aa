import Foundation
import GatehouseCore
import GatehouseDelivery
import GatehouseHTTP
import GraphQLSurface
import LoginCore

/// How a Gatehouse server runs: where it listens, where it stores, how long tokens live.
///
/// Every value has a working default, so `GatehouseConfiguration()` is seed 000's server on
/// `127.0.0.1:8080` with `./gatehouse.sqlite`.
public struct GatehouseConfiguration: Sendable {
    public var host: String = "127.0.0.1"
    /// The port; 0 picks a free one (tests, benchmarks).
    public var port: Int = 8080
    /// The SQLite file, `":memory:"`, or a `postgres://` URL (see ``DatabaseLocation``).
    public var databasePath: String = "gatehouse.sqlite"
    /// Whether `serve` applies pending migrations on start; off when a deploy step runs `gatehouse migrate`.
    public var migrateOnStart = true
    /// The key that seals signing keys in the database (32 bytes, base64). Required with
    /// PostgreSQL; an SQLite server without one keeps it in a file beside the database.
    public var keyEncryptionKey: String?
    /// Seconds between re-reads of the shared signing keys.
    public var signingKeyRefreshInterval: Double = 5
    /// The `iss` claim of access tokens.
    public var issuer: String = "gatehouse"
    /// The `aud` claim of access tokens.
    public var audience: String = "gatehouse"
    /// Access token lifetime in seconds (seed 000 Q2: 15 minutes).
    public var accessTokenLifetime: Int = 15 * 60
    /// Absolute session (refresh token) lifetime in seconds (seed 000 Q2: 7 days).
    public var refreshTokenLifetime: Int = 7 * 24 * 3600
    /// Absolute lifetime of a web (browser) session in seconds.
    public var webSessionLifetime: Int = 12 * 3600
    /// Seconds a web session may go unused before it ends (OWASP: 15–30 minutes).
    public var webSessionIdleTimeout: Int = 30 * 60
    /// Seconds after a rotation during which the old refresh token still yields its successor.
    public var refreshReuseGrace: Int = 10
    /// The cost of password hashes.
    public var argon2: Argon2Parameters = .owasp
    /// The login screen's rules, submit policy and copy (an `examples/` configuration).
    public var login: LoginConfiguration = .standard
    /// The anon key Supabase clients send in `apikey`; when set, the Supabase Auth (GoTrue)
    /// subset is served under `/auth/v1`.
    public var supabaseAnonKey: String?
    /// Sign-in limits and back-off.
    public var abuse = AbusePolicy()
    /// The ways in the app file lists, in the order its screen shows them.
    public var signInMethods = SignInMethods()
    /// Phone sign-in: regions, codes and their limits (seed 004); `nil` when the app does not offer it.
    public var phone: PhonePolicy?
    /// Where SMS go (`serve --sms-outbox`, …).
    public var sms = SMSDelivery.none
    /// Sign-up, password reset and verified email (the app file's `accounts`).
    public var accounts = AccountOptions()
    /// The optional security notices (the app file's `notifications`).
    public var notifications = NotificationOptions()
    /// Seed 003's biometric offer and the native apps that share passkeys (the app file's `passkeys`).
    public var passkeys = PasskeyOptions()
    /// Account mail's limits and link lifetimes.
    public var mailPolicy = MailPolicy()
    /// How the outbox retries, leases and keeps its rows (issue 40).
    public var outbox = OutboxPolicy()
    /// Where account mail goes (`serve --smtp-url`, `--email-webhook`, `--email-outbox`).
    public var email = EmailDelivery.none
    /// A k-anonymity range API of breached passwords (`--breached-password-check`), such as
    /// `https://api.pwnedpasswords.com/range/`; `nil` checks only the common-password list.
    public var breachedPasswordURL: String?
    /// The external providers for sign-in, in the screen's order: the app file's `providers`,
    /// and Google from `--google-client-id` and its options.
    public var providers: [ExternalProviderSettings] = []
    /// The address people reach this server at (`--public-url`); a provider's callback is
    /// `<public URL>/auth/<id>/callback`. Defaults to the address `serve` listens on.
    public var publicURL: String?
    /// Origins besides the public URL's that passkey ceremonies may run on (`--passkey-origin`),
    /// such as an Android app's `android:apk-key-hash:…`.
    public var passkeyOrigins: [String] = []
    /// Two-step verification (the app file's `mfa` block); `nil` when off.
    public var mfa: MFAPolicy?
    /// Proxies whose `X-Forwarded-For` is believed (`--trusted-proxy`); none by default.
    public var trustedProxies = TrustedProxies.none
    /// Idle and header timeouts and the cap on open connections.
    public var connections = ConnectionLimits()
    /// A PEM certificate chain and key; when both are set the server speaks only HTTPS and
    /// every response carries `Strict-Transport-Security`.
    public var tls: TLSFiles?
    /// How large, deep and costly a GraphQL document may be.
    public var graphQL = GraphQLLimits()
    /// Threads and queue of the password hasher.
    public var hashing = HashingLimits()
    /// Another place security events go besides the audit log (a test's recorder).
    public var events: (any EventSink)?
    /// The audit log: on by default, kept 90 days (`--audit-retention`, `--no-audit`, `--audit-webhook`).
    public var audit = AuditSettings()
    /// The key that opens Supabase's admin API under `/auth/v1/admin` (`--service-role-key`); `nil` serves none.
    public var serviceRoleKey: String?
    /// Where `/metrics` is served (`--metrics-port`); `nil` serves none.
    public var metrics: MetricsEndpoint?
    /// Whether to log each request's method, path and status.
    public var logRequests: Bool = true
    /// The clock every expiry is measured against; injected so tests can move time.
    public var clock: @Sendable () -> Date = { Date() }

    public init() {}

    /// ``publicURL``, or the listening address.
    package var resolvedPublicURL: String {
        if let publicURL { return publicURL }
        let scheme = tls == nil ? "http" : "https"
        let host = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(host):\(port)"
    }

    /// The key file an earlier release kept beside an SQLite database; imported on first start.
    package var legacySigningKeyPath: String? {
        guard case .sqlite(let path)? = try? DatabaseLocation(databasePath), path != ":memory:" else { return nil }
        return path + ".signing-key.pem"
    }
}

/// The PEM files `serve --tls-cert --tls-key` names.
public struct TLSFiles: Sendable, Equatable {
    public var certificateChainPath: String
    public var privateKeyPath: String

    public init(certificateChainPath: String, privateKeyPath: String) {
        self.certificateChainPath = certificateChainPath
        self.privateKeyPath = privateKeyPath
    }
}

extension GatehouseConfiguration {
    /// What the pipeline needs of this configuration (lifetimes, limits, methods, copy, clock).
    package var authSettings: AuthSettings {
        var settings = AuthSettings()
        settings.refreshTokenLifetime = refreshTokenLifetime
        settings.webSessionLifetime = webSessionLifetime
        settings.webSessionIdleTimeout = webSessionIdleTimeout
        settings.refreshReuseGrace = refreshReuseGrace
        settings.abuse = abuse
        settings.signInMethods = signInMethods
        settings.login = login
        settings.accounts = accounts
        settings.passkeys = passkeys
        settings.mail = mailPolicy
        settings.publicURL = resolvedPublicURL
        settings.clock = clock
        return settings
    }
}

extension GatehouseConfiguration {
    /// The `google` provider of the registry; setting it replaces or adds it (first, when new).
    public var google: ExternalProviderSettings? {
        get { providers.first { $0.id == .google } }
        set {
            let index = providers.firstIndex { $0.id == .google }
            switch (index, newValue) {
            case (let index?, let settings?): providers[index] = settings
            case (let index?, nil): providers.remove(at: index)
            case (nil, let settings?): providers.insert(settings, at: 0)
            case (nil, nil): break
            }
        }
    }
}

extension GatehouseConfiguration {
    /// Whether the app needs a mail sender: account mail (sign-up, reset, verified emails) or
    /// the mailed sign-in code.
    public var sendsMail: Bool { accounts.sendsMail || signInMethods.offers(.emailCode) }
}
