import Crypto
import Foundation
import GatehouseModel
import Logging
import LoginCore

/// Account mail: the limits, the secrets (a link's token and a 6-digit code), and the mail.
///
/// Tokens have 256 random bits and are stored only as their SHA-256; codes are stored only as
/// an HMAC under a server secret, with a bounded number of tries. Both live in the one
/// one-time secret store, one live secret per purpose and address: a newer mail replaces the
/// older one. Mail always leaves through the ``MessageOutbox``: a secret and its mail are stored
/// in one transaction and sent after the answer, so a request never waits on a mail server,
/// never answers differently for an address with an account, and no mail is lost to a crash.
package struct AccountMailer: Sendable {
    package let secrets: any OneTimeSecretRepository
    package let throttles: any ThrottleRepository
    /// The code arithmetic (MAC, compare, tries left), shared with phone codes.
    package let code: OneTimeCode
    /// Keyed references for counter keys, the same the sign-in limits use.
    package let references: AccountKeys
    /// The send step (budget, sender, count, report), shared with SMS, which the outbox runs.
    package var dispatch: MessageDispatch {
        didSet { outbox?.register(dispatch) }
    }
    /// Where mail waits to be sent; without one (the CLI's reset link) secrets are issued and
    /// nothing is sent.
    package let outbox: MessageOutbox?
    package let policy: MailPolicy
    /// The app's name and copy, and the address its links point to.
    package let appName: String
    package let messages: MessageCatalogue
    package let publicURL: String
    package let logger: Logger

    package init(
        secrets: any OneTimeSecretRepository, throttles: any ThrottleRepository, key: SymmetricKey, references: AccountKeys,
        sender: (any MessageSender)?, outbox: MessageOutbox?, policy: MailPolicy, appName: String, messages: MessageCatalogue,
        publicURL: String, logger: Logger
    ) {
        self.secrets = secrets
        self.throttles = throttles
        code = OneTimeCode(key: key, maximumAttempts: policy.codeAttempts)
        self.references = references
        dispatch = MessageDispatch(
            channel: .email, throttles: throttles, budget: .mailBudget, perHour: policy.mailsPerHour, overBudgetResult: .dropped,
            sender: sender, references: references, logger: logger
        )
        dispatch.sharePerHour = policy.domainShare
        self.outbox = outbox
        outbox?.register(dispatch)
        self.policy = policy
        self.appName = appName
        self.messages = messages
        self.publicURL = publicURL
        self.logger = logger
    }

    /// The name of the HMAC key in ``SecretRepository``.
    package static let secretName = "email-code-hmac-v1"

    /// The mailer over one repository, with the code key every instance shares.
    package static func open(
        _ repository: some OneTimeSecretRepository & ThrottleRepository & SecretRepository, references: AccountKeys,
        sender: (any MessageSender)?, outbox: MessageOutbox?, policy: MailPolicy, login: LoginConfiguration, publicURL: String,
        logger: Logger
    ) async throws -> AccountMailer {
        AccountMailer(
            secrets: repository, throttles: repository, key: try await repository.key(named: secretName), references: references,
            sender: sender, outbox: outbox, policy: policy, appName: login.appName, messages: login.messages,
            publicURL: publicURL, logger: logger
        )
    }

    /// The per-address limit, then one mail of this purpose to this recipient a minute; counted
    /// alike whether or not the address has an account, and each refusal audited.
    package func admit(recipient email: String, purpose: OneTimeSecretPurpose, from client: ClientInfo, now: Date) async throws {
        let recipient = references.reference(for: "email:\(email)")
        try await admitAudited(.mailAddress(client.address), maximum: policy.mailsPerAddressPerHour, per: 3600, account: recipient, client, now)
        try await admitAudited(
            .mailRecipient(purpose: purpose.rawValue, recipient: recipient), maximum: 1, per: TimeInterval(policy.recipientInterval),
            account: recipient, client, now
        )
    }

    /// One limit whose refusal leaves an audit row naming the limit and the recipient's reference.
    package func admitAudited(
        _ key: LimitKey, maximum: Int, per window: TimeInterval, account: String?, _ client: ClientInfo, _ now: Date
    ) async throws {
        do {
            try await throttles.admit(key, maximum: maximum, per: window, at: now)
        } catch GatehouseError.rateLimited(let wait) {
            dispatch.events?.record(
                .requestThrottled(account: account, limit: key.kind), at: now, address: client.address,
                device: DeviceLabel.make(userAgent: client.userAgent)
            )
            throw GatehouseError.rateLimited(retryAfter: wait)
        }
    }

    /// Stores a new secret for `email` (replacing its older one) and returns its token and code.
    package func issue(_ purpose: OneTimeSecretPurpose, userID: String, email: String, now: Date) async throws -> IssuedMailSecret {
        try await issue(purpose, MailSecretFields(userID: userID, email: email), now: now)
    }

    /// Stores a new secret with these fields (replacing the address's older one).
    package func issue(_ purpose: OneTimeSecretPurpose, _ fields: MailSecretFields, now: Date) async throws -> IssuedMailSecret {
        let (stored, issued) = try prepare(purpose, fields, now: now)
        try await secrets.putSecret(stored)
        return issued
    }

    /// Issues a secret and queues the mail that carries it, in one transaction: neither is
    /// stored without the other. Returns the secret (the token and code the mail carries).
    @discardableResult
    package func send(
        _ action: EmailMessage.Action, _ purpose: OneTimeSecretPurpose, _ fields: MailSecretFields, extra: [String: String] = [:],
        for client: ClientInfo?, now: Date
    ) async throws -> IssuedMailSecret {
        let (stored, issued) = try prepare(purpose, fields, now: now)
        guard let outbox else {
            try await secrets.putSecret(stored)
            return issued
        }
        let message = compose(action, to: fields.email, secret: issued, extra: extra)
        let record = try outbox.record(
            .email(message), purpose: action.purpose, address: client?.address, expiresAt: stored.expiresAt, now: now
        )
        try await outbox.queue(record, with: stored)
        return issued
    }

    /// A new secret with these fields, as stored and as mailed; nothing is written.
    private func prepare(_ purpose: OneTimeSecretPurpose, _ fields: MailSecretFields, now: Date) throws -> (OneTimeSecret, IssuedMailSecret) {
        let email = fields.email
        let token = RefreshToken.generate(prefix: "ghm_")
        let code = OneTimeCode.generate(length: 6)
        let id = RefreshToken.hash(token)
        let lifetime = switch purpose {
        case .emailVerification: policy.verificationLifetime
        case .emailSignIn: policy.signInCodeLifetime
        case .emailChangeNew, .emailChangeCurrent: policy.verificationLifetime
        case .emailChangeRevert: policy.revertLifetime
        default: policy.resetLifetime
        }
        let stored = OneTimeSecret(
            purpose: purpose, id: id, target: email, secretMAC: self.code.mac(id: id, code: code),
            data: try JSONEncoder().encode(fields), createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(lifetime))
        )
        return (stored, IssuedMailSecret(token: token, code: code))
    }

    /// Stores a secret for an address that gets no mail (no account, or nothing to verify), so
    /// that it answers wrong codes exactly as a mailed one does, with its own tries, and its
    /// request did the same work and writes. Nobody knows its code or token, and it names no
    /// account.
    ///
    /// The mail a mailed address would get (`action`) is composed and sealed all the same, and
    /// its outbox row is stored with the secret in one transaction, as already settled: never
    /// sent, without its content, and pruned with the sent ones.
    package func issueDecoy(
        _ purpose: OneTimeSecretPurpose, email: String, pendingPasswordHash: String? = nil, standingIn action: EmailMessage.Action,
        for client: ClientInfo?, now: Date
    ) async throws {
        let (stored, issued) = try prepare(purpose, decoyFields(email, pendingPasswordHash), now: now)
        guard let outbox else { return try await secrets.putSecret(stored) }
        let message = compose(action, to: email, secret: issued)
        let record = try outbox.record(.email(message), purpose: action.purpose, address: client?.address, expiresAt: stored.expiresAt, now: now)
        try await outbox.storeSettled(record, with: stored)
    }

    /// A decoy secret for a taken address, with the notice its owner gets instead of a link,
    /// queued in one transaction: the one write a free address's secret and mail make.
    package func issueDecoy(
        _ purpose: OneTimeSecretPurpose, email: String, pendingPasswordHash: String? = nil, notice: EmailMessage, for client: ClientInfo?,
        now: Date
    ) async throws {
        let (stored, _) = try prepare(purpose, decoyFields(email, pendingPasswordHash), now: now)
        guard let outbox else { return try await secrets.putSecret(stored) }
        let record = try outbox.record(.email(notice), purpose: notice.action.purpose, address: client?.address, expiresAt: nil, now: now)
        try await outbox.queue(record, with: stored)
    }

    private func decoyFields(_ email: String, _ pendingPasswordHash: String?) -> MailSecretFields {
        MailSecretFields(userID: "", email: email, pendingPasswordHash: pendingPasswordHash)
    }

    /// The account a link or code was issued for, consuming it; every code try is counted first.
    package func redeem(_ purpose: OneTimeSecretPurpose, _ proof: MailProof, now: Date) async throws -> MailSecretFields {
        try await consume(try await check(purpose, proof, now: now), now: now)
    }

    /// The live secret a link or code proves, without spending it: a token must name an unused,
    /// unexpired secret; a code first passes the recipient's daily cap, then counts one try on
    /// its address's secret, then must match.
    package func check(_ purpose: OneTimeSecretPurpose, _ proof: MailProof, now: Date) async throws -> OneTimeSecret {
        switch proof {
        case .token(let token):
            guard let secret = try await secrets.secret(purpose, id: RefreshToken.hash(token)), secret.isLive(at: now)
            else { throw GatehouseError.linkExpired }
            return secret
        case .code(let email, let text):
            let address = EmailAddress.normalized(email)
            try await throttles.admit(
                .mailCodeGuesses(recipient: references.reference(for: "email:\(address)")), maximum: policy.codeGuessesPerDay, per: 86400,
                at: now
            )
            guard let current = try await secrets.secret(purpose, target: address) else { throw GatehouseError.codeRejected(.expired) }
            guard let claimed = try await secrets.claimAttempt(purpose, id: current.id, maximum: policy.codeAttempts, now: now) else {
                throw code.unclaimable(consumed: current.consumedAt != nil, expiresAt: current.expiresAt, attempts: current.attempts, now: now)
            }
            guard code.matches(text, id: claimed.id, mac: claimed.secretMAC) else { throw code.wrongCode(attempts: claimed.attempts) }
            return claimed
        }
    }

    /// Spends a secret ``check(_:_:now:)`` returned, atomically: one caller gets its account, a
    /// racing one (or a decoy's) gets an expired link.
    package func consume(_ secret: OneTimeSecret, now: Date) async throws -> MailSecretFields {
        guard let spent = try await secrets.consumeSecret(secret.purpose, id: secret.id, at: now, unexpiredAt: now),
              let fields = spent.mailFields, fields.isUsable
        else { throw GatehouseError.linkExpired }
        return fields
    }

    /// The mail for an action, in the app's words, with its link and code.
    package func compose(
        _ action: EmailMessage.Action, to email: String, secret: IssuedMailSecret?, extra: [String: String] = [:]
    ) -> EmailMessage {
        let values = ["app": appName, "email": email, "code": secret?.code ?? ""].merging(extra) { $1 }
        let (subject, body, label): (MessageKey, MessageKey, MessageKey) = switch action {
        case .signUp, .verify: (.mailVerifySubject, .mailVerifyBody, .mailVerifyAction)
        case .recovery: (.mailResetSubject, .mailResetBody, .mailResetAction)
        case .existingAccount: (.mailExistingSubject, .mailExistingBody, .signInLink)
        case .reauthentication: (.mailReauthSubject, .mailReauthBody, .mailReauthSubject)
        case .recoveryCodeUsed: (.mailRecoveryUsedSubject, .mailRecoveryUsedBody, .noticeNotMe)
        case .signInCode: (.mailSignInSubject, .mailSignInBody, .mailSignInAction)
        case .accountDeleted: (.mailDeletedSubject, .mailDeletedBody, .signUpLink)
        case .passwordChangedNotice: (.noticePasswordChangedSubject, .noticePasswordChangedBody, .noticeNotMe)
        case .passwordResetNotice: (.noticePasswordResetSubject, .noticePasswordResetBody, .noticeNotMe)
        case .factorAddedNotice: (.noticeFactorAddedSubject, .noticeFactorAddedBody, .noticeNotMe)
        case .factorRemovedNotice: (.noticeFactorRemovedSubject, .noticeFactorRemovedBody, .noticeNotMe)
        case .passkeyAddedNotice: (.noticePasskeyAddedSubject, .noticePasskeyAddedBody, .noticeNotMe)
        case .emailChangeNew: (.mailEmailChangeNewSubject, .mailEmailChangeNewBody, .emailChangeConfirmButton)
        case .emailChangeCurrent: (.mailEmailChangeCurrentSubject, .mailEmailChangeCurrentBody, .emailChangeReviewButton)
        case .emailInUseNotice: (.noticeEmailInUseSubject, .noticeEmailInUseBody, .signInLink)
        case .emailChangedNotice: (.noticeEmailChangedSubject, .noticeEmailChangedBody, .noticeNotMe)
        case .newDeviceNotice: (.noticeNewDeviceSubject, .noticeNewDeviceBody, .noticeNotMe)
        case .deletionScheduled: (.mailDeletionScheduledSubject, .mailDeletionScheduledBody, .signInLink)
        }
        let link: String? = switch action {
        case .signUp, .verify: secret.map { "\(publicURL)/verify-email?token=\($0.token)" }
        case .recovery: secret.map { "\(publicURL)/reset-password?token=\($0.token)" }
        case .existingAccount: "\(publicURL)/login"
        case .reauthentication: nil
        // A page with one button: a mail scanner that opens links never spends the sign-in.
        case .signInCode: secret.map { "\(publicURL)/sign-in-link?token=\($0.token)" }
        case .accountDeleted: nil
        // "This wasn't me": the reset flow, which ends every session and passkey.
        case .passwordChangedNotice, .passwordResetNotice, .factorAddedNotice, .factorRemovedNotice, .passkeyAddedNotice, .recoveryCodeUsed,
             .newDeviceNotice:
            "\(publicURL)/forgot-password"
        // A page with the change and its buttons (confirm; cancel, from the current address).
        case .emailChangeNew, .emailChangeCurrent: secret.map { "\(publicURL)/email-change?token=\($0.token)" }
        case .emailInUseNotice, .deletionScheduled: "\(publicURL)/login"
        // "This wasn't me": puts the address back, ends every session, opens a reset.
        case .emailChangedNotice: secret.map { "\(publicURL)/email-change/revert?token=\($0.token)" }
        }
        return EmailMessage(
            action: action, to: email, link: link, code: action == .emailChangedNotice ? nil : secret?.code, token: secret?.token,
            secondaryLink: action == .existingAccount ? "\(publicURL)/forgot-password" : nil,
            secondaryLabel: action == .existingAccount ? messages.text(.forgotPassword) : nil, appName: appName,
            subject: messages.text(subject, values), body: messages.text(body, values), actionLabel: messages.text(label, values),
            codeLine: secret == nil || action == .reauthentication || action == .emailChangedNotice ? nil : messages.text(.mailCodeLine, values), footer: messages.text(Self.footer(of: action), values),
            siteURL: publicURL
        )
    }

    /// The closing line: a notice or a confirmation was not asked for, so it cannot be ignored.
    static func footer(of action: EmailMessage.Action) -> MessageKey {
        switch action {
        case .signUp: .mailSignUpIgnore
        case .verify, .recovery, .existingAccount, .reauthentication, .signInCode, .emailChangeNew: .mailIgnore
        case .recoveryCodeUsed, .accountDeleted, .passwordChangedNotice, .passwordResetNotice, .factorAddedNotice, .factorRemovedNotice,
             .passkeyAddedNotice, .emailChangeCurrent, .emailInUseNotice, .emailChangedNotice, .newDeviceNotice,
             .deletionScheduled:
            .noticeFooter
        }
    }

    /// Queues a mail that carries no new secret (a notice): stored in the outbox, then sent
    /// after the answer; the hourly budget and retries apply when it is sent, never in the answer.
    package func send(_ message: EmailMessage, for client: ClientInfo?, now: Date) async throws {
        guard let outbox else { return }
        try await outbox.queue(.email(message), purpose: message.action.purpose, address: client?.address, now: now)
    }

    /// Queues a notice (nothing depends on it but the reader): a failure to store it is logged,
    /// never answered, since what it tells of has already happened.
    package func notify(_ message: EmailMessage, for client: ClientInfo?, now: Date) async {
        do {
            try await send(message, for: client, now: now)
        } catch {
            logger.error("Notice not queued", metadata: ["mail.action": "\(message.action.rawValue)", "error": "\(error)"])
        }
    }

    /// Runs work after the answer (``AnswerHold``): on the outbox's delivery queue, or (without
    /// one) a task.
    package func afterAnswer(_ job: @escaping DeliveryQueue.Job) {
        if let outbox { outbox.afterAnswer(job) } else { AnswerHold.afterAnswer { Task { await job() } } }
    }

    /// An address as logs show it: the first letter and the domain (`j…@example.com`).
    package static func redacted(_ email: String) -> String {
        guard let at = email.lastIndex(of: "@") else { return "…" }
        return String(email.prefix(1)) + "…" + email[at...]
    }
}
