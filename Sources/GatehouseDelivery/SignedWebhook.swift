import Foundation
import Logging

/// A Standard Webhooks receiver: its URL, the signing secret and the shared retries. What the
/// SMS, mail and audit webhooks have in common; each only shapes its body.
package struct SignedWebhook: Sendable {
    package let url: String
    package let signer: WebhookSigner
    package var delivery = HTTPDelivery()
    package let logger: Logger

    /// - Parameters:
    ///   - url: the receiver; https, or http on loopback only.
    ///   - secret: the shared secret as Standard Webhooks writes it (`whsec_` + base64).
    package init(url: String, secret: String, logger: Logger) throws {
        try WebhookSigner.check(url: url)
        self.url = url
        signer = try WebhookSigner(secret: secret)
        self.logger = logger
    }

    /// POSTs `body` signed, with the shared retries; `provider` names it in the log.
    /// - Parameter id: the message's `webhook-id`, the same on every try (the outbox's id), so
    ///   the receiver can drop a repeat; a new one when `nil`.
    package func post(_ body: Data, id: String? = nil, provider: String) async throws {
        try await delivery.postSigned(body, id: id, to: url, signer: signer, provider: provider, logger: logger)
    }
}
