import Foundation
import GatehouseCore
import Logging

/// Sends account mail through an SMTP server (``SMTPClient``), rendered by ``MailRenderer``.
///
/// A transient failure (4xx, a timeout, a lost connection) is tried again, up to ``attempts``
/// times with a doubling pause; a permanent one (5xx, no TLS) is not. It runs on the delivery
/// queue, so no request waits for it.
public struct SMTPEmailSender: MessageSender {
    package let client: SMTPClient
    package var attempts = 3
    package var backoff: Duration = .seconds(1)
    package let logger: Logger

    public init(settings: SMTPSettings, logger: Logger) throws {
        do {
            client = try SMTPClient(settings: settings)
        } catch {
            throw DeliveryError("cannot read the SMTP trust roots (\(type(of: error)))")
        }
        self.logger = logger
    }

    public func send(_ outgoing: OutgoingMessage) async throws {
        guard case .email(let message) = outgoing else { throw DeliveryError("SMTP carries only mail") }
        let (text, html) = MailRenderer.shared.render(message)
        let from = client.settings.from
        let domain = from.address.split(separator: "@").last.map(String.init) ?? "gatehouse.localdomain"
        let mail = MailMIME.compose(
            from: from, to: message.to, subject: message.subject, text: text, html: html, date: Date(),
            messageID: message.id.map { "\($0)@\(domain)" } ?? MailMIME.messageID(domain: domain)
        )
        var last = "no attempt"
        var permanentFailure = false
        for attempt in 1...attempts {
            if attempt > 1 { try await Task.sleep(for: backoff * (1 << (attempt - 2))) }
            do {
                try await client.submit(mail, to: message.to)
                logger.info("Mail handed to the SMTP server", metadata: [
                    "mail.to": "\(AccountMailer.redacted(message.to))", "mail.action": "\(message.action.rawValue)",
                ])
                return
            } catch let failure as SMTPFailure {
                last = failure.reason
                logger.warning("SMTP attempt failed", metadata: ["attempt": "\(attempt)", "error": "\(failure.reason)"])
                if !failure.transient {
                    permanentFailure = true
                    break
                }
            } catch {
                last = String(describing: type(of: error))
                logger.warning("SMTP attempt failed", metadata: ["attempt": "\(attempt)", "error": "\(last)"])
            }
        }
        throw DeliveryError("smtp: \(last)", permanent: permanentFailure)
    }
}
