import Foundation
import GatehouseCore
import Logging

/// The development mail sender: each mail, rendered, appended to the shared ``JSONLinesOutbox``
/// with its link and code, so a person (or a test) reads them from the file.
public struct OutboxEmailSender: MessageSender {
    package let outbox: JSONLinesOutbox
    package let logger: Logger

    public init(path: String, logger: Logger) {
        outbox = JSONLinesOutbox(path: path)
        self.logger = logger
    }

    public func send(_ outgoing: OutgoingMessage) async throws {
        guard case .email(let message) = outgoing else { throw DeliveryError("the mail outbox carries only mail") }
        struct Line: Encodable {
            let to: String
            let action: String
            let subject: String
            let text: String
            let html: String
            let link: String?
            let code: String?
            let sentAt: String

            enum CodingKeys: String, CodingKey {
                case to, action, subject, text, html, link, code
                case sentAt = "sent_at"
            }
        }
        let (text, html) = MailRenderer.shared.render(message)
        try outbox.append(Line(
            to: message.to, action: message.action.rawValue, subject: message.subject, text: text, html: html, link: message.link,
            code: message.code, sentAt: ISO8601DateFormatter().string(from: Date())
        ))
        logger.info("Mail written to the outbox", metadata: [
            "mail.outbox": "\(outbox.path)", "mail.to": "\(AccountMailer.redacted(message.to))", "mail.action": "\(message.action.rawValue)",
        ])
    }
}
