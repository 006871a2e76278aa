import GatehouseCore
import GatehouseDelivery
import GatehouseOIDC
import GatehouseQRCode
import GatehousePhoneNumbers
import Logging

/// Every repository the server runs on, as one requirement: the SQL adapter is one, a test double may be another.
public typealias GatehouseRepository = UserRepository & SessionRepository & ThrottleRepository & SecretRepository & AuditRepository
    & SigningKeyRepository & PhoneCodeRepository & OIDCFlowRepository & OneTimeSecretRepository & PasskeyRepository
    & FactorRepository & FactorChallengeRepository & ProviderGrantRepository & OutboxRepository & StorageAffinity

extension GatehouseServices {
    /// The pipeline and the services a configuration enables, with the key ring the JWKS route
    /// publishes and the hasher operators' passwords share.
    struct Composition {
        let services: GatehouseServices
        let keys: KeyRing
        let hasher: PasswordHasher
        /// Where events go: the caller's sinks and the security notices.
        let events: (any EventSink)?
        /// Where mail, SMS and audit batches wait to be sent, for the worker the application runs.
        let outbox: MessageOutbox
    }

    /// Builds keys, tokens and hashing, then each feature service only when its settings are
    /// present, and registers each one's verifier with the one pipeline.
    static func compose(
        _ configuration: GatehouseConfiguration, repository: some GatehouseRepository, deliveries: DeliveryQueue?, logger: Logger
    ) async throws -> Composition {
        let location = try DatabaseLocation(configuration.databasePath)
        let kek = try KeyEncryptionKey.resolve(configuration.keyEncryptionKey, location: location)
        let keys = KeyRing(
            repository: repository, kek: kek,
            refreshInterval: .milliseconds(Int64(configuration.signingKeyRefreshInterval * 1000))
        )
        try await keys.start(legacyKeyFile: configuration.legacySigningKeyPath, now: configuration.clock())
        let tokens = TokenIssuer(
            keys: keys, issuer: configuration.issuer, audience: configuration.audience, lifetime: configuration.accessTokenLifetime
        )
        let accountKeys = try await AccountKeys.open(repository)
        let hasher = PasswordHasher(parameters: configuration.argon2, pool: HashingPool.shared(configuration.hashing))
        let publicURL = configuration.resolvedPublicURL
        // Mail exists when a sender is configured or the app needs it (then `serve` refuses to
        // start without a sender, so no mail is ever silently lost).
        let mailSender = try configuration.email.makeSender(logger: logger)
        let outbox = MessageOutbox(
            repository: repository, kek: kek, policy: configuration.outbox, deliveries: deliveries, clock: configuration.clock, logger: logger
        )
        if let exports = try AuditLog.exports(configuration, throttles: repository, references: accountKeys, logger: logger) {
            outbox.register(exports)
        }
        var mail = mailSender == nil && !configuration.sendsMail ? nil : try await AccountMailer.open(
            repository, references: accountKeys, sender: mailSender, outbox: outbox, policy: configuration.mailPolicy,
            login: configuration.login, publicURL: publicURL, logger: logger
        )
        mail?.dispatch.events = configuration.events
        // Security notices hear the same events as the audit log.
        let seen = configuration.notifications.newDevice ? NewDeviceCheck(audit: repository, sessions: repository) : nil
        let notices = mail.map { SecurityNotices(users: repository, mail: $0, history: seen) as any EventSink }
        let sinks = [configuration.events, notices].compactMap { $0 }
        let events = sinks.count > 1 ? EventFanOut(sinks) : sinks.first
        let context = try await ServiceContext(
            repository: repository, hasher: hasher, keys: accountKeys, settings: configuration.authSettings,
            breached: try configuration.breachedPasswordURL.map { try RangeBreachedPasswords(url: $0) }, events: events,
            logger: logger
        )
        let phone = try await configuration.phone.asyncMap { policy in
            var issuer = try await PhoneCodeIssuer.open(
                repository, numbers: LibPhoneNumber(), references: accountKeys, sender: try configuration.sms.makeSender(logger: logger),
                outbox: outbox, policy: policy, logger: logger
            )
            issuer.dispatch.events = configuration.events
            return PhoneCodes(context: context, issuer: issuer)
        }
        // Listed but not configured yet (an example app file): said once, and no button shows.
        for id in configuration.signInMethods.providers where !configuration.providers.contains(where: { $0.id == id }) {
            logger.notice("A listed provider is not configured; its button is hidden", metadata: ["provider": "\(id.rawValue)"])
        }
        var registry: [ConfiguredProvider] = []
        for settings in configuration.providers {
            let adapter = try await ProviderAdapters.make(settings, logger: logger)
            registry.append(try await ConfiguredProvider.open(settings, provider: adapter, secrets: repository, publicURL: publicURL))
        }
        let providers = registry.isEmpty ? nil : ProviderSignIn(
            context: context, providers: registry, flows: repository, throttles: repository, grants: repository, kek: kek
        )
        let passkeys = RelyingParty(publicURL: publicURL, name: configuration.login.appName, extraOrigins: configuration.passkeyOrigins)
            .map { PasskeyService(context: context, store: PasskeyStore(party: $0, repository: repository)) }
        let accounts = EmailAccounts(context: context, mail: mail, recovery: [passkeys].compactMap { $0 })
        let factors = configuration.mfa.map { policy in
            SecondFactors(
                context: context, factors: repository, kek: kek,
                policy: policy, qrCodes: LibQREncode(), mail: mail
            )
        }
        let guests = configuration.signInMethods.offers(.anonymous)
            ? GuestAccounts(context: context, throttles: repository, perAddressPerHour: configuration.abuse.guestsPerAddressPerHour) : nil
        var verifiers: [any GrantVerifier] = [accounts]
        if let guests { verifiers.append(guests) }
        if let phone { verifiers.append(phone) }
        if let providers { verifiers.append(providers) }
        if let passkeys { verifiers.append(passkeys) }
        if let factors { verifiers.append(factors) }
        let services = GatehouseServices(
            pipeline: SignInPipeline(
                context: context, tokens: tokens, verifiers: verifiers,
                pending: mail != nil && configuration.accounts.requireVerifiedEmail ? accounts : nil
            ), accounts: accounts,
            profiles: Profiles(context: context), devices: Devices(context: context), phone: phone, passkeys: passkeys,
            providers: providers, factors: factors,
            deletion: AccountDeletion(context: context, mail: mail) { user in try await providers?.revokeGrants(userID: user.id) },
            emailChange: mail.map { EmailChange(context: context, mail: $0) }, guests: guests
        )
        return Composition(services: services, keys: keys, hasher: hasher, events: events, outbox: outbox)
    }
}

extension Optional {
    /// The value transformed by an async function, or `nil`.
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async throws -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
