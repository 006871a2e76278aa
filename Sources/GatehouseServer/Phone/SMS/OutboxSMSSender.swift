import Foundation
import Logging

/// The development sender: each SMS is appended to the shared ``JSONLinesOutbox``.
///
/// `serve --demo` uses it (`--sms-outbox PATH`); a person reads the code from the file. The
/// log says a message was written and where, never the code.
public struct OutboxSMSSender: MessageSender {
    let outbox: JSONLinesOutbox
    let logger: Logger

    public init(path: String, logger: Logger) {
        outbox = JSONLinesOutbox(path: path)
        self.logger = logger
    }

    public func send(_ outgoing: OutgoingMessage) async throws {
        guard case .sms(let message) = outgoing else { throw DeliveryError("the SMS outbox carries only SMS") }
        struct Line: Encodable {
            let to: String
            let body: String
            let code: String
            let sentAt: String

            enum CodingKeys: String, CodingKey {
                case to, body, code
                case sentAt = "sent_at"
            }
        }
        try outbox.append(Line(to: message.to, body: message.body, code: message.code, sentAt: ISO8601DateFormatter().string(from: Date())))
        logger.info("SMS written to the outbox", metadata: ["sms.outbox": "\(outbox.path)", "sms.to": "\(PhoneLog.redacted(message.to))"])
    }
}

/// How phone numbers appear in logs: the country code and the last two digits.
enum PhoneLog {
    static func redacted(_ e164: String) -> String {
        guard e164.count > 6 else { return "…" }
        return String(e164.prefix(3)) + "…" + String(e164.suffix(2))
    }
}
