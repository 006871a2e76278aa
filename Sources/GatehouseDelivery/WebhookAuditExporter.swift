import Foundation
import GatehouseCore
import Logging

/// Forwards audit entries to a SIEM's Standard Webhooks receiver: one signed POST per written
/// batch, `{"type": "audit.entries", "entries": [...]}`, its `webhook-id` the batch's outbox id.
public struct WebhookAuditExporter: MessageSender {
    package let webhook: SignedWebhook

    /// - Parameters:
    ///   - url: the receiver; https, or http on loopback only.
    ///   - secret: the shared secret (`whsec_` + base64).
    public init(url: String, secret: String, logger: Logger) throws {
        webhook = try SignedWebhook(url: url, secret: secret, logger: logger)
    }

    public func send(_ outgoing: OutgoingMessage) async throws {
        guard case .audit(let batch) = outgoing else { throw DeliveryError("the audit webhook carries only audit entries", permanent: true) }
        struct Body: Encodable {
            let type = "audit.entries"
            let entries: [AuditEntry]
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        try await webhook.post(try encoder.encode(Body(entries: batch.entries)), id: batch.id, provider: "audit-webhook")
    }
}
