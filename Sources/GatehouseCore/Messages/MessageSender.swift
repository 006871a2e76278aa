import Foundation

/// One message on one channel: to a person, or (audit entries) to the operator's SIEM.
public enum OutgoingMessage: Sendable, Equatable, Codable {
    case sms(SMSMessage)
    case email(EmailMessage)
    case audit(AuditBatch)

    /// The channel it leaves by, as logs and metrics say it.
    public var channel: MessageChannel {
        switch self {
        case .sms: .sms
        case .email: .email
        case .audit: .auditWebhook
        }
    }

    /// The address or number it goes to; the audit webhook is one recipient.
    public var recipient: String {
        switch self {
        case .sms(let message): message.to
        case .email(let message): message.to
        case .audit: Self.auditRecipient
        }
    }

    /// How audit batches name their one recipient (its keyed reference is the rows' `recipient`).
    static let auditRecipient = "audit-webhook"


    /// The recipient as logs show it: `j…@example.com`, `+91…10`.
    public var redactedRecipient: String {
        switch self {
        case .sms(let message): PhoneLog.redacted(message.to)
        case .email(let message): AccountMailer.redacted(message.to)
        case .audit: Self.auditRecipient
        }
    }

    /// The same message carrying the outbox's id.
    public func identified(by id: String) -> OutgoingMessage {
        switch self {
        case .sms(var message):
            message.id = id
            return .sms(message)
        case .email(var message):
            message.id = id
            return .email(message)
        case .audit(var batch):
            batch.id = id
            return .audit(batch)
        }
    }
}

/// Delivers messages: the one seam every channel's adapters conform to (the dev outbox, a
/// Standard Webhooks receiver, Kannel, SMTP).
///
/// An adapter says which channels it carries; handing it another is a ``DeliveryError``.
public protocol MessageSender: Sendable {
    /// Sends one message; throws ``DeliveryError`` when the provider refuses or fails.
    func send(_ message: OutgoingMessage) async throws
}

/// The provider did not take the message; the person is not to blame.
public struct DeliveryError: Error, Equatable {
    public var reason: String
    /// The provider refused it for good (SMTP 5xx, HTTP 4xx): trying again cannot help.
    public var permanent: Bool
    public init(_ reason: String, permanent: Bool = false) {
        self.reason = reason
        self.permanent = permanent
    }
}
