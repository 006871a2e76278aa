import Crypto
import Foundation
import GatehouseCore
import GatehouseModel
import GatehouseSQL
import Logging
import LoginCore
import NIOConcurrencyHelpers

/// The pipeline and its feature services on a real SQLite file, with no HTTP framework and no
/// surface: what the composition root builds, assembled here by hand.
struct CoreHarness {
    static let email = "user@example.com"
    static let password = "password123"

    let repository: SQLRepository
    let clock: ManualClock
    let events: EventRecorder
    let outbox: Outbox
    let context: ServiceContext
    let pipeline: SignInPipeline
    let accounts: EmailAccounts
    let devices: Devices
    let deletion: AccountDeletion
    let emailChange: EmailChange?
    let guests: GuestAccounts
    let phone: PhoneCodes?
    /// Authenticator-app factors, with the key-encryption key ``kek``.
    let factors: SecondFactors
    let kek: SymmetricKey
    /// The demo account, with ``email`` and ``password``.
    let user: UserRecord

    /// Options a test may change before the services are built.
    struct Options {
        var settings = AuthSettings()
        var phone: PhonePolicy?
        var mail = true
        var mfa = MFAPolicy()
        /// Guest accounts a client address may make per hour, when the app lists `anonymous`.
        var guestsPerHour = 30
    }

    /// Real argon2id, cheap: these tests are about behaviour, not cost.
    static let argon2 = Argon2Parameters(memoryKiB: 1024, iterations: 1, parallelism: 1)
    static let client = ClientInfo(
        address: "192.0.2.1",
        userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
    )

    /// Runs `body` against fresh services over a new SQLite file, removed afterwards.
    @discardableResult
    static func with<T>(_ configure: (inout Options) -> Void = { _ in }, _ body: (CoreHarness) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-core-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let logger = Logger(label: "core-test")
        return try await Storage.with(.sqlite(path: folder.appendingPathComponent("core.sqlite").path), logger: logger) { storage in
            try await storage.repository.migrate()
            var options = Options()
            options.settings.accounts = AccountOptions(signUp: true, passwordReset: true)
            configure(&options)
            let harness = try await CoreHarness(repository: storage.repository, options: options, logger: logger)
            return try await body(harness)
        }
    }

    private init(repository: SQLRepository, options: Options, logger: Logger) async throws {
        self.repository = repository
        let clock = ManualClock()
        self.clock = clock
        events = EventRecorder()
        outbox = Outbox()
        var settings = options.settings
        settings.clock = { clock.now }
        let hasher = PasswordHasher(parameters: Self.argon2)
        let keys = try await AccountKeys.open(repository)
        context = try await ServiceContext(repository: repository, hasher: hasher, keys: keys, settings: settings, events: events, logger: logger)
        let kek = SymmetricKey(size: .bits256)
        self.kek = kek
        let ring = KeyRing(repository: repository, kek: kek, refreshInterval: .seconds(60))
        try await ring.start(legacyKeyFile: nil, now: clock.now)
        let tokens = TokenIssuer(keys: ring, issuer: "http://127.0.0.1:8080", audience: "gatehouse", lifetime: 900)
        let messages = MessageOutbox(repository: repository, kek: kek, deliveries: nil, clock: { clock.now }, logger: logger)
        var mail: AccountMailer?
        if options.mail {
            mail = try await AccountMailer.open(
                repository, references: keys, sender: outbox, outbox: messages, policy: settings.mail, login: settings.login,
                publicURL: settings.publicURL, logger: logger
            )
            mail?.dispatch.events = events
        }
        accounts = EmailAccounts(context: context, mail: mail)
        deletion = AccountDeletion(context: context, mail: mail)
        emailChange = if let mail { EmailChange(context: context, mail: mail) } else { nil }
        factors = SecondFactors(context: context, factors: repository, kek: kek, policy: options.mfa, qrCodes: nil, mail: mail)
        devices = Devices(context: context)
        var verifiers: [any GrantVerifier] = [accounts, factors]
        guests = GuestAccounts(context: context, throttles: repository, perAddressPerHour: options.guestsPerHour)
        if settings.signInMethods.offers(.anonymous) { verifiers.append(guests) }
        if let policy = options.phone {
            var issuer = try await PhoneCodeIssuer.open(
                repository, numbers: IndianMobiles(), references: keys, sender: outbox, outbox: messages, policy: policy, logger: logger
            )
            issuer.dispatch.events = events
            let phone = PhoneCodes(context: context, issuer: issuer)
            verifiers.append(phone)
            self.phone = phone
        } else {
            phone = nil
        }
        pipeline = SignInPipeline(context: context, tokens: tokens, verifiers: verifiers)
        let administration = UserAdministration(repository: repository, numbers: IndianMobiles(), hasher: hasher, clock: { clock.now }, passwordPolicy: nil)
        user = try await administration.create(email: Self.email, name: "Demo User", password: Self.password)
    }

