import Foundation
import GatehouseCore
import Logging

/// The development sender: each SMS is appended to the shared ``JSONLinesOutbox``.
///
/// `serve --demo` uses it (`--sms-outbox PATH`); a person reads the code from the file. The
/// log says a message was written and where, never the code.
public struct OutboxSMSSender: MessageSender {
    package let outbox: JSONLinesOutbox
    package let logger: Logger

    public init(path: String, logger: Logger) {
        outbox = JSONLinesOutbox(path: path)
        self.logger = logger
    }

    public func send(_ outgoing: OutgoingMessage) async throws {
        guard case .sms(let message) = outgoing else { throw DeliveryError("the SMS outbox carries only SMS") }
        struct Line: Encodable {
            package let to: String
            package let body: String
            package let code: String
            package let sentAt: String

            package enum CodingKeys: String, CodingKey {
                case to, body, code
                case sentAt = "sent_at"
            }
        }
        try outbox.append(Line(to: message.to, body: message.body, code: message.code, sentAt: ISO8601DateFormatter().string(from: Date())))
        logger.info("SMS written to the outbox", metadata: ["sms.outbox": "\(outbox.path)", "sms.to": "\(PhoneLog.redacted(message.to))"])
    }
}
