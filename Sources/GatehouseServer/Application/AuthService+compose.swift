import GatehouseCore
import GatehouseDelivery
import GatehouseOIDC
import GatehousePhoneNumbers
import Logging

/// Every repository the server runs on, as one requirement: the SQL adapter is one, a test double may be another.
public typealias GatehouseRepository = UserRepository & SessionRepository & ThrottleRepository & SecretRepository
    & SigningKeyRepository & PhoneCodeRepository & OIDCFlowRepository & OneTimeSecretRepository & PasskeyRepository

extension AuthService {
    /// The pipeline for a configuration: keys, tokens and hashing, and each optional feature
    /// (phone codes, an external provider) built only when its settings are present.
    /// - Returns: the service, and the key ring the JWKS route publishes.
    static func compose(
        _ configuration: GatehouseConfiguration, repository: some GatehouseRepository, deliveries: DeliveryQueue?, logger: Logger
    ) async throws -> (AuthService, KeyRing) {
        let location = try DatabaseLocation(configuration.databasePath)
        let keys = KeyRing(
            repository: repository, kek: try KeyEncryptionKey.resolve(configuration.keyEncryptionKey, location: location),
            refreshInterval: .milliseconds(Int64(configuration.signingKeyRefreshInterval * 1000))
        )
        try await keys.start(legacyKeyFile: configuration.legacySigningKeyPath, now: configuration.clock())
        let tokens = TokenIssuer(
            keys: keys, issuer: configuration.issuer, audience: configuration.audience, lifetime: configuration.accessTokenLifetime
        )
        let accountKeys = try await AccountKeys.open(repository)
        let phone = try await configuration.phone.asyncMap { policy in
            var issuer = try await PhoneCodeIssuer.open(
                repository, numbers: LibPhoneNumber(), references: accountKeys, sender: try configuration.sms.makeSender(logger: logger),
                deliveries: deliveries, policy: policy, logger: logger
            )
            issuer.events = configuration.events
            return issuer
        }
        let publicURL = configuration.resolvedPublicURL
        let google = try await configuration.google.asyncMap { settings in
            try await ProviderSignIn.open(
                settings, provider: OpenIDConnectProvider(settings: settings, logger: logger), secrets: repository, publicURL: publicURL
            )
        }
        // Mail exists when a sender is configured or the app needs it (then `serve` refuses to
        // start without a sender, so no mail is ever silently lost).
        let mailSender = try configuration.email.makeSender(logger: logger)
        var mail = mailSender == nil && !configuration.accounts.sendsMail ? nil : try await AccountMailer.open(
            repository, references: accountKeys, sender: mailSender, deliveries: deliveries, policy: configuration.mailPolicy,
            login: configuration.login, publicURL: publicURL, logger: logger
        )
        mail?.events = configuration.events
        let passkeys = RelyingParty(publicURL: publicURL, name: configuration.login.appName, extraOrigins: configuration.passkeyOrigins)
            .map { PasskeyStore(party: $0, repository: repository) }
        let breached = try configuration.breachedPasswordURL.map { try RangeBreachedPasswords(url: $0) }
        let service = try await AuthService(
            repository: repository,
            hasher: PasswordHasher(parameters: configuration.argon2, pool: HashingPool.shared(configuration.hashing)),
            tokens: tokens, keys: accountKeys, settings: configuration.authSettings, phone: phone, google: google, mail: mail,
            breached: breached, passkeys: passkeys, events: configuration.events, logger: logger
        )
        return (service, keys)
    }
}

extension Optional {
    /// The value transformed by an async function, or `nil`.
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async throws -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
