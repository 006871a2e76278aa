import Crypto
import Foundation
import GatehouseModel
import Logging
import LoginCore
import Metrics

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
    /// Keys the code MACs.
    package let key: SymmetricKey
    /// Keyed references for counter keys, the same the sign-in limits use.
    package let references: AccountKeys
    /// Where mail goes; `nil` issues secrets without sending (the CLI's reset link).
    package let sender: (any MessageSender)?
    package let deliveries: DeliveryQueue?
    package let policy: MailPolicy
    /// The app's name and copy, and the address its links point to.
    package let appName: String
    package let messages: MessageCatalogue
    package let publicURL: String
    package let logger: Logger
    package var metrics: any MetricsFactory = MetricsSystem.factory
    /// Where each mail handed to the sender is reported (the audit log).
    package var events: (any EventSink)?

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
        let code = PhoneCodeIssuer.generateCode(length: 6)
        let id = RefreshToken.hash(token)
        let lifetime = purpose == .passwordReset ? policy.resetLifetime : policy.verificationLifetime
        try await secrets.putSecret(OneTimeSecret(
            purpose: purpose, id: id, target: email, secretMAC: mac(id: id, code: code),
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
        case .code(let email, let code):
            guard let current = try await secrets.secret(purpose, target: EmailAddress.normalized(email)) else { throw GatehouseError.codeRejected(.expired) }
            guard let claimed = try await secrets.claimAttempt(purpose, id: current.id, maximum: policy.codeAttempts, now: now) else {
                let exhausted = current.consumedAt == nil && now < current.expiresAt && current.attempts >= policy.codeAttempts
                throw GatehouseError.codeRejected(exhausted ? .exhausted : .expired)
            }
            guard matches(code, id: claimed.id, mac: claimed.secretMAC) else {
                let left = policy.codeAttempts - claimed.attempts
                throw GatehouseError.codeRejected(left > 0 ? .incorrect(attemptsLeft: left) : .exhausted)
            }
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
        let job: DeliveryQueue.Job = { [self] in
            do {
                let budget = try await throttles.hit(.mailBudget, window: 3600, at: now)
                guard budget.count <= policy.mailsPerHour else {
                    logger.warning("Mail budget for this hour is spent; a mail was dropped", metadata: ["mail.budget": "\(policy.mailsPerHour)"])
                    report(message, result: "dropped", now: now)
                    return count("dropped")
                }
                guard let sender else { throw DeliveryError("no mail sender is configured") }
                try await sender.send(.email(message))
                count("sent")
                report(message, result: "sent", now: now)
            } catch {
                count("failed")
                report(message, result: "failed", now: now)
                logger.error("Mail not sent", metadata: [
                    "mail.to": "\(Self.redacted(message.to))", "mail.action": "\(message.action.rawValue)",
                    "error": "\((error as? DeliveryError)?.reason ?? String(describing: type(of: error)))",
                ])
            }
        }
        if let deliveries { deliveries.enqueue(job) } else { Task { await job() } }
    }

    /// The recipient is named by the keyed reference the sign-in limits use for the address.
    private func report(_ message: EmailMessage, result: String, now: Date) {
        let event = SecurityEvent.messageSent(
            account: references.reference(for: message.to), channel: "email", purpose: message.action.rawValue, result: result
        )
        events?.record(event, at: now, address: nil, device: nil)
    }

    private func count(_ result: String) {
        Counter(label: "gatehouse_messages_total", dimensions: [("channel", "email"), ("result", result)], factory: metrics).increment()
    }

    package func mac(id: String, code: String) -> String {
        HMAC<SHA256>.authenticationCode(for: Data("\(id):\(code)".utf8), using: key).hexEncoded
    }

    /// Compares in constant time (HMAC verification), whatever `code` is.
    private func matches(_ code: String, id: String, mac stored: String?) -> Bool {
        guard let stored, let expected = Data(hex: stored) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(expected, authenticating: Data("\(id):\(code)".utf8), using: key)
    }

    /// An address as logs show it: the first letter and the domain (`j…@example.com`).
    package static func redacted(_ email: String) -> String {
        guard let at = email.lastIndex(of: "@") else { return "…" }
        return String(email.prefix(1)) + "…" + email[at...]
    }
}
