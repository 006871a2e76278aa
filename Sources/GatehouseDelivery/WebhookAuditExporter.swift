import Foundation
import GatehouseCore
import Logging

/// Forwards audit entries to a SIEM's Standard Webhooks receiver: one signed POST per written
/// batch, `{"type": "audit.entries", "entries": [...]}`, with the shared retries.
public struct WebhookAuditExporter: AuditExporter {
    package let url: String
    package let signer: WebhookSigner
    package let delivery: HTTPDelivery
    package let logger: Logger

    /// - Parameters:
    ///   - url: the receiver; https, or http on loopback only.
    ///   - secret: the shared secret (`whsec_` + base64).
    public init(url: String, secret: String, logger: Logger) throws {
        try WebhookSigner.check(url: url)
        self.url = url
        signer = try WebhookSigner(secret: secret)
        delivery = HTTPDelivery()
        self.logger = logger
    }

    public func export(_ entries: [AuditEntry]) async throws {
        struct Body: Encodable {
            let type = "audit.entries"
            let entries: [AuditEntry]
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        try await delivery.postSigned(try encoder.encode(Body(entries: entries)), to: url, signer: signer, provider: "audit-webhook", logger: logger)
    }
}
