import Foundation
import GatehouseCore
import Logging

/// Posts each SMS to an HTTPS endpoint, signed the Standard Webhooks way (``WebhookSigner``).
///
/// The body is Supabase's Send SMS hook body (`{"user": {"phone"}, "sms": {"otp"}}`) plus the
/// full text under `sms.message`, so a receiver written for Supabase works unchanged.
public struct WebhookSMSSender: MessageSender {
    package let webhook: SignedWebhook
    package var logger: Logger { webhook.logger }

    /// - Parameters:
    ///   - url: the receiver; https, or http on loopback only.
    ///   - secret: the shared secret as Standard Webhooks writes it (`whsec_` + base64).
    public init(url: String, secret: String, logger: Logger) throws {
        webhook = try SignedWebhook(url: url, secret: secret, logger: logger)
    }

    public func send(_ outgoing: OutgoingMessage) async throws {
        guard case .sms(let message) = outgoing else { throw DeliveryError("the SMS webhook carries only SMS") }
        struct Body: Encodable {
            package struct User: Encodable { let phone: String }
            package struct SMS: Encodable {
                package let otp: String
                package let message: String
            }
            package let user: User
            package let sms: SMS
        }
        let body = try JSONEncoder().encode(Body(user: .init(phone: message.to), sms: .init(otp: message.code, message: message.body)))
        try await webhook.post(body, id: message.id, provider: "webhook")
        logger.info("SMS handed to the webhook", metadata: ["sms.to": "\(PhoneLog.redacted(message.to))"])
    }
}
