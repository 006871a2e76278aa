import Foundation

/// One message to one person, on one channel.
public enum OutgoingMessage: Sendable, Equatable {
    case sms(SMSMessage)
    case email(EmailMessage)

    /// The channel it leaves by, as logs and metrics say it.
    public var channel: MessageChannel {
        switch self {
        case .sms: .sms
        case .email: .email
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
    public init(_ reason: String) { self.reason = reason }
}
