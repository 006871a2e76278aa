import Foundation
import GatehouseCore
import Logging

/// Which mail sender `serve` uses.
public enum EmailDelivery: Sendable, Equatable {
    /// No mail: sign-up, verification and reset are refused until one is configured.
    case none
    /// Append each mail as a JSON line to a file (development, `serve --demo`).
    case outbox(path: String)
    /// POST each mail to a Standard Webhooks receiver (`whsec_…` secret).
    case webhook(url: String, secret: String)
    /// Submit each mail to an SMTP server.
    case smtp(SMTPSettings)

    /// The sender for this choice; throws ``DeliveryError`` for a bad URL or secret, so `serve`
    /// refuses to start rather than failing the first sign-up.
    public func makeSender(logger: Logger) throws -> (any MessageSender)? {
        switch self {
        case .none: nil
        case .outbox(let path): OutboxEmailSender(path: path, logger: logger)
        case .webhook(let url, let secret): try WebhookEmailSender(url: url, secret: secret, logger: logger)
        case .smtp(let settings): try SMTPEmailSender(settings: settings, logger: logger)
        }
    }
}