    /// A password sign-in from ``client``.
    func signIn(_ email: String = Self.email, _ password: String = Self.password, from client: ClientInfo = Self.client) async throws -> SignIn {
        try await pipeline.signIn(.password(identifier: email, password: password), from: client)
    }

    /// Waits up to 5 s for `condition`, which work after the answer (a send, then its row's
    /// update) makes true; whether it held.
    ///
    /// A mail reaches the sender before its outbox row is marked sent and its event recorded,
    /// so a test that reads either right after the mail arrives must wait for it.
    func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
        for _ in 0..<500 {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}

/// A clock moved by hand.
final class ManualClock: Sendable {
    private let current = NIOLockedValueBox(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { current.withLockedValue { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLockedValue { $0 += seconds } }
}

/// Every security event the services report, in order.
final class EventRecorder: EventSink {
    private let recorded = NIOLockedValueBox<[SecurityEvent]>([])
    var all: [SecurityEvent] { recorded.withLockedValue { $0 } }
    func record(_ event: SecurityEvent, at date: Date, address: String?, device: String?) {
        recorded.withLockedValue { $0.append(event) }
    }
}

/// Keeps every message handed to it; ``next(_:)`` waits for one sent after the answer.
final class Outbox: MessageSender {
    private let sent = NIOLockedValueBox<[OutgoingMessage]>([])
    /// When set, every send fails as a gateway would.
    let failing = NIOLockedValueBox(false)

    var all: [OutgoingMessage] { sent.withLockedValue { $0 } }

    func send(_ message: OutgoingMessage) async throws {
        if failing.withLockedValue({ $0 }) { throw DeliveryError("gateway down") }
        sent.withLockedValue { $0.append(message) }
    }

    /// The mails sent so far to `address`, waiting up to 5 s for at least `count`.
    func mails(to address: String, count: Int = 1) async throws -> [EmailMessage] {
        for _ in 0..<500 {
            let mails = all.compactMap { if case .email(let mail) = $0, mail.to == address { mail } else { nil } }
            if mails.count >= count { return mails }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw DeliveryError("no mail to \(address)")
    }

    /// The codes sent by SMS so far.
    var smsCodes: [String] {
        all.compactMap { if case .sms(let sms) = $0 { sms.code } else { nil } }
    }
}

/// The core's phone seam, for tests: Indian mobiles only (`+91` and ten digits from 6 to 9).
struct IndianMobiles: PhoneNumberReader {
    func parse(_ text: String, region: String) -> PhoneNumber? {
        let digits = text.filter(\.isNumber)
        let national = digits.hasPrefix("91") && digits.count == 12 ? String(digits.dropFirst(2)) : digits
        guard national.count == 10, let first = national.first, "6789".contains(first) else { return nil }
        return PhoneNumber(
            e164: "+91" + national, international: "+91 " + national.prefix(5) + " " + national.suffix(5), region: "IN",
            countryCode: 91, kind: .mobile, isValid: true
        )
    }

    func country(_ region: String, language: String) -> PhoneCountry? { nil }
}
