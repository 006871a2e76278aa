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
/// older one. Mail always leaves through the ``DeliveryQueue``, after the answer, so a request
/// never waits on a mail server and never answers differently for an address with an account.
package struct AccountMailer: Sendable {
    package let secrets: any OneTimeSecretRepository
    package let throttles: any ThrottleRepository
    /// The code arithmetic (MAC, compare, tries left), shared with phone codes.
    package let code: OneTimeCode
    /// Keyed references for counter keys, the same the sign-in limits use.
    package let references: AccountKeys
    /// The send step (budget, sender, count, report), shared with SMS; without a sender it
    /// issues secrets without sending (the CLI's reset link).
    package var dispatch: MessageDispatch
    package let deliveries: DeliveryQueue?
    package let policy: MailPolicy
    /// The app's name and copy, and the address its links point to.
    package let appName: String
    package let messages: MessageCatalogue
    package let publicURL: String
    package let logger: Logger

    package init(
        secrets: any OneTimeSecretRepository, throttles: any ThrottleRepository, key: SymmetricKey, references: AccountKeys,
        sender: (any MessageSender)?, deliveries: DeliveryQueue?, policy: MailPolicy, appName: String, messages: MessageCatalogue,
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
        self.deliveries = deliveries
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
        sender: (any MessageSender)?, deliveries: DeliveryQueue?, policy: MailPolicy, login: LoginConfiguration, publicURL: String,
        logger: Logger
    ) async throws -> AccountMailer {
        AccountMailer(
            secrets: repository, throttles: repository, key: try await repository.key(named: secretName), references: references,
            sender: sender, deliveries: deliveries, policy: policy, appName: login.appName, messages: login.messages,
            publicURL: publicURL, logger: logger
        )
    }

    /// The per-address limit, then one mail of this purpose to this recipient a minute; counted
    /// alike whether or not the address has an account.
    package func admit(recipient email: String, purpose: OneTimeSecretPurpose, from client: ClientInfo, now: Date) async throws {
        try await throttles.admit(.mailAddress(client.address), maximum: policy.mailsPerAddressPerHour, per: 3600, at: now)
        let recipient = references.reference(for: "email:\(email)")
        try await throttles.admit(
            .mailRecipient(purpose: purpose.rawValue, recipient: recipient), maximum: 1, per: TimeInterval(policy.recipientInterval), at: now
        )
    }

    /// Stores a new secret for `email` (replacing its older one) and returns its token and code.
    package func issue(_ purpose: OneTimeSecretPurpose, userID: String, email: String, now: Date) async throws -> IssuedMailSecret {
        let token = RefreshToken.generate(prefix: "ghm_")
        let code = OneTimeCode.generate(length: 6)
        let id = RefreshToken.hash(token)
        let lifetime = purpose == .passwordReset ? policy.resetLifetime : policy.verificationLifetime
        try await secrets.putSecret(OneTimeSecret(
            purpose: purpose, id: id, target: email, secretMAC: self.code.mac(id: id, code: code),
            data: try JSONEncoder().encode(MailSecretFields(userID: userID, email: email)), createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(lifetime))
        ))
        return IssuedMailSecret(token: token, code: code)
    }

    /// The account a link or code was issued for, consuming it; every code try is counted first.
    package func redeem(_ purpose: OneTimeSecretPurpose, _ proof: MailProof, now: Date) async throws -> MailSecretFields {
        let secret: OneTimeSecret?
        switch proof {
        case .token(let token):
            secret = try await secrets.consumeSecret(purpose, id: RefreshToken.hash(token), at: now, unexpiredAt: now)
        case .code(let email, let text):
            guard let current = try await secrets.secret(purpose, target: EmailAddress.normalized(email)) else { throw GatehouseError.codeRejected(.expired) }
            guard let claimed = try await secrets.claimAttempt(purpose, id: current.id, maximum: policy.codeAttempts, now: now) else {
                throw code.unclaimable(consumed: current.consumedAt != nil, expiresAt: current.expiresAt, attempts: current.attempts, now: now)
            }
            guard code.matches(text, id: claimed.id, mac: claimed.secretMAC) else { throw code.wrongCode(attempts: claimed.attempts) }
            secret = try await secrets.consumeSecret(purpose, id: claimed.id, at: now, unexpiredAt: now)
        }
        guard let secret, let fields = try? JSONDecoder().decode(MailSecretFields.self, from: secret.data) else {
            throw GatehouseError.linkExpired
        }
        return fields
    }

    /// The mail for an action, in the app's words, with its link and code.
    package func compose(_ action: EmailMessage.Action, to email: String, secret: IssuedMailSecret?) -> EmailMessage {
        let values = ["app": appName, "email": email, "code": secret?.code ?? ""]
        let (subject, body, label): (MessageKey, MessageKey, MessageKey) = switch action {
        case .signUp, .verify: (.mailVerifySubject, .mailVerifyBody, .mailVerifyAction)
        case .recovery: (.mailResetSubject, .mailResetBody, .mailResetAction)
        case .existingAccount: (.mailExistingSubject, .mailExistingBody, .signInLink)
        }
        let link: String? = switch action {
        case .signUp, .verify: secret.map { "\(publicURL)/verify-email?token=\($0.token)" }
        case .recovery: secret.map { "\(publicURL)/reset-password?token=\($0.token)" }
        case .existingAccount: "\(publicURL)/login"
        }
        return EmailMessage(
            action: action, to: email, link: link, code: secret?.code, token: secret?.token,
            secondaryLink: action == .existingAccount ? "\(publicURL)/forgot-password" : nil,
            secondaryLabel: action == .existingAccount ? messages.text(.forgotPassword) : nil, appName: appName,
            subject: messages.text(subject, values), body: messages.text(body, values), actionLabel: messages.text(label, values),
            codeLine: secret == nil ? nil : messages.text(.mailCodeLine, values), footer: messages.text(.mailIgnore, values),
            siteURL: publicURL
        )
    }

    /// Queues a mail: the hourly budget and the sender's retries run after the answer; a mail
    /// past the budget, or one that fails, is logged (address redacted) and counted, never answered.
    package func send(_ message: EmailMessage, now: Date) {
        let job: DeliveryQueue.Job = { [dispatch, logger] in
            let outcome = await dispatch.dispatch(.email(message), to: message.to, purpose: message.action.purpose, now: now)
            guard case .failed(let reason) = outcome else { return }
            logger.error("Mail not sent", metadata: [
                "mail.to": "\(Self.redacted(message.to))", "mail.action": "\(message.action.rawValue)", "error": "\(reason)",
            ])
        }
        if let deliveries { deliveries.enqueue(job) } else { Task { await job() } }
    }

    /// An address as logs show it: the first letter and the domain (`j…@example.com`).
    package static func redacted(_ email: String) -> String {
        guard let at = email.lastIndex(of: "@") else { return "…" }
        return String(email.prefix(1)) + "…" + email[at...]
    }
}
