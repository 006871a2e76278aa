import Foundation
import GatehouseCore
import Logging

/// Posts each mail to a receiver, signed the Standard Webhooks way: Supabase's Send Email hook
/// body (`user.email` and `email_data` with `token`, `token_hash`, `redirect_to`,
/// `email_action_type`, `site_url`), plus the rendered `subject`, `text` and `html`.
public struct WebhookEmailSender: MessageSender {
    package let webhook: SignedWebhook
    package var logger: Logger { webhook.logger }

    /// - Parameters:
    ///   - url: the receiver; https, or http on loopback only.
    ///   - secret: the shared secret (`whsec_` + base64).
    public init(url: String, secret: String, logger: Logger) throws {
        webhook = try SignedWebhook(url: url, secret: secret, logger: logger)
    }

    public func send(_ outgoing: OutgoingMessage) async throws {
        guard case .email(let message) = outgoing else { throw DeliveryError("the mail webhook carries only mail") }
        struct Body: Encodable {
            struct User: Encodable { let email: String }
            struct EmailData: Encodable {
                let token: String?
                let tokenHash: String?
                let redirectTo: String?
                let emailActionType: String
                let siteURL: String
                let subject: String
                let text: String
                let html: String

                enum CodingKeys: String, CodingKey {
                    case token, subject, text, html
                    case tokenHash = "token_hash", redirectTo = "redirect_to", emailActionType = "email_action_type", siteURL = "site_url"
                }
            }
            let user: User
            let emailData: EmailData

            enum CodingKeys: String, CodingKey {
                case user
                case emailData = "email_data"
            }
        }
        let (text, html) = MailRenderer.shared.render(message)
        let body = try JSONEncoder().encode(Body(user: .init(email: message.to), emailData: .init(
            token: message.code, tokenHash: message.token, redirectTo: message.link, emailActionType: message.action.rawValue,
            siteURL: message.siteURL, subject: message.subject, text: text, html: html
        )))
        try await webhook.post(body, id: message.id, provider: "email-webhook")
        logger.info("Mail handed to the webhook", metadata: ["mail.to": "\(AccountMailer.redacted(message.to))"])
    }
}
