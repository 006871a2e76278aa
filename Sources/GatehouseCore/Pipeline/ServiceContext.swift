import Foundation
import GatehouseModel
import Logging

/// What the sign-in pipeline and the feature services share: the accounts and sessions they
/// work on, hashing, limits, the app's settings, the event sink and the clock.
///
/// The composition root makes one and hands it to the pipeline and to each service it builds.
/// Its parts are internal to the core, so no surface can reach a repository through it. A
/// class, so the pipeline and every service share one, and a request copies a reference, not
/// a dozen fields (the benchmark measured the struct's copies: 7 % fewer refreshes per CPU-second).
package final class ServiceContext: Sendable {
    let users: any UserRepository
    let sessions: any SessionRepository
    /// Second factors, for the step-up rule every sensitive action applies.
    let factors: any FactorRepository & FactorChallengeRepository
    let hasher: PasswordHasher
    let limiter: AttemptLimiter
    let settings: AuthSettings
    /// The rules every new password meets.
    let passwords: PasswordPolicy
    /// Where security events go (the audit log); `nil` reports nothing.
    let events: (any EventSink)?
    /// What an unknown account's password is checked against, so it costs the same time.
    let dummyHash: String
    let logger: Logger
    /// Where a sign-in's run of storage calls costs least.
    let storage: any StorageAffinity

    /// The shared parts over one repository.
    /// - Parameters:
    ///   - keys: the keyed references limits count by (see ``AccountKeys/open(_:)``).
    ///   - breached: the breached-password range API, if one is configured.
    package init(
        repository: some UserRepository & SessionRepository & ThrottleRepository & FactorRepository & FactorChallengeRepository & StorageAffinity,
        hasher: PasswordHasher, keys: AccountKeys,
        settings: AuthSettings, breached: (any BreachedPasswords)? = nil, events: (any EventSink)? = nil, logger: Logger
    ) async throws {
        users = repository
        sessions = repository
        factors = repository
        storage = repository
        self.hasher = hasher
        self.settings = settings
        self.events = events
        self.logger = logger
        passwords = PasswordPolicy(
            minimumLength: settings.accounts.passwordMinimumLength, breached: breached, messages: settings.login.messages
        )
        var limiter = AttemptLimiter(throttles: repository, policy: settings.abuse, keys: keys, logger: logger)
        limiter.events = events
        self.limiter = limiter
        dummyHash = try await hasher.hash(RefreshToken.generate())
    }

    var now: Date { settings.clock() }

    /// Runs a short piece of work that makes several storage calls where they cost least
    /// (``StorageAffinity``).
    func nearStorage<T>(_ work: () async throws -> T) async throws -> T {
        try await storage.nearStorage(work)
    }

    /// Runs a sign-in that hashes a password: wholly on a hashing thread where the storage's
    /// statements can run there too, else as ``nearStorage(_:)``.
    ///
    /// On two cores this lifted logins at 2 connections from 0.77–0.82 to 0.79–0.89 of the
    /// two-thread argon2id bound, alternating (issue 41): the sign-in no longer waits for four
    /// thread wake-ups around its hash, nor queues on the one connection's thread behind the other's.
    /// With the hashing queue full it goes the usual way, so its limits answer first and the
    /// hasher refuses it as before. A request the HTTP server already answers from a hashing
    /// thread (``hashingThreads``) runs in place.
    func nearStorage<T>(hashing: Bool, _ work: () async throws -> T) async throws -> T {
        if hashing, let pool = hashingThreads, pool.isCurrent || pool.hasRoom { return try await pool.runHere(work) }
        return try await storage.nearStorage(work)
    }

    /// The hashing threads a password sign-in runs on from start to finish, when the storage's
    /// statements run there too (an SQLite file); `nil` otherwise.
    var hashingThreads: HashingPool? { storage.runsBesideHashing ? hasher.pool : nil }

    /// Hands an event to the sink with the time it happened.
    func report(_ event: SecurityEvent, address: String?, device: String?) {
        events?.record(event, at: now, address: address, device: device)
    }

    /// Hands an event about a client's request to the sink.
    func report(_ event: SecurityEvent, client: ClientInfo) {
        report(event, address: client.address, device: DeviceLabel.make(userAgent: client.userAgent))
    }

    /// Whether the account's email identity was proved (by a mail, a reset or a provider).
    func emailVerified(_ user: UserRecord) async throws -> Bool {
        try await users.identities(userID: user.id).contains { $0.provider == .email && $0.verifiedAt != nil }
    }

    /// Whether the account has an email that was never proved (an account with no email, a
    /// phone's, has none to prove).
    func hasUnverifiedEmail(_ user: UserRecord) async throws -> Bool {
        let emails = try await users.identities(userID: user.id).filter { $0.provider == .email }
        return !emails.isEmpty && !emails.contains { $0.verifiedAt != nil }
    }

    /// A name that passed ``PersonName/checked(_:)``, or a 400 with its plain reason.
    static func checkedName(_ text: String) throws -> String {
        do { return try PersonName.checked(text) } catch { throw GatehouseError.invalidRequest(error.message) }
    }
}
