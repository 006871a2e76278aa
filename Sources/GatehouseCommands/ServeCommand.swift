import ArgumentParser
import Foundation
import GatehouseCore
import GatehouseDelivery
import GatehouseServer
import Hummingbird
import Logging
import LoginCore

/// `gatehouse serve`: runs the auth server.
///
/// The same command is the whole of `gatehouse-server`, a binary that holds the server and no
/// HTTP client stack; `gatehouse serve` hands over to it when it is installed beside `gatehouse`.
public struct ServeCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the auth server.")

    public init() {}

    static let demoEmail = "user@example.com"
    static let demoPassword = "password123"
    static let demoPhone = "+919876543210"
    static let demoOutbox = "gatehouse-sms-outbox.jsonl"

    @Option(help: "The address to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port: Int = 8080

    @OptionGroup var storage: DatabaseOptions

    @Option(help: "An app configuration (examples/…/gatehouse.json): the login screen's rules and copy.")
    var config: String?

    @Option(help: "Serve the Supabase Auth subset under /auth/v1 for clients sending this anon key (overrides the config's backend.anonKey).")
    var anonKey: String?

    @Option(help: "Seconds an access token lives (seed 000: 900).")
    var accessTokenLifetime: Int = 15 * 60

    @Option(help: "Seconds a session lives from sign-in, however often it refreshes (seed 000: 7 days).")
    var sessionLifetime: Int = 7 * 24 * 3600

    @Option(help: "Seconds a rotated refresh token still yields its successor; reuse after that ends the session.")
    var refreshGrace: Int = 10

    @Option(help: "Seconds a web (browser) session lives from sign-in (default 12 hours).")
    var webSessionLifetime: Int = GatehouseConfiguration().webSessionLifetime

    @Option(help: "Seconds a web session may go unused before it ends (default 30 minutes).")
    var webIdleTimeout: Int = GatehouseConfiguration().webSessionIdleTimeout

    @OptionGroup var abuse: AbuseOptions

    @OptionGroup(title: "Phone sign-in") var phone: PhoneOptions

    @OptionGroup(title: "SMS gateways") var smsGateway: SMSGatewayOptions

    @OptionGroup(title: "Sign in with Google") var google: GoogleOptions

    @OptionGroup(title: "Account mail") var email: EmailOptions

    @OptionGroup var connections: ConnectionOptions

    @OptionGroup(title: "Operations") var operations: OperationsOptions

    @Option(help: "An origin besides --public-url's where passkeys may be used, such as android:apk-key-hash:… for an Android app (repeatable).")
    var passkeyOrigin: [String] = []

    @OptionGroup var kek: KeyEncryptionOptions

    @Option(help: "Seconds between re-reads of the shared signing keys (default 5).")
    var signingKeyRefresh: Double = GatehouseConfiguration().signingKeyRefreshInterval

    @Option(help: "Append each SMS as a JSON line to this file (development; --demo's default with phone sign-in is ./gatehouse-sms-outbox.jsonl).")
    var smsOutbox: String?

    @Flag(help: "Do not migrate the schema on start (a deploy step runs `gatehouse migrate`); refuse to start if it is not current.")
    var noMigrate = false

    @Flag(help: "Create the demo account user@example.com / password123 if it does not exist; an existing one is left as it is.")
    var demo = false

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    public func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535, not \(port)") }
        guard !host.isEmpty else { throw ValidationError("--host must not be empty") }
        guard accessTokenLifetime > 0, sessionLifetime > 0, webSessionLifetime > 0, webIdleTimeout > 0 else { throw ValidationError("lifetimes must be positive numbers of seconds") }
        guard signingKeyRefresh > 0, signingKeyRefresh.isFinite else { throw ValidationError("--signing-key-refresh must be a positive number of seconds") }
        guard refreshGrace >= 0 else { throw ValidationError("--refresh-grace must be 0 or more seconds") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level '\(logLevel)' is not a log level") }
        if case .postgres = try storage.location(), try kek.resolved() == nil {
            throw ValidationError("--database postgres://… needs GATEHOUSE_KEY_ENCRYPTION_KEY or --key-encryption-key-file (`gatehouse keys new-kek` makes one)")
        }
        if let anonKey, anonKey.isEmpty { throw ValidationError("--anon-key must not be empty") }
        if operations.metricsCollide(with: port) { throw ValidationError("--metrics-port must differ from --port") }
        if port == 0, try google.settings() != nil, google.publicUrl == nil {
            throw ValidationError("--port 0 with Google needs --public-url (the provider must know the callback's port)")
        }
        if let config, port == 0, google.publicUrl == nil,
           let app = try? AppConfiguration.load(from: URL(fileURLWithPath: config)), !app.providers.isEmpty {
            throw ValidationError("--port 0 with providers needs --public-url (each provider must know the callback's port)")
        }
        for origin in passkeyOrigin where !Self.isPasskeyOrigin(origin) {
            throw ValidationError("--passkey-origin \(origin): must be an https origin (no path) or android:apk-key-hash:<base64url>")
        }
        if smsOutbox != nil, smsGateway.delivery != nil { throw ValidationError("choose one of --sms-outbox, --sms-webhook and --sms-kannel") }
        if let config {
            guard FileManager.default.fileExists(atPath: config) else { throw ValidationError("--config \(config): no such file") }
            do {
                _ = try AppConfiguration.load(from: URL(fileURLWithPath: config))
            } catch {
                throw ValidationError("--config \(config): \(error)")
            }
        }
    }

    public func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        if demo { try await ensureDemoAccount() }
        var configuration = GatehouseConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.databasePath = storage.database
        configuration.accessTokenLifetime = accessTokenLifetime
        configuration.refreshTokenLifetime = sessionLifetime
        configuration.refreshReuseGrace = refreshGrace
        configuration.webSessionLifetime = webSessionLifetime
        configuration.webSessionIdleTimeout = webIdleTimeout
        try abuse.apply(to: &configuration)
        connections.apply(to: &configuration)
        try google.apply(to: &configuration)
        configuration.passkeyOrigins = passkeyOrigin
        configuration.keyEncryptionKey = try kek.resolved()
        configuration.migrateOnStart = !noMigrate
        configuration.signingKeyRefreshInterval = signingKeyRefresh
        if let config {
            let app = try AppConfiguration.load(from: URL(fileURLWithPath: config))
            // The app file says which ways in exist; a provider it does not list is a mistake, not a silent extra door.
            if configuration.google != nil, !app.signIn.offers(.google) {
                throw ValidationError(
                    "--config \(config): Google is configured (--google-client-id or GATEHOUSE_GOOGLE_CLIENT_IDS) but signIn.methods does not list google"
                )
            }
            if configuration.google != nil, app.providers["google"] != nil {
                throw ValidationError("--config \(config): Google is configured twice (--google-client-id and providers.google); keep one")
            }
            let fromFile: [ExternalProviderSettings]
            do {
                fromFile = try AppProviders.settings(
                    app, redirectAllowList: google.allowRedirect, folder: URL(fileURLWithPath: config).deletingLastPathComponent()
                )
            } catch let error as ExternalProviderError {
                throw ValidationError("--config \(config): \(error.description)")
            }
            // The screen's order: the flags' Google takes its place among the file's providers.
            let flagged = configuration.google
            configuration.providers = app.signIn.providers.compactMap { id in
                id == .google && flagged != nil ? flagged : fromFile.first { $0.id == id }
            }
            configuration.login = app.login
            // The logo is read from the app file's folder, whoever starts the server from where.
            if let logo = app.login.logo, !logo.path.hasPrefix("/") {
                configuration.login.logo?.path = URL(fileURLWithPath: config).deletingLastPathComponent().appendingPathComponent(logo.path).path
            }
            configuration.accounts = app.accounts
            configuration.notifications = app.notifications
            configuration.passkeys = app.passkeys
            configuration.mfa = app.mfa.map { options in
                var policy = MFAPolicy()
                policy.totp = options.totp
                policy.recoveryCodes = options.recoveryCodes
                policy.required = options.required
                return policy
            }
            configuration.supabaseAnonKey = app.backend.anonKey
            configuration.signInMethods = app.signIn
            // Phone sign-in exists only where the app file lists it: present means enabled.
            if app.signIn.offers(.phone) {
                var policy = PhonePolicy()
                phone.apply(to: &policy)
                policy.allowedRegions = app.signIn.phoneRegions
                policy.registration = app.signIn.phoneRegistration
                policy.appName = app.login.appName
                policy.originHost = host
                configuration.phone = policy
            }
        }
        // The outbox is never chosen silently: only by --sms-outbox, or by --demo.
        let outbox = smsOutbox ?? (demo && configuration.phone != nil && smsGateway.delivery == nil ? Self.demoOutbox : nil)
        if let outbox { configuration.sms = .outbox(path: outbox) }
        if let gateway = smsGateway.delivery(appName: configuration.phone?.appName ?? PhonePolicy().appName) { configuration.sms = gateway }
        // A silent check sends after the answer, so a missing sender would fail where no one sees it.
        if configuration.phone?.silentAccountCheck == true, configuration.sms == .none {
            throw ValidationError("--silent-account-check needs an SMS sender (--sms-webhook, --sms-kannel or --sms-outbox)")
        }
        if demo, configuration.phone != nil { try await ensureDemoPhoneAccount() }
        let publicHost = URL(string: configuration.resolvedPublicURL)?.host ?? host
        // WebOTP's `@host #code` line must name the host the pages are opened on.
        if configuration.publicURL != nil { configuration.phone?.originHost = publicHost }
        let wantsMail = configuration.sendsMail
        if let delivery = try email.delivery(appName: configuration.login.appName, publicHost: publicHost, demo: demo && wantsMail) {
            configuration.email = delivery
        }
        if wantsMail, configuration.email == .none {
            throw ValidationError(
                "the app file's accounts (signUp, passwordReset, requireVerifiedEmail) and emailCode need a mail sender: --smtp-url, --email-webhook or --email-outbox"
            )
        }
        configuration.breachedPasswordURL = email.breachedPasswordCheck
        configuration.mailPolicy = email.policy
        let mailDemo: String? = if case .outbox(let path) = configuration.email, demo { path } else { nil }
        if let anonKey { configuration.supabaseAnonKey = anonKey }
        operations.apply(to: &configuration)
        let demo = demo
        let host = host
        let scheme = connections.scheme
        let supabase = configuration.supabaseAnonKey != nil
        let publicURL = configuration.publicURL
        let offersPassword = configuration.signInMethods.offers(.email)
        let phoneDemo = demo && configuration.phone != nil ? outbox : nil
        let app = try await buildApplication(configuration, logger: Logger(label: "gatehouse")) { boundPort in
            Self.announce(
                url: "\(scheme)://\(host):\(boundPort)", publicURL: publicURL, demo: demo && offersPassword, supabase: supabase
            )
            if let mailDemo {
                let path = URL(fileURLWithPath: mailDemo).standardizedFileURL.path
                FileHandle.standardOutput.write(Data("Demo mail: sign-up, verification and reset mail is written to \(path)\n".utf8))
            }
            if let phoneDemo {
                let path = URL(fileURLWithPath: phoneDemo).standardizedFileURL.path
                FileHandle.standardOutput.write(Data("Demo phone: +91 98765 43210 (Demo User); codes are written to \(path)\n".utf8))
            }
            // Once the start's own work has settled (the first key read, the feeds' first polls).
            Task.detached(priority: .background) {
                try? await Task.sleep(for: .seconds(1))
                StartupPages.release()
            }
        }
        try await app.runService()
    }

    private func ensureDemoAccount() async throws {
        // The seeds' demo password is on the common list: the operator asked for it with `--demo`.
        try await storage.withAdministration(weakPasswords: true) { admin in
            // Never reset: a changed password or a lock is the operator's (`users set-password`, `users unlock`).
            guard try await !admin.list().contains(where: { $0.email == Self.demoEmail }) else { return }
            try await admin.create(email: Self.demoEmail, name: "Demo User", password: Self.demoPassword)
        }
    }

    private func ensureDemoPhoneAccount() async throws {
        try await storage.withAdministration { admin in
            do {
                try await admin.create(phone: Self.demoPhone, name: "Demo User")
            } catch AdministrationError.phoneTaken {
                // Kept as it is, like the email demo account.
            }
        }
    }

    /// The start-up banner: where it listens, the public URL people open (passkeys, mail links
    /// and SMS use it) when one is given, and the demo account only where the app signs in by
    /// password.
    private static func announce(url: String, publicURL: String?, demo: Bool, supabase: Bool) {
        var lines = ["Gatehouse is listening on \(url)"]
        let open = publicURL ?? url
        if let publicURL, publicURL != url { lines.append("Open it at \(publicURL) (its public URL: passkeys, mail links and SMS use it)") }
        lines += ["GraphQL: \(open)/graphql", "OpenAPI: \(open)/openapi.yaml"]
        if supabase { lines.append("Supabase Auth: \(open)/auth/v1 (clients send the anon key as apikey)") }
        if demo {
            lines += [
                "Demo account: \(demoEmail) / \(demoPassword)",
                "Try: curl -s -X POST \(url)/api/auth/login -H 'Content-Type: application/json' "
                    + "-d '{\"email\":\"\(demoEmail)\",\"password\":\"\(demoPassword)\"}'",
            ]
        }
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}

extension ServeCommand {
    /// An exact origin a passkey ceremony may report: `https://host[:port]`, or an Android app's key hash.
    static func isPasskeyOrigin(_ origin: String) -> Bool {
        if origin.hasPrefix("android:apk-key-hash:") {
            let hash = origin.dropFirst("android:apk-key-hash:".count)
            return !hash.isEmpty && hash.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        }
        guard let url = URL(string: origin), url.scheme == "https", url.host != nil, url.path.isEmpty, url.query == nil else { return false }
        return true
    }
}
