import Foundation
import GatehouseCore
import Logging

/// Which sender `serve` uses.
public enum SMSDelivery: Sendable, Equatable {
    /// No SMS: phone sign-in answers 503 until one is configured.
    case none
    /// Append each message as a JSON line to a file (development, `serve --demo`).
    case outbox(path: String)
    /// POST each message to a Standard Webhooks receiver (`whsec_…` secret).
    case webhook(url: String, secret: String)
    /// Send through a Kannel gateway's `sendsms` interface.
    case kannel(url: String, username: String, password: String, from: String?)
}

extension SMSDelivery {
    /// The sender for this choice; throws ``DeliveryError`` for a bad URL or secret, so
    /// `serve` refuses to start rather than failing the first sign-in.
    public func makeSender(logger: Logger) throws -> (any MessageSender)? {
        switch self {
        case .none: nil
        case .outbox(let path): OutboxSMSSender(path: path, logger: logger)
        case .webhook(let url, let secret): try WebhookSMSSender(url: url, secret: secret, logger: logger)
        case .kannel(let url, let username, let password, let from):
            try KannelSMSSender(endpoint: url, username: username, password: password, from: from, logger: logger)
        }
    }
}
